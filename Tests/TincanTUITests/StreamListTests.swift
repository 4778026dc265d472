import Foundation
import TerminalUI
import TestSupport
import Testing
import TincanCore
@testable import TincanTUI

@Suite("The response box lists a stream's events as they arrive")
struct StreamListTests {
    /// Sends, then feeds a fake event stream of `count` events through `update`, as the runner
    /// posts them; ends it and completes the task when `ended`.
    static func streaming(_ state: inout AppState, count: Int, ended: Bool) -> Int {
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, _)? = effects.first else {
            Issue.record("send produced \(effects)")
            return -1
        }
        _ = state.update(.task(exchange: id, .resumed, at: 1.0))
        let head = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "text/event-stream")]))
        _ = state.update(.task(exchange: id, .responseHead(head), at: 1.010))
        _ = state.update(.streamed(exchange: id, .started(head, .eventStream), at: 1.010))
        for index in 1...count {
            let event = StreamEvent(id: "\(index)", type: index % 2 == 0 ? "tick" : "message", data: "{\"n\": \(index), \"text\": \"line one\\nline two and a long tail that goes on past the edge of the box\"}")
            _ = state.update(.streamed(exchange: id, .events([event], at: .now), at: 1.0 + Double(index) * 0.25))
        }
        if ended {
            _ = state.update(.streamed(exchange: id, .ended([], at: .now), at: 1.0 + Double(count) * 0.25))
            var result = Fixtures.result(for: request, status: 200, contentType: "text/event-stream", body: "")
            var summary = StreamSummary(format: .eventStream)
            summary.count = count
            result.stream = summary
            _ = state.update(.task(exchange: id, .completed(result), at: 1.0 + Double(count) * 0.25 + 0.001))
        }
        return id
    }

    @Test("events are folded into the exchange with their times since the send, and stay after the end")
    func eventsFold() throws {
        var state = Fixtures.welcome()
        let id = Self.streaming(&state, count: 3, ended: false)
        var log = try #require(state.exchange?.stream)
        #expect(log.count == 3)
        #expect(log.entries.map(\.event.id) == ["1", "2", "3"])
        // Times since the send started, not since the app did.
        let startedAt = try #require(state.exchange?.startedAt)
        #expect(log.entries.map(\.time) == [1.25, 1.5, 1.75].map { $0 - startedAt })
        #expect(!log.ended)
        // Another exchange's events are not this one's.
        _ = state.update(.streamed(exchange: id + 1, .events([StreamEvent(data: "x")], at: .now), at: 2))
        #expect(state.exchange?.stream?.count == 3)
        _ = state.update(.streamed(exchange: id, .ended([StreamEvent(type: "message", data: "last")], at: .now), at: 2))
        log = try #require(state.exchange?.stream)
        #expect(log.count == 4)
        #expect(log.ended)
    }

    @Test("the list keeps only the latest events, however long the stream runs")
    func bounded() {
        var log = StreamLog(format: .lines)
        for index in 0..<1_500 { log.add([StreamEvent(data: "\(index)")], at: Double(index)) }
        #expect(log.count == 1_500)
        #expect(log.entries.count == StreamLog.capacity)
        #expect(log.entries.first?.event.data == "500")
        #expect(log.entries.last?.event.data == "1499")
    }

    @Test("of a large event the list keeps the start of its data, not all of it")
    func largeEventsAreCut() {
        var log = StreamLog(format: .lines)
        log.add([StreamEvent(data: String(repeating: "é", count: 1 << 20))], at: 0)
        let kept = log.entries.first?.event.data ?? ""
        #expect(kept.utf8.count <= StreamLog.keptDataBytes + 3 && kept.hasSuffix("…"))
        #expect(kept.hasPrefix("ééé"))
    }

    @Test("a live stream and an ended one look right at 80x24 and 120x40", arguments: [(80, 24), (120, 40)])
    func snapshots(size: (Int, Int)) {
        for ended in [false, true] {
            var state = Fixtures.welcome(width: size.0, height: size.1)
            _ = Self.streaming(&state, count: 30, ended: ended)
            let buffer = Renderer.render(&state)
            let text = buffer.lines.joined(separator: "\n")
            #expect(text.contains(ended ? "30 events · ended" : "30 events · streaming…"), "\(text)")
            #expect(text.contains("30 tick"))
            if let problem = Snapshot.verify(buffer, named: "stream-\(ended ? "ended" : "live")-\(size.0)x\(size.1)") {
                Issue.record(Comment(rawValue: problem))
            }
            // The Headers view shows the headers, not the list.
            state.responseView = .headers
            let headers = Renderer.render(&state).lines.joined(separator: "\n")
            #expect(!headers.contains("30 events"))
            if ended { #expect(headers.contains("Content-Type: text/event-stream") || headers.contains("text/event-stream")) }
        }
    }
}
