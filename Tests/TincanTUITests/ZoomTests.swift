import TerminalUI
import Testing
@testable import TincanTUI

@Suite("Zooming a pane")
struct ZoomTests {
    @Test("F12 on a one-line field says there is nothing to zoom, and neither the layout nor the status bar claims a zoom",
          arguments: [Pane.method, .baseURL, .url])
    func oneLineFieldsDoNotZoom(field: Pane) {
        var state = Fixtures.welcome(width: 80, height: 24)
        state.setFocus(field)
        let before = ScreenLayout(state).requestBox
        _ = Fixtures.press([.key(KeyEvent(.function(12)))], into: &state)
        #expect(!state.zoomed)
        #expect(!state.showsZoomed)
        #expect(state.status?.kind == .warning)
        #expect(state.status?.text.hasPrefix("Nothing to zoom") == true)
        #expect(ScreenLayout(state).requestBox == before)
        #expect(!Renderer.render(&state).lines.contains { $0.contains("zoomed") })
    }

    @Test("a pane zooms to the whole main area, the status bar says so, and moving to a field shows the panes again")
    func panesZoomAndFieldsShowTheLayout() {
        var state = Fixtures.welcome(width: 80, height: 24)
        state.setFocus(.headers)
        let unzoomed = ScreenLayout(state).requestBox
        _ = Fixtures.press([.key(KeyEvent(.function(12)))], into: &state)
        #expect(state.showsZoomed)
        let zoomed = ScreenLayout(state).requestBox
        #expect((zoomed?.width ?? 0) > (unzoomed?.width ?? 0))
        #expect(ScreenLayout(state).previewBox == nil)
        #expect(Renderer.render(&state).lines.contains { $0.contains("zoomed") })
        // The URL field has nothing to zoom: the panes come back, and nothing says "zoomed".
        state.setFocus(.url)
        #expect(!state.showsZoomed)
        #expect(ScreenLayout(state).previewBox != nil)
        #expect(!Renderer.render(&state).lines.contains { $0.contains("zoomed") })
        // Back on the pane, the zoom asked for shows again; F12 there ends it.
        state.setFocus(.headers)
        #expect(state.showsZoomed)
        _ = Fixtures.press([.key(KeyEvent(.function(12)))], into: &state)
        #expect(!state.zoomed)
        #expect(ScreenLayout(state).requestBox == unzoomed)
    }
}
