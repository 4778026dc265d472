import Testing
import TerminalUI
@testable import TincanTUI

/// The modals as a component: each decides its own keys and says what its answer is, tested
/// with no app around it.
@Suite("The modals' keys")
struct ModalStateTests {
    private let down = InputEvent.key(KeyEvent(.down))
    private let enter = InputEvent.key(KeyEvent(.enter))
    private let escape = InputEvent.key(KeyEvent(.escape))

    private func picker() -> Modal {
        .picker(Picker(.method, title: "Method", options: ["GET", "POST", "PUT"], selected: "GET"))
    }

    @Test func aPickerMovesItsCursorAndNamesTheOptionChosen() {
        guard case let .stays(moved) = picker().handle(down, screenHeight: 24) else {
            Issue.record("down closed the picker")
            return
        }
        #expect(moved.handle(enter, screenHeight: 24) == .chosen(.method, option: "POST", index: 1))
    }

    @Test func escapeCancelsAPickerAndAPromptButOnlyClosesAMessage() {
        let prompt = Modal.prompt(Prompt(.timeout, title: "Timeout", question: "Seconds"))
        #expect(picker().handle(escape, screenHeight: 24) == .cancelled)
        #expect(prompt.handle(escape, screenHeight: 24) == .cancelled)
        let message = Modal.message(Dialog(title: "Theme", lines: [[Span("did not load")]]))
        for key in [escape, enter, .key(.char("q")), .key(KeyEvent(.function(1)))] {
            #expect(message.handle(key, screenHeight: 24) == .closed)
        }
    }

    @Test func aPromptTakesTypingClearsItsRefusalAndAnswersWithItsText() {
        var prompt = Prompt(.addHeader, title: "Header", question: "Name: value", text: "X-A")
        prompt.error = "expected Name: value"
        var modal = Modal.prompt(prompt)
        for key in [InputEvent.key(.char(":")), .paste(" 1")] {
            guard case let .stays(next) = modal.handle(key, screenHeight: 24) else {
                Issue.record("typing closed the prompt")
                return
            }
            modal = next
        }
        guard case let .prompt(typed) = modal else {
            Issue.record("the prompt became \(modal)")
            return
        }
        #expect(typed.error == nil, "a refusal shows until the answer changes")
        #expect(modal.handle(enter, screenHeight: 24) == .answered(typed, text: "X-A: 1"))
    }

    @Test func aLongMessageScrollsWithinTheScreen() {
        let lines = (0..<40).map { [Span("line \($0)")] }
        let modal = Modal.message(Dialog(title: "Long", lines: lines))
        guard case let .stays(.message(scrolled)) = modal.handle(.key(.char("G")), screenHeight: 24) else {
            Issue.record("G did not keep the message open")
            return
        }
        #expect(scrolled.scroll.offset == 40 - (24 - 6))
    }

    @Test func vOrRInTheVariablesViewTogglesSecretsWhileElsewhereItIsAKeyLikeAnother() {
        let variables = Modal.message(Dialog(title: AppState.variablesTitle + " (2) · dev"))
        #expect(variables.handle(.key(.char("v")), screenHeight: 24) == .togglesSecrets)
        #expect(variables.handle(.key(.char("r")), screenHeight: 24) == .togglesSecrets)
        let help = Modal.help(Dialog(title: AppState.variablesTitle))
        #expect(help.handle(.key(.char("v")), screenHeight: 24) == .stays(help))
    }

    @Test func theAppAppliesAnAnswerAndKeepsARefusedPromptOpenWithItsReason() {
        var app = Fixtures.welcome()
        app.mode = .modal(.prompt(Prompt(.addHeader, title: "Header", question: "Name: value", text: "no colon")))
        _ = app.handleModal(enter)
        guard case let .prompt(refused) = app.modal else {
            Issue.record("a refused answer closed the prompt")
            return
        }
        #expect(refused.error == "expected Name: value")
        app.mode = .modal(.prompt(Prompt(.addHeader, title: "Header", question: "Name: value", text: "X-Test: 1")))
        _ = app.handleModal(enter)
        #expect(app.modal == nil)
        #expect(app.headers.last == HeaderRow(name: "X-Test", value: "1"))
    }
}
