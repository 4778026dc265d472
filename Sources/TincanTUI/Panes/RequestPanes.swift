import TerminalUI
import TincanCore

/// The request box on the left: headers, parameters, body, properties and checks, one tab at a time.
enum RequestPanes {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ widgets: inout StatefulWidgets) {
        let theme = state.theme
        let pane = state.requestTab.pane
        let focused = state.focus == pane && state.modal == nil
        let inside = Renderer.box(&buffer, rect, titles: RequestTab.allCases.map(\.rawValue), active: RequestTab.allCases.firstIndex(of: state.requestTab), focused: state.focus == pane, theme: theme)
        guard !inside.isEmpty else { return }
        switch state.requestTab {
        case .headers: drawHeaders(&buffer, inside, state, &widgets.headers, focused: focused)
        case .parameters: drawParameters(&buffer, inside, state, &widgets.parameters, focused: focused)
        case .body: drawBody(&buffer, inside, state, &widgets.body, focused: focused)
        case .properties: drawProperties(&buffer, inside, state, &widgets.properties, focused: focused)
        case .checks: ChecksPane.draw(&buffer, inside, state, &widgets.checks, focused: focused)
        }
    }

    private static func drawHeaders(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ list: inout ListState, focused: Bool) {
        let theme = state.theme
        if state.headers.isEmpty {
            buffer.write("No headers. Press a to add one.", x: rect.x + 1, y: rect.y, style: theme.style(.muted), limit: rect.width - 1)
            return
        }
        let range = list.visibleRange(count: state.headers.count, viewport: rect.height)
        for (line, index) in range.enumerated() {
            let row = state.headers[index]
            let selected = index == list.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(rect.row(line), style: base)
            let mark = row.isEnabled ? "[x] " : "[ ] "
            let nameStyle = selected ? base : theme.style(row.isEnabled ? .headerName : .disabled)
            let valueStyle = selected ? base : theme.style(row.isEnabled ? .headerValue : .disabled)
            buffer.write([Span(mark, base), Span(row.name, nameStyle), Span(": ", valueStyle), Span(row.value, valueStyle)], x: rect.x, y: rect.y + line, limit: rect.width)
        }
    }

    private static func drawParameters(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ editor: inout TreeEditor, focused: Bool) {
        let theme = state.theme
        let tree = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - 1)
        editor.render(into: &buffer, at: tree, theme: theme, focused: focused)
        let placement: String
        if state.parameters.root.children.isEmpty {
            placement = "no parameters"
        } else if ["GET", "HEAD", "DELETE"].contains(state.method) {
            placement = "\(state.method) puts them in the query string"
        } else {
            placement = "\(state.method) puts them in the body (\(state.serializer.rawValue))"
        }
        buffer.write(placement, x: rect.x + 1, y: rect.maxY - 1, style: theme.style(.muted), limit: rect.width - 1)
    }

    private static func drawBody(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ text: inout TextArea, focused: Bool) {
        let theme = state.theme
        let editor = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - 1)
        text.render(into: &buffer, at: editor, style: theme.style(.base), gutterStyle: theme.style(.muted), focused: focused)
        let note = state.bodyIsDirty ? "edited · alt+s applies · F4 opens $EDITOR" : "the parameters as JSON · F4 opens $EDITOR"
        buffer.write(note, x: rect.x + 1, y: rect.maxY - 1, style: theme.style(state.bodyIsDirty ? .changed : .muted), limit: rect.width - 1)
    }

    private static func drawProperties(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ list: inout ListState, focused: Bool) {
        let theme = state.theme
        let rows = PropertyRow.allCases
        let range = list.visibleRange(count: rows.count, viewport: rect.height - 1)
        // The label column shrinks on narrow screens (labels are cut with …) to keep values visible.
        let labelWidth = max(8, min(rows.map { TextWidth.of($0.label) }.max()! + 3, rect.width - 14))
        for (line, index) in range.enumerated() {
            let row = rows[index]
            let selected = index == list.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(rect.row(line), style: base)
            let changed = row.isChanged(in: state)
            var spans = [Span(changed ? "● " : "  ", selected ? base : theme.style(.changed))]
            var label = row.label
            if TextWidth.of(label) > labelWidth - 3 { label = String(TextWidth.prefix(label, fitting: labelWidth - 4)) + "…" }
            spans.append(Span(label.rightPadded(to: labelWidth - 2), selected ? base : theme.style(row.note == nil ? .label : .disabled)))
            spans.append(Span(row.value(in: state), selected ? base : theme.style(changed ? .changed : .base)))
            buffer.write(spans, x: rect.x, y: rect.y + line, limit: rect.width)
        }
        let selected = rows[list.selected]
        let note = selected.note ?? "● changed: copied onto this request; the rest stay the session's"
        buffer.write(note, x: rect.x + 1, y: rect.maxY - 1, style: theme.style(.muted), limit: rect.width - 1)
    }
}
