/// A modal dialog: a titled box over the screen with lines of text and an optional input field.
public struct Dialog: Sendable, Equatable {
    /// What the dialog is.
    public var title: String
    /// The body, line by line.
    public var lines: [StyledLine]
    /// A field to type into, for prompts.
    public var field: TextField?
    /// A hint shown on the bottom edge (`enter ok · esc cancel`).
    public var hint: String
    /// The body's scroll position, for long dialogs such as help.
    public var scroll = ScrollState()

    /// Creates a dialog.
    public init(title: String, lines: [StyledLine] = [], field: TextField? = nil, hint: String = "esc close") {
        self.title = title
        self.lines = lines
        self.field = field
        self.hint = hint
    }

    /// The rectangle the dialog takes on a screen.
    public func frame(in screen: Rect) -> Rect {
        let widest = max(TextWidth.of(title) + 6, TextWidth.of(hint) + 6, lines.map(\.columns).max() ?? 0, field == nil ? 0 : 40)
        let height = lines.count + (field == nil ? 0 : 2) + 2
        return screen.centered(width: min(screen.width - 4, widest + 4), height: min(screen.height - 2, height))
    }

    /// Draws the dialog over whatever is on the screen.
    public mutating func render(into buffer: inout ScreenBuffer, screen: Rect, theme: Theme) {
        let frame = frame(in: screen)
        let inside = buffer.drawBox(frame, title: [Span(title, theme.style(.dialogBorder))], style: theme.style(.dialogBorder), fill: theme.style(.dialog))
        guard !inside.isEmpty else { return }
        let body = Rect(x: inside.x + 1, y: inside.y, width: inside.width - 2, height: inside.height - (field == nil ? 0 : 2))
        scroll.clamp(contentHeight: lines.count, viewport: body.height)
        for row in 0..<body.height {
            let index = scroll.offset + row
            guard index < lines.count else { break }
            buffer.write(lines[index].map { Span($0.text, $0.style.background(theme.style(.dialog).background)) }, x: body.x, y: body.y + row, limit: body.width)
        }
        if field != nil {
            let fieldRect = Rect(x: inside.x + 1, y: inside.maxY - 1, width: inside.width - 2, height: 1)
            field!.render(into: &buffer, at: fieldRect, style: theme.style(.fieldFocused), focused: true)
        }
        if !hint.isEmpty, frame.width > TextWidth.of(hint) + 4 {
            buffer.write(" \(hint) ", x: frame.maxX - TextWidth.of(hint) - 4, y: frame.maxY - 1, style: theme.style(.dialogBorder))
        }
    }
}
