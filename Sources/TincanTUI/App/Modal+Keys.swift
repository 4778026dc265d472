import TerminalUI

/// What a key did to the open modal, for the app to carry out.
enum ModalOutcome: Sendable, Equatable {
    /// The modal stays open, as it is now (scrolled, moved, typed into).
    case stays(Modal)
    /// Read and closed (enter, q or F1 on the help or a message).
    case closed
    /// Put away with esc: what waited on the answer is dropped.
    case cancelled
    /// The prompt's text entered, for the app to apply or refuse.
    case answered(Prompt, text: String)
    /// A picker's option chosen (its index among the options).
    case chosen(Picker.Purpose, option: String, index: Int)
    /// v or r in the variables view: secrets shown or hidden again.
    case togglesSecrets
}

/// The modals as a component (issue 35 §1): the open ``Modal`` (held in ``InputMode/modal(_:)``,
/// so nothing else takes keys while it is open) decides its own keys, its scroll, cursor and
/// field, and says in a ``ModalOutcome`` what the answer or choice is; the app applies it.
extension Modal {
    /// Decides a key for this modal.
    ///
    /// - Parameter screenHeight: The screen's rows, which bound a dialog's and a picker's page.
    /// - Returns: What the app does: keep the modal as changed, close it, or apply an answer.
    func handle(_ event: InputEvent, screenHeight: Int) -> ModalOutcome {
        let isEscape = event == .key(KeyEvent(.escape))
        let isEnter = event == .key(KeyEvent(.enter))
        switch self {
        case var .help(dialog), var .message(dialog):
            if case .message = self, dialog.title.hasPrefix(AppState.variablesTitle), event == .key(.char("v")) || event == .key(.char("r")) {
                return .togglesSecrets
            }
            if isEscape || isEnter || event == .key(.char("q")) || event == .key(KeyEvent(.function(1))) { return .closed }
            dialog.scroll.handle(event, contentHeight: dialog.lines.count, viewport: max(1, screenHeight - 6))
            if case .help = self { return .stays(.help(dialog)) }
            return .stays(.message(dialog))
        case var .picker(picker):
            if isEscape { return .cancelled }
            if isEnter { return .chosen(picker.purpose, option: picker.options[picker.list.selected], index: picker.list.selected) }
            picker.list.handle(event, count: picker.options.count, viewport: ScreenLayout.pickerViewport(picker, screenHeight: screenHeight))
            return .stays(.picker(picker))
        case var .prompt(prompt):
            if isEscape { return .cancelled }
            if isEnter { return .answered(prompt, text: prompt.dialog.field?.text ?? "") }
            prompt.dialog.field?.handle(event)
            // A refusal shows until the answer is changed.
            prompt.error = nil
            return .stays(.prompt(prompt))
        }
    }
}
