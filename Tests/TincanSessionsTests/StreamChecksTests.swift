import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
@testable import TincanSessions

@Suite("Checks on a stream: how many events, the first and the last")
struct StreamChecksTests {
    static let session = """
        base: "{{server}}/"
        requests:
          - name: server-sent events
            url: sse?count=4&delay=0&event=tick
            capture:
              events: {stream-events: true}
              first: {stream-first: true}
            assert:
              stream-events: 4
              stream-first: {starts-with: '{"n": 1,'}
              stream-last: {contains: '"n": 4'}
          - name: NDJSON lines
            url: stream/3
            assert:
              stream-events: {greater-or-equal: 3, less-than: 4}
              stream-last: {filters: [{regex: '"id":(\\d+)'}, to-int], equals: 2}
          - name: failures say what they found
            url: sse?count=0
            assert:
              stream-events: 1
              stream-first: {exists: true}
              stream-last: {exists: false}
        """

    @Test("replay counts events and reads the first and last, and says why a check fails")
    func streamChecks() async throws {
        let session = try Session.parse(Self.session, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let outcomes = report.outcomes
            for outcome in outcomes.prefix(2) {
                #expect(outcome.state == .passed, "\(outcome.name): \(outcome.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }) \(outcome.error ?? "")")
            }
            let captures = Dictionary(uniqueKeysWithValues: outcomes[0].captures.map { ($0.name, $0.value) })
            #expect(captures["events"] == .integer(4))
            guard case .string(let first)? = captures["first"] else {
                Issue.record("no first event captured: \(captures)")
                return
            }
            #expect(first.hasPrefix("{\"n\": 1, \"sent\": "))
            #expect(outcomes[2].state == .failed)
            let failures = outcomes[2].checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }
            #expect(failures.count == 2, "\(failures)")
            #expect(failures.first?.hasSuffix("is 0, expected 1") == true, "\(failures)")
            #expect(failures.last?.contains("the stream has no events") == true, "\(failures)")
        }
    }

    @Test("stream keys round-trip through the writer, and a bad capture value is refused at its line")
    func keysRoundTrip() throws {
        let session = try Session.parse(Self.session, path: "s.tincan.yaml")
        let request = try #require(session.requests.first)
        #expect(request.captures["events"] == .response(.streamEvents))
        #expect(request.assertions.contains(.response(.streamLast, Predicate([.contains("\"n\": 4")]))))
        let written = session.yamlText()
        #expect(try Session.parse(written, path: "s.tincan.yaml") == session)
        #expect(throws: (any Error).self) {
            try Session.parse("requests:\n  - url: x\n    capture:\n      x: {stream-first: false}\n", path: "s.yaml")
        }
    }

    @Test("an event stream's facts come from the body in memory when it was not streamed")
    func factsFromMemory() throws {
        let url = URLReference(parsing: "http://x/")
        let response = HTTPResponse(url: url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "text/event-stream")]))
        var result = TaskResult(request: HTTPRequest(method: "GET", url: url), response: response,
                                data: Array("data: a\n\n: note\ndata: b\n\ndata: cut".utf8))
        #expect(try result.value(of: .streamEvents).get() == .integer(2))
        #expect(try result.value(of: .streamLast).get() == .string("b"))
        result.stream = StreamSummary(format: .lines)
        #expect(try result.value(of: .streamEvents).get() == .integer(0))
    }

    @Test("a streamed body not kept whole fails size and digest checks with the reason; one kept whole is checked")
    func streamedBodyHasNoSize() throws {
        let url = URLReference(parsing: "http://x/")
        let response = HTTPResponse(url: url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "application/x-ndjson")]))
        var kept = TaskResult(request: HTTPRequest(method: "GET", url: url), response: response, data: Array("{\"a\":1}\n".utf8))
        kept.stream = StreamSummary(format: .lines)
        kept.stream?.bytes = 8
        #expect(try kept.value(of: .bodySize).get() == .integer(8))
        var result = TaskResult(request: HTTPRequest(method: "GET", url: url), response: response, data: [])
        result.stream = StreamSummary(format: .lines)
        result.stream?.bytes = 120
        for fact in [ResponseValue.bodySize, .bodySHA256, .bodyMD5] {
            guard case .failure(let failure) = result.value(of: fact) else {
                Issue.record("\(fact) gave a value for a streamed body")
                continue
            }
            #expect(failure.description.hasPrefix("the body was streamed as it arrived and not kept"))
        }
    }
}
