import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

/// A replay builds the next request while one is answered, and checks a response once the next
/// request is written, when nothing depends on it (``ReplayPass``). What is sent and what is
/// reported must be what building and checking each request at its turn gives.
@Suite("Replay work done ahead of a request's turn")
struct ReplayAheadTests {
    @Test func aRequestThatNeedsTheTimeReadsItAtItsTurn() async throws {
        // The first request takes two seconds, and captures nothing: the second could be built
        // while it waits, but `{{$timestamp}}` must be read when the second is sent.
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - url: delay/2
              - url: get
                query:
                  t: "{{$timestamp}}"
            """, path: "t.tincan.yaml")
        try await withDemoServer { server in
            let before = Int64(Date().timeIntervalSince1970)
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.map(\.state) == [.passed, .passed])
            let query = URLComponents(string: report.outcomes[1].url)?.queryItems ?? []
            let sent = try #require(query.first { $0.name == "t" }?.value.flatMap { Int64($0) })
            #expect(sent >= before + 2, "the time was read \(before + 2 - sent) s before the request's turn")
        }
    }

    @Test func aRequestCheckOfARequestBuiltAheadReadsTheTimeAtItsTurn() async throws {
        // The second request is built while the first is answered; its request check needs
        // the time, which is read when the check is made, at its turn.
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - url: get
              - url: get
                query: {n: "1"}
                assert:
                  request:
                    query: {n: {not-equals: "{{$timestamp}}"}}
            """, path: "c.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.map(\.state) == [.passed, .passed], "\(report.outcomes.flatMap(\.checks).compactMap(\.failure))")
            #expect(report.outcomes[1].assertionResults.map { $0?.passed } == [true])
        }
    }

    @Test func aFileIsReadAtItsTurnAfterTheRequestBeforeItWroteIt() async throws {
        let folder = try TemporaryDirectory()
        try Data("stale".utf8).write(to: URL(fileURLWithPath: folder.path + "/body.json"))
        // The first request downloads over the file the second sends: the second must send the
        // new content, not the file as it was while the first was answered.
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - url: get
                query:
                  mark: fresh
                download: body.json
              - method: POST
                url: post
                headers:
                  Content-Type: application/json
                body: {file: body.json}
                assert:
                  body:
                    $.json.args.mark: fresh
            """, path: folder.path + "/f.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, path: folder.path + "/f.tincan.yaml", on: server)
            #expect(report.outcomes.map(\.state) == [.passed, .passed], "\(report.outcomes.flatMap(\.checks).compactMap(\.failure))")
        }
    }

    @Test func outcomesAreCheckedAndReportedInTheFileOrder() async throws {
        // Checks that may wait (no capture, no retry), a failing one among them, a capture that
        // the next request needs (built ahead, it would send the variable's stale value), a
        // pause, repeats, and a request that cannot be built.
        let session = try Session.parse("""
            base: "{{server}}/"
            variables:
              token: stale
            requests:
              - name: plain
                url: get
                query: {n: "1"}
                assert:
                  body: {$.args.n: "1"}
              - name: failing
                url: get
                query: {n: "2"}
                assert:
                  body: {$.args.n: "20"}
              - name: captures
                url: get
                query: {token: abc}
                capture:
                  token: $.args.token
              - name: uses the capture
                url: get
                query: {t: "{{token}}"}
                delay: 10ms
                assert:
                  body: {$.args.t: abc}
              - name: repeated
                url: get
                query: {id: "{{$uuid}}"}
                repeat: 3
              - name: unbuildable
                url: "get?x={{nowhere}}"
              - name: large
                method: POST
                url: post
                serializer: json
                params:
                  n: 7
                  pad: \(String(repeating: "x", count: 70_000))
                assert:
                  body: {$.json.n: 7}
              - name: last
                url: get
            """, path: "o.tincan.yaml")
        let reported = Mutex<[String]>([])
        try await withDemoServer { server in
            var options = ReplayOptions()
            options.variables["server"] = server.baseURL
            let (report, _) = try await Replayer(session: session, path: "o.tincan.yaml", options: options).run { outcome in
                reported.withLock { $0.append(outcome.name) }
            }
            let names = ["plain", "failing", "captures", "uses the capture", "repeated [1/3]", "repeated [2/3]", "repeated [3/3]", "unbuildable", "large", "last"]
            #expect(report.outcomes.map(\.name) == names)
            #expect(reported.withLock { $0 } == names)
            #expect(report.outcomes.map(\.state) == [.passed, .failed, .passed, .passed, .passed, .passed, .passed, .failed, .passed, .passed])
            #expect(report.outcomes[1].checks.compactMap(\.failure) == ["is \"2\", expected \"20\""])
            #expect(report.outcomes[1].assertionResults.map { $0?.passed } == [false])
            #expect(report.outcomes[3].assertionResults.map { $0?.passed } == [true], "the captured value was sent")
            #expect(report.outcomes[7].error?.contains("the variable {{nowhere}} is not defined") == true)
            // A response over 64 KiB is decoded and checked at once, by the request's serializer.
            #expect(report.outcomes[8].assertionResults.map { $0?.passed } == [true])
            #expect(report.outcomes.map(\.status) == [200, 200, 200, 200, 200, 200, 200, nil, 200, 200])
            // Each run of a repeated request is built at its own turn: its own $uuid.
            let ids = report.outcomes[4...6].compactMap { URLComponents(string: $0.url)?.queryItems?.first?.value }
            #expect(Set(ids).count == 3)
            // The server saw the requests in the file's order, each once.
            let paths = server.received.all.map(target)
            #expect(paths.count == 9)
            #expect(paths[3] == "/get?t=abc")
        }
    }

    @Test func underFailFastAFailedCheckStopsTheNextRequestBeforeItIsSent() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - url: get
                assert:
                  status: 201
              - url: anything/never
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server) { $0.failFast = true }
            #expect(report.outcomes.map(\.state) == [.failed, .skipped])
            #expect(server.received.all.map(target) == ["/get"], "the request after a failure is not sent")
        }
    }
}

/// The request target of a request the server received: `/get?n=1`.
private func target(_ request: ReceivedRequest) -> String {
    let line = String(decoding: request.head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    let words = line.split(separator: " ")
    return words.count > 1 ? String(words[1]) : line
}
