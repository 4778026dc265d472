import TerminalUI
import Testing
import TincanCore
@testable import TincanTUI

/// The Explain view as a user moves through it, at the smallest screen the TUI draws well.
@Suite("The Explain view")
struct ExplainViewTests {
    /// A sent request whose response failed validation, with the Explain view open at 80x24.
    private static func explainedAfterAFailedSend() -> AppState {
        var state = Fixtures.welcome(width: 80, height: 24)
        state.responseSerializer = .json
        Fixtures.send(&state, status: 404, contentType: "text/html", body: "<h1>Not found</h1>")
        state.setFocus(.preview)
        _ = Fixtures.press([.key(KeyEvent(.function(9)))], into: &state)
        return state
    }

    private static func text(_ line: TokenLine) -> String {
        line.map(\.text).joined().trimmingCharacters(in: .whitespaces)
    }

    @Test("End and page down reach the Explain view's last line, however much longer it is than the wire preview")
    func scrollsToTheEnd() throws {
        var state = Self.explainedAfterAFailedSend()
        let (contentHeight, viewport) = state.previewScrollBounds()
        let lines = state.previewBoxLines(width: try #require(ScreenLayout(state).previewBox).width)
        #expect(contentHeight == lines.count)
        #expect(contentHeight > state.previewLines.count + viewport, "the case this guards: Explain much longer than the wire preview")
        let last = Self.text(try #require(lines.last { !Self.text($0).isEmpty }))

        _ = Fixtures.press([.key(KeyEvent(.end))], into: &state)
        #expect(state.previewScroll.offset == contentHeight - viewport)
        #expect(Renderer.render(&state).lines.contains { $0.contains(last) })

        _ = Fixtures.press([.key(KeyEvent(.home))], into: &state)
        #expect(!Renderer.render(&state).lines.contains { $0.contains(last) })
        _ = Fixtures.press(Array(repeating: .key(KeyEvent(.pageDown)), count: contentHeight), into: &state)
        #expect(Renderer.render(&state).lines.contains { $0.contains(last) })
        // Editing the request (which rebuilds the preview) keeps the place in the Explain view.
        let offset = state.previewScroll.offset
        state.refreshPreview()
        #expect(state.previewScroll.offset == offset)
    }

    @Test("after a send the Explain view starts with the response's validation, then the request")
    func validationComesFirst() {
        let state = Self.explainedAfterAFailedSend()
        let lines = state.previewBoxLines(width: 80).map(Self.text)
        #expect(lines.first == "── Response ──")
        let response = lines.firstIndex(of: "── Response ──")
        let request = lines.firstIndex(of: "── Request ──")
        #expect(response != nil && request != nil && response! < request!)
        #expect(lines.contains { $0.hasPrefix("✗") }, "the failed validation is shown")

        var fresh = Fixtures.welcome(width: 80, height: 24)
        fresh.setFocus(.preview)
        _ = Fixtures.press([.key(KeyEvent(.function(9)))], into: &fresh)
        let unsent = fresh.previewBoxLines(width: 80).map(Self.text)
        #expect(!unsent.contains("── Response ──"))
        #expect(unsent.last == "Send the request (ctrl+r) to see how the response is validated.")
    }
}
