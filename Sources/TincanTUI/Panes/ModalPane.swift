import TerminalUI
import TincanCore

/// Modals drawn over the screen: help, prompts, pickers and messages.
enum ModalPane {
    /// Dims the screen and draws the open modal of `mode` over it (nothing for another mode).
    static func draw(_ buffer: inout ScreenBuffer, _ theme: Theme, _ mode: inout InputMode) {
        guard case let .modal(modal) = mode else { return }
        let screen = buffer.bounds
        buffer.restyle(screen) { $0.adding(.dim) }
        switch modal {
        case var .help(dialog):
            dialog.render(into: &buffer, screen: screen, theme: theme)
            mode = .modal(.help(dialog))
        case var .message(dialog):
            dialog.render(into: &buffer, screen: screen, theme: theme)
            mode = .modal(.message(dialog))
        case var .prompt(prompt):
            var shown = prompt.displayDialog
            shown.render(into: &buffer, screen: screen, theme: theme)
            prompt.dialog.field = shown.field
            mode = .modal(.prompt(prompt))
        case var .picker(picker):
            let frame = ScreenLayout.frame(of: .picker(picker), in: screen)
            let inside = buffer.drawBox(frame, title: [Span(picker.title, theme.style(.dialogBorder))], style: theme.style(.dialogBorder), fill: theme.style(.dialog))
            let range = picker.list.visibleRange(count: picker.options.count, viewport: inside.height)
            for (line, index) in range.enumerated() {
                let style = index == picker.list.selected ? theme.style(.selection) : theme.style(.dialog)
                buffer.fill(inside.row(line), style: style)
                buffer.write(" " + picker.options[index], x: inside.x, y: inside.y + line, style: style, limit: inside.width)
            }
            mode = .modal(.picker(picker))
        }
    }
}

extension AppState {
    /// The help screen: every binding of the keymap in use, by scope.
    static func helpDialog(_ keymap: Keymap<Action>) -> Dialog {
        var lines: [StyledLine] = []
        for scope in Scope.allCases {
            let bindings = keymap.bindings.filter { $0.scope == scope.rawValue && !$0.keys.isEmpty }
            guard !bindings.isEmpty else { continue }
            if !lines.isEmpty { lines.append([]) }
            lines.append([Span(scope.rawValue, Style().adding([.bold, .underline]))])
            for binding in bindings {
                lines.append([Span(KeyBindings.keysText(binding).rightPadded(to: 22), Style().adding(.bold)), Span(binding.help)])
            }
        }
        lines.append([])
        lines.append([Span("text fields", Style().adding([.bold, .underline]))])
        lines.append([Span("ctrl+a/e, alt+b/f".rightPadded(to: 22), Style().adding(.bold)), Span("line start/end, word back/forward")])
        lines.append([Span("ctrl+k/u/w, ctrl+y".rightPadded(to: 22), Style().adding(.bold)), Span("kill to end/start/word, yank")])
        lines.append([Span("ctrl+_".rightPadded(to: 22), Style().adding(.bold)), Span("undo")])
        return Dialog(title: "Keys", lines: lines, hint: "↑↓ scroll · esc close")
    }
}
