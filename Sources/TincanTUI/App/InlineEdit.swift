import TerminalUI

/// A field edited in place, in the row that names it, rather than in a dialog (issue 34 §5).
public struct InlineEdit: Sendable, Equatable {
    /// The row being edited.
    public enum Target: Sendable, Equatable {
        /// A field of the Auth tab.
        case auth(AuthRow)
    }

    public var target: Target
    public var field: TextField
    /// The row edited next once Enter keeps this one (a new credential's password after its user).
    public var then: Target?
    /// Why the last Enter was refused, shown in the status line.
    public var error: String?
}

extension AppState {
    /// The field being edited in place, if any.
    public var inlineEdit: InlineEdit? {
        if case let .inlineEdit(edit) = mode { edit } else { nil }
    }

    /// A key for the field edited in place: Enter keeps the text (and goes on to the next field
    /// of a new credential), Esc leaves the value as it was, anything else edits.
    mutating func handleInlineEdit(_ event: InputEvent) {
        guard var edit = inlineEdit else { return }
        if event == .key(KeyEvent(.escape)) {
            mode = .panes
            status = StatusMessage("Left as it was.")
            return
        }
        if event == .key(KeyEvent(.enter)) {
            let refusal: String? = switch edit.target {
            case .auth(let row): applyAuthField(row, edit.field.text)
            }
            if let refusal {
                edit.error = refusal
                mode = .inlineEdit(edit)
                status = StatusMessage(refusal, .error)
                return
            }
            mode = .panes
            status = nil
            switch edit.then {
            case .auth(let next)?: editAuthField(next)
            case nil: break
            }
            return
        }
        _ = edit.field.handle(event)
        edit.error = nil
        mode = .inlineEdit(edit)
    }
}
