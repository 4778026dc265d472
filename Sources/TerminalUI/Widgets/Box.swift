extension ScreenBuffer {
    /// Draws a rounded box around a rectangle with a title in its top edge.
    ///
    /// - Returns: The inside of the box.
    @discardableResult
    public mutating func drawBox(_ rect: Rect, title: [Span] = [], style: Style, fill: Style? = nil) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return .zero }
        if let fill { self.fill(rect.inset(by: 1), style: fill) }
        let horizontal = String(repeating: "─", count: rect.width - 2)
        write("╭" + horizontal + "╮", x: rect.x, y: rect.y, style: style)
        write("╰" + horizontal + "╯", x: rect.x, y: rect.maxY - 1, style: style)
        for row in (rect.y + 1)..<(rect.maxY - 1) {
            write("│", x: rect.x, y: row, style: style)
            write("│", x: rect.maxX - 1, y: row, style: style)
        }
        if !title.isEmpty, rect.width > 6 {
            write(" ", x: rect.x + 1, y: rect.y, style: style)
            let used = write(title, x: rect.x + 2, y: rect.y, limit: rect.width - 5)
            write(" ", x: rect.x + 2 + used, y: rect.y, style: style)
        }
        return rect.inset(by: 1)
    }
}
