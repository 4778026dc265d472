import TerminalUI

/// The query fields (`query:`) at the top of the Params tab, one `name==value` a row.
enum QueryPane {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ list: inout ListState, focused: Bool) {
        guard rect.height > 0 else { return }
        let theme = state.theme
        guard !state.query.isEmpty else {
            // One line: the title, and how to add one from where the focus is.
            let hint = focused ? " · a adds name==value" : " (shift+tab, a adds)"
            buffer.write([Span("Query: none", theme.style(focused ? .title : .label)), Span(hint, theme.style(.muted))], x: rect.x + 1, y: rect.y, limit: rect.width - 1)
            return
        }
        buffer.write("Query fields (always in the URL)", x: rect.x + 1, y: rect.y, style: theme.style(focused ? .title : .label), limit: rect.width - 1)
        let rows = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: rect.height - 1)
        let range = list.visibleRange(count: state.query.count, viewport: rows.height)
        for (line, index) in range.enumerated() {
            let field = state.query[index]
            let selected = index == list.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(rows.row(line), style: base)
            guard field.isEnabled else {
                // A field turned off is drawn muted and marked, as a header turned off is.
                let muted = selected ? base : theme.style(.muted)
                buffer.write([Span("- ", muted), Span(field.name, muted), Span("==", muted), Span(field.value, muted), Span("  (off)", muted)],
                             x: rows.x, y: rows.y + line, limit: rows.width)
                continue
            }
            buffer.write([Span("  ", base), Span(field.name, selected ? base : theme.style(.jsonKey)), Span("==", selected ? base : theme.style(.jsonPunctuation)),
                          Span(field.value, selected ? base : theme.style(.jsonString))], x: rows.x, y: rows.y + line, limit: rows.width)
        }
    }
}
