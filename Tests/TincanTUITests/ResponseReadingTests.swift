import Foundation
import TerminalUI
import TestSupport
import Testing
import TincanCore
@testable import TincanTUI

/// Every kind of response can be read (issue 34 §7): a stream's events page, go to their end,
/// wrap, scroll sideways and show each search match; progress bars end as the transfer did; the
/// Timing view's total agrees with its events.
@Suite("Reading every kind of response")
struct ResponseReadingTests {
    private static func key(_ key: Key, _ modifiers: KeyModifiers = []) -> InputEvent { .key(KeyEvent(key, modifiers)) }

    @Test("a stream's events page, go to their end and back, wrap, scroll sideways, and a search shows its match")
    func aStreamReadsLikeAnyBody() {
        var state = Fixtures.welcome(width: 80, height: 24)
        _ = StreamListTests.streaming(&state, count: 200, ended: true)
        state.setFocus(.response)
        let document = try! #require(state.bodyDocument)
        #expect(document.rowCount == 200)
        #expect(state.bodyList.selected == 199, "an ended stream shows its newest event")
        Fixtures.press([.key(.char("g"))], into: &state)
        #expect(state.bodyList.selected == 0)
        Fixtures.press([Self.key(.pageDown)], into: &state)
        #expect(state.bodyList.selected > 1)
        Fixtures.press([.key(.char("G"))], into: &state)
        #expect(state.bodyList.selected == 199)
        // Sideways, then wrapped: the long tail of an event shows either way.
        var screen = Snapshot.text(Renderer.render(&state))
        #expect(!screen.contains("the box\"}"))
        Fixtures.press([.key(.char(">")), .key(.char(">")), .key(.char(">")), .key(.char(">"))], into: &state)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("◀ col"), "\(screen)")
        Fixtures.press([.key(.char("<")), .key(.char("<")), .key(.char("<")), .key(.char("<")), .key(.alt("z"))], into: &state)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("the box\"}"), "wrapped: \(screen)")
        Fixtures.press([.key(.alt("z"))], into: &state)
        // A search finds an event far up, selects it, and scrolls sideways to where it matches.
        Fixtures.press([.key(.char("/"))] + Fixtures.typing("\"n\": 42,") + [Self.key(.enter)], into: &state)
        #expect(state.bodyList.selected == 41)
        #expect(state.status?.text.hasPrefix("/\"n\": 42,: match 1 of 1") == true, "\(String(describing: state.status))")
        Fixtures.press([.key(.char("/"))] + Fixtures.typing("past the edge") + [Self.key(.enter)], into: &state)
        screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("past the edge"), "the match is in view: \(screen)")
    }

    @Test("the newest event of a live stream is followed while the selection is on it, and not once it moved up")
    func aLiveStreamIsFollowedFromItsEnd() {
        var state = Fixtures.welcome(width: 80, height: 24)
        let id = StreamListTests.streaming(&state, count: 10, ended: false)
        #expect(state.bodyList.selected == 9)
        _ = state.update(.streamed(exchange: id, .events([StreamEvent(data: "11")], at: .now), at: 5))
        #expect(state.bodyList.selected == 10)
        state.setFocus(.response)
        Fixtures.press([.key(.char("g"))], into: &state)
        _ = state.update(.streamed(exchange: id, .events([StreamEvent(data: "12")], at: .now), at: 6))
        #expect(state.bodyList.selected == 0, "reading further up, the list stays")
    }

    @Test("a bar reads done at 100% on success, and cancelled or failed where the transfer stopped")
    func progressBarsEndAsTheTransferDid() {
        let partial = TransferProgress(completed: 26, expected: 100)
        var meter = TransferMeter()
        meter.record(partial, at: 0)
        #expect(ProgressPane.text(progress: partial, meter: meter, outcome: .done).hasPrefix("100%"))
        #expect(ProgressPane.text(progress: partial, meter: meter, outcome: .done).hasSuffix("done"))
        #expect(ProgressPane.text(progress: partial, meter: meter, outcome: .cancelled) == " 26%  26 B / 100 B  cancelled")
        #expect(ProgressPane.text(progress: partial, meter: meter, outcome: .failed) == " 26%  26 B / 100 B  failed")
        var state = Fixtures.welcome()
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, _)? = effects.first else { return }
        _ = state.update(.task(exchange: id, .downloadProgress(partial), at: 0.1))
        _ = state.update(.input(.key(.ctrl("g"))))
        #expect(ProgressPane.outcome(of: state.exchange!) == .cancelled)
        _ = state.update(.task(exchange: id, .completed(TaskResult(request: request, data: Array(repeating: 0x2a, count: 26), transportError: TransportError(.cancelled))), at: 0.2))
        #expect(ProgressPane.outcome(of: state.exchange!) == .cancelled)
        let screen = Snapshot.text(Renderer.render(&state))
        #expect(screen.contains("26%  26 B / 100 B") && screen.contains("cancelled"), "\(screen)")
        #expect(!screen.contains("done"))
        #expect(state.status?.text == "Cancelled after 26 bytes of the body (what arrived is below).")
    }

    @Test("the Timing view's total is on the same clock as its events, and no event comes after it")
    func theTimingTotalAgreesWithItsEvents() {
        var state = Fixtures.welcome(width: 120, height: 40)
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, _)? = effects.first else { return }
        _ = state.update(.task(exchange: id, .resumed, at: 1.000))
        _ = state.update(.task(exchange: id, .requestSent(request), at: 1.001))
        // The task measured 2.6 ms to the last byte; decoding ended it at 3.7 ms.
        let result = Fixtures.result(for: request, status: 200, contentType: "application/json", body: "{}", milliseconds: 3)
        var measured = result
        measured.metrics.total = .microseconds(2_600)
        _ = state.update(.task(exchange: id, .completed(measured), at: 1.0037))
        state.showResponseView(.timing)
        let lines = state.responseLines.map { $0.map(\.text).joined() }
        let total = lines.first { $0.hasPrefix("total") } ?? ""
        #expect(total.contains("3.7 ms"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("last byte") && $0.contains("2.6 ms") })
        #expect(lines.last?.contains("3.7 ms  completed") == true, "\(lines)")
    }
}
