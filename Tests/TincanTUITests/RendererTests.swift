import Testing
import TerminalUI
import TincanCore
@testable import TincanTUI

/// Drawing changes the state in one place only: the scroll positions of its stateful widgets.
@Suite("Renderer")
struct RendererTests {
    /// A state whose Pretty view holds a body of `count` rows and more, the response focused.
    private static func longBody(_ count: Int = 200) -> AppState {
        var state = Fixtures.welcome(width: 120, height: 40)
        Fixtures.send(&state, body: "[" + (0..<count).map(String.init).joined(separator: ",") + "]")
        state.setFocus(.response)
        return state
    }

    @Test("the selected row is kept in view, and where the view starts lasts until the selection leaves it")
    func scrollPositionsAreKeptBetweenFrames() throws {
        var state = Self.longBody()
        state.bodyList.select(150, count: try #require(state.bodyDocument).rowCount)
        _ = Renderer.render(&state)
        let offset = state.bodyList.offset
        #expect(offset > 0 && offset <= 150 && 150 < offset + state.responseViewport, "row 150 is in view from \(offset)")
        // One row up stays inside the view: the view does not move.
        Fixtures.press([.key(KeyEvent(.up))], into: &state)
        let screen = Renderer.render(&state).lines.joined(separator: "\n")
        #expect(state.bodyList.offset == offset)
        #expect(screen.contains("150/"), "the position shows the selected row, 150 counted from 1: \(screen)")
    }

    @Test("a second frame of the same state is the same frame and writes nothing back")
    func drawingIsStableOnceSettled() {
        var state = Self.longBody()
        state.bodyList.select(120, count: state.bodyDocument?.rowCount ?? 0)
        state.previewScroll = ScrollState(offset: 500)
        let first = Renderer.render(&state)
        let settled = state.statefulWidgets
        let second = Renderer.render(&state)
        #expect(first == second)
        #expect(state.statefulWidgets == settled)
        #expect(state.previewScroll.offset < 500, "the preview's scroll was clamped to its lines")
    }
}
