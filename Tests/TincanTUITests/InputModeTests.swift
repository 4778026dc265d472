import Testing
import TerminalUI
import TincanCore
@testable import TincanTUI

/// One input mode at a time: the modal, the command line and the search field take the keys in
/// turn, and opening one never leaves another open under it.
@Suite("Input mode")
struct InputModeTests {
    @Test("keys that open another mode are typed into the command line while it is open")
    func commandLineKeepsTheKeys() {
        var state = Fixtures.welcome()
        state.setFocus(.preview)
        Fixtures.press([.key(.char(":"))], into: &state)
        Fixtures.press([.key(.char("/")), .key(.char("?")), .key(.char(":"))], into: &state)
        #expect(state.commandLine?.field.text == "/?:")
        #expect(state.modal == nil && state.searchField == nil)
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        #expect(state.mode == .panes)
    }

    @Test("a command that opens a modal closes the command line: the modal takes its place")
    func modalReplacesTheCommandLine() {
        var state = Fixtures.welcome()
        Fixtures.press([.key(.alt("x"))] + Fixtures.typing("help") + [.key(KeyEvent(.enter))], into: &state)
        guard case .modal(.message(let dialog)) = state.mode else {
            Issue.record("expected the command list, the mode is \(state.mode)")
            return
        }
        #expect(dialog.title.hasPrefix("Commands"))
        #expect(state.commandLine == nil)
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        #expect(state.mode == .panes)
    }

    @Test("the search field takes the keys until enter or escape, then the panes have them again")
    func searchFieldTakesTheKeys() {
        var state = Fixtures.welcome()
        Fixtures.send(&state, body: Fixtures.userJSON)
        state.setFocus(.response)
        Fixtures.press([.key(.char("/"))], into: &state)
        #expect(state.searchField == TextField())
        Fixtures.press([.key(.char(":")), .key(.char("?"))], into: &state)
        #expect(state.searchField?.text == ":?")
        #expect(state.commandLine == nil && state.modal == nil)
        Fixtures.press([.key(KeyEvent(.escape))], into: &state)
        #expect(state.mode == .panes)
        #expect(state.search.query == nil, "escape keeps no query")
    }

    @Test("a refused line keeps the command line open with its reason, and nothing else")
    func refusedLineStaysOpenAlone() {
        var state = Fixtures.welcome()
        Fixtures.press([.key(.alt("x"))] + Fixtures.typing("theme solarized") + [.key(KeyEvent(.enter))], into: &state)
        guard case .commandLine(let line) = state.mode else {
            Issue.record("expected the line to stay open, the mode is \(state.mode)")
            return
        }
        #expect(line.error?.contains("there is no theme 'solarized'") == true)
        #expect(state.modal == nil)
    }
}
