import TerminalUI
import TestSupport
import Testing
import TincanCore
import TincanSessions
@testable import TincanTUI

/// Moving around (issue 34 §4): jump mode labels every pane, field, tab and view with a key;
/// direct keys go to the URL, the method and the body; F2 has a reverse.
@Suite("Moving around")
struct MovingAroundTests {
    /// A session with a collection, so every kind of target is on the screen.
    private static func withCollection(width: Int, height: Int) throws -> AppState {
        var state = Fixtures.welcome(width: width, height: height)
        let session = try Session.parse("base: http://127.0.0.1:8080/\nrequests:\n  - name: one\n    url: get\n  - name: two\n    url: post\n", path: "/tmp/two.tincan.yaml")
        state.open(Workspace(session: session, path: "/tmp/two.tincan.yaml"))
        state.proxyEnvironment = ProxyEnvironment()
        state.refreshPreview()
        return state
    }

    @Test("every label on the screen takes the focus to its target, at 80x24 and 120x40, with and without a collection",
          arguments: [(80, 24), (120, 40)], [false, true])
    func everyLabelGoesWhereItSays(size: (Int, Int), collection: Bool) throws {
        let start = collection ? try Self.withCollection(width: size.0, height: size.1) : Fixtures.welcome(width: size.0, height: size.1)
        var probe = start
        _ = probe.update(.input(.key(.ctrl("o"))))
        #expect(probe.mode == .jump)
        let labels = JumpTarget.labels(ScreenLayout(probe), probe)
        let keys = labels.map(\.target.key)
        #expect(Set(keys).count == keys.count, "two targets share a key: \(keys)")
        var expected: Set<Character> = ["m", "s", "b", "u", "h", "p", "y", "a", "o", "k", "q", "w", "e", "v", "r", "1", "2", "3", "4"]
        if collection { expected.insert("c") }
        #expect(Set(keys) == expected)
        for label in labels {
            var state = start
            _ = state.update(.input(.key(.ctrl("o"))))
            _ = state.update(.input(.key(.char(label.target.key))))
            #expect(state.mode == .panes)
            switch label.target {
            case .pane(let pane): #expect(state.focus == pane, "\(label.target.key)")
            case .requestTab(let tab):
                #expect(state.requestTab == tab && tab.panes.contains(state.focus), "\(label.target.key)")
            case .previewView(let view): #expect(state.focus == .preview && state.previewView == view, "\(label.target.key)")
            case .responseView(let view): #expect(state.focus == .response && state.responseView == view, "\(label.target.key)")
            }
        }
    }

    @Test("jump mode's labels at 80x24 and 120x40", arguments: [(80, 24), (120, 40)])
    func jumpLabelsMatchTheirGoldenFiles(size: (Int, Int)) {
        Fixtures.verifySnapshot("jumpLabels", size: size) { state in
            _ = state.update(.input(.key(.ctrl("o"))))
        }
    }

    @Test("esc leaves jump mode where it was; a key with no target says so")
    func escapeAndUnknownKeysLeaveJumpMode() {
        var state = Fixtures.welcome()
        _ = state.update(.input(.key(.ctrl("o"))))
        _ = state.update(.input(.key(KeyEvent(.escape))))
        #expect(state.mode == .panes && state.focus == .url && state.status == nil)
        _ = state.update(.input(.key(.ctrl("o"))))
        _ = state.update(.input(.key(.char("z"))))
        #expect(state.mode == .panes && state.focus == .url)
        #expect(state.status == StatusMessage("No target is labelled z.", .warning))
    }

    @Test("ctrl+l and alt+U go to the URL, alt+M to the method, alt+B to the body, from anywhere outside a modal")
    func directKeysGoToTheURLMethodAndBody() {
        var state = Fixtures.welcome()
        state.setFocus(.headers)
        _ = state.update(.input(.key(.ctrl("l"))))
        #expect(state.focus == .url)
        state.setFocus(.response)
        _ = state.update(.input(.key(.alt("M"))))
        #expect(state.focus == .method)
        _ = state.update(.input(.key(.alt("B"))))
        #expect(state.focus == .body && state.requestTab == .body)
        _ = state.update(.input(.key(.alt("U"))))
        #expect(state.focus == .url)
    }

    @Test("shift+F2 and alt+[ walk the request tabs backwards, undoing F2")
    func shiftF2IsTheReverseOfF2() {
        var state = Fixtures.welcome()
        #expect(state.requestTab == .parameters)
        _ = state.update(.input(.key(KeyEvent(.function(2), .shift))))
        #expect(state.requestTab == .headers)
        _ = state.update(.input(.key(.alt("["))))
        #expect(state.requestTab == .checks)
        _ = state.update(.input(.key(KeyEvent(.function(2)))))
        #expect(state.requestTab == .headers)
    }

    @Test("alt+d in the URL field deletes the word after the cursor, as in readline: no global key takes it")
    func altDStaysATextKey() {
        var state = Fixtures.welcome()
        state.focus = .url
        Fixtures.press([.key(.ctrl("a")), .key(.ctrl("k"))] + Fixtures.typing("anything/words") + [.key(.ctrl("a")), .key(.alt("d"))], into: &state)
        #expect(state.urlField.text == "/words")
        #expect(state.modal == nil)
    }
}
