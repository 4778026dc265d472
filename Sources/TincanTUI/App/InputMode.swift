import TerminalUI

/// What takes the keys before the panes do. A modal, the `:` command line and the body search's
/// field each take every key while open, so at most one is open: one enum, not three optionals,
/// makes two at once impossible.
public enum InputMode: Sendable, Equatable {
    /// Keys go to the bindings of the active scopes, then to the focused pane.
    case panes
    /// A modal over the screen (help, a prompt, a picker, a message) until it closes.
    case modal(Modal)
    /// The `:` command line.
    case commandLine(CommandLineState)
    /// The body search's field, while the query after `/` is typed.
    case search(TextField)
    /// Jump mode (ctrl+o): every pane, field, tab and view labelled with the key that goes there.
    case jump
    /// A field edited in place, in its row.
    case inlineEdit(InlineEdit)
}

extension AppState {
    /// The open modal, or nil when the mode is another.
    public var modal: Modal? {
        if case let .modal(modal) = mode { modal } else { nil }
    }

    /// The command line, or nil when it is closed.
    public var commandLine: CommandLineState? {
        if case let .commandLine(line) = mode { line } else { nil }
    }

    /// The search field, or nil when no query is being typed.
    public var searchField: TextField? {
        if case let .search(field) = mode { field } else { nil }
    }

    /// Closes the modal, if one is open; another mode stays as it is.
    mutating func closeModal() {
        if case .modal = mode { mode = .panes }
    }
}
