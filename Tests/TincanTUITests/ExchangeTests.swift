import Testing
import TincanCore
import TincanSessions
@testable import TincanTUI

/// An exchange folds its task's events in by itself: no state, no screen, no runner.
@Suite("An exchange's events")
struct ExchangeTests {
    private static func exchange(saved: SavedRequest? = nil) throws -> Exchange {
        let request = try RequestDraft(method: "GET", url: "http://127.0.0.1:8080/get").build()
        var exchange = Exchange(id: 1, request: request, startedAt: 0)
        exchange.responseSerializer = CompoundResponseSerializer()
        exchange.saved = saved
        exchange.template = Template(variables: [:], environment: [:])
        return exchange
    }

    @Test("progress events move the meters, and the timeline notes each quarter once")
    func progressFillsTheMetersAndTheTimeline() throws {
        // Given an exchange that has just started
        var exchange = try Self.exchange()
        // When its task resumes and uploads 8 KiB in five steps
        exchange.fold(.resumed, at: 0.001)
        for (bytes, time) in [(0, 0.002), (1_000, 0.003), (2_048, 0.004), (6_144, 0.005), (8_192, 0.006)] {
            exchange.fold(.uploadProgress(TransferProgress(completed: Int64(bytes), expected: 8_192)), at: time)
        }
        // Then the meter has the last progress and a rate, and the timeline the quarters crossed
        #expect(exchange.upload.progress == TransferProgress(completed: 8_192, expected: 8_192))
        #expect(exchange.upload.rate != nil)
        #expect(exchange.download.progress == nil)
        #expect(exchange.milestones.map(\.event) == [
            "resumed",
            "upload started: 8.0 KiB expected",
            "upload 25% (2.0 KiB of 8.0 KiB)",
            "upload 75% (6.0 KiB of 8.0 KiB)",
            "upload 100% (8.0 KiB of 8.0 KiB)",
        ])
        #expect(exchange.milestones.map(\.at) == [0.001, 0.002, 0.004, 0.005, 0.006])
        #expect(exchange.phase == .sending)
        #expect(exchange.result == nil)
    }

    @Test("completion takes the result, lays out the body, explains the validation and finishes")
    func completionLaysOutTheResponse() throws {
        var exchange = try Self.exchange()
        let result = Fixtures.result(for: exchange.request, status: 404, contentType: "application/json", body: #"{"missing": true}"#)
        let evaluation = exchange.fold(.completed(result), at: 0.012)
        #expect(evaluation == nil, "a request with no assertions or captures has nothing to evaluate")
        #expect(exchange.phase == .finished)
        #expect(exchange.result?.response?.statusCode == 404)
        #expect(exchange.milestones.map(\.event) == ["completed: 404, 17 bytes, validation failed"])
        #expect(exchange.prettyBody.rowCount == 3, "the JSON body, pretty-printed over three rows")
        #expect(exchange.rawBody.rowCount == 1)
        // The explanation names the serializer and the verdict on the status, the failure.
        let lines = try #require(exchange.validation).steps.flatMap(\.lines)
        #expect(lines.first?.text.contains("response serializer") == true, "\(lines.first?.text ?? "")")
        #expect(lines.contains { $0.tone == .failed && $0.text.hasPrefix("Status 404 is not in the acceptable codes") })
        #expect(abs(exchange.elapsed(now: 99) - 0.012) < 1e-9, "a finished exchange's time is the task's total")
    }

    @Test("a cancelled exchange stays cancelled when its task's last event arrives")
    func cancelledStaysCancelled() throws {
        var exchange = try Self.exchange()
        exchange.phase = .cancelled
        exchange.fold(.completed(TaskResult(request: exchange.request, transportError: TransportError(.cancelled))), at: 0.5)
        #expect(exchange.phase == .cancelled)
        #expect(exchange.milestones.count == 1)
        #expect(exchange.milestones[0].event.hasPrefix("failed: "))
    }

    @Test("the saved request's assertions and captures are evaluated on the response and handed back")
    func savedChecksAreEvaluated() throws {
        var saved = SavedRequest(url: "get")
        saved.assertions = [.status("200")]
        saved.captures = ["token": .body(try BodyPath(parsing: "$.token"))]
        var exchange = try Self.exchange(saved: saved)
        let result = Fixtures.result(for: exchange.request, status: 201, contentType: "application/json", body: #"{"token": "abc"}"#)
        let folded = exchange.fold(.completed(result), at: 0.01)
        let evaluation = try #require(folded)
        #expect(exchange.checks.map(\.passed) == [false], "status 200 was asserted, 201 came")
        #expect(evaluation.checks.map(\.name) == exchange.checks.map(\.name))
        #expect(evaluation.captures.map(\.name) == ["token"])
        #expect(evaluation.captures.first?.value == .string("abc"))
    }

    @Test("a transport error evaluates no checks")
    func transportErrorEvaluatesNothing() throws {
        var saved = SavedRequest(url: "get")
        saved.assertions = [.status("200")]
        var exchange = try Self.exchange(saved: saved)
        let evaluation = exchange.fold(.completed(TaskResult(request: exchange.request, transportError: TransportError(.cancelled))), at: 0.01)
        #expect(evaluation == nil)
        #expect(exchange.checks.isEmpty)
        #expect(exchange.phase == .finished)
    }

    @Test("a large JSON body's decoded tree is dropped once checks have read it; the views keep the bytes")
    func largeDecodedTreeIsReleased() throws {
        var saved = SavedRequest(url: "get")
        saved.captures = ["first": .body(try BodyPath(parsing: "$.items[0]"))]
        var exchange = try Self.exchange(saved: saved)
        let body = #"{"items": ["# + (0..<(BodyFormatter.decodedTreeLimit / 8 + 1)).map { #""\#($0)""# }.joined(separator: ",") + "]}"
        #expect(body.utf8.count > BodyFormatter.decodedTreeLimit)
        let result = Fixtures.result(for: exchange.request, status: 200, contentType: "application/json", body: body)
        let folded = exchange.fold(.completed(result), at: 0.01)
        let evaluation = try #require(folded)
        #expect(evaluation.captures.first?.value == .string("0"), "the capture read the tree before it was dropped")
        if case .json? = exchange.result?.serialization?.body {
            Issue.record("the decoded tree was kept")
        }
        #expect(exchange.prettyBody.rowCount > 3)
    }

    @Test("redirects, retries, cache outcomes and the response head are noted on the timeline")
    func otherEventsAreNoted() throws {
        var exchange = try Self.exchange()
        exchange.fold(.requestSent(exchange.request), at: 0.1)
        exchange.fold(.retried(.authentication(scheme: "Digest", realm: "demo")), at: 0.2)
        exchange.fold(.downloadProgress(TransferProgress(completed: 5, expected: nil)), at: 0.3)
        exchange.fold(.downloadProgress(TransferProgress(completed: 9, expected: nil)), at: 0.4)
        #expect(exchange.milestones.map(\.event) == ["request sent", "retried with Digest authentication", "download started (length unknown)"])
        #expect(exchange.download.progress?.completed == 9)
    }
}
