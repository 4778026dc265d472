import TerminalUI
import TincanCore
import TincanSessions

/// The request box on the left: headers, parameters, body, auth, properties and checks, one tab at a time.
enum RequestPanes {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ widgets: inout StatefulWidgets) {
        let theme = state.theme
        let pane = state.requestTab.pane
        let focused = state.focus == pane && state.modal == nil
        let inside = Renderer.box(&buffer, rect, titles: RequestTab.allCases.map(\.rawValue), active: RequestTab.allCases.firstIndex(of: state.requestTab), focused: state.requestTab.panes.contains(state.focus), theme: theme)
        guard !inside.isEmpty else { return }
        switch state.requestTab {
        case .headers: drawHeaders(&buffer, inside, state, &widgets.headers, focused: focused)
        case .parameters:
            let split = parametersSplit(inside, state)
            QueryPane.draw(&buffer, split.query, state, &widgets.query, focused: state.focus == .query && state.modal == nil)
            drawParameters(&buffer, split.tree, state, &widgets.parameters, focused: focused)
        case .body:
            switch state.bodySource {
            case .file?, .upload?: BodyKindPane.drawFile(&buffer, inside, state)
            default: drawBody(&buffer, inside, state, &widgets.body, focused: focused)
            }
        case .auth: AuthPane.draw(&buffer, inside, state, &widgets.auth, &widgets.mode, focused: focused)
        case .properties: drawProperties(&buffer, inside, state, &widgets.properties, focused: focused)
        case .checks: ChecksPane.draw(&buffer, inside, state, &widgets.checks, focused: focused)
        }
    }

    /// The Params tab's halves: the query fields over the parameter tree.
    static func parametersSplit(_ rect: Rect, _ state: AppState) -> (query: Rect, tree: Rect) {
        // A title and a row per field (the title alone for none), at most a third of the tab.
        let height = state.query.isEmpty ? 1 : min(1 + state.query.count, max(2, rect.height / 3))
        return (Rect(x: rect.x, y: rect.y, width: rect.width, height: height),
                Rect(x: rect.x, y: rect.y + height, width: rect.width, height: rect.height - height))
    }

    /// A header's value as the Headers tab shows it: a secret's (a bearer token, a cookie, an API
    /// key) as dots until v reveals it, as in the Auth tab. A value written as one `{{variable}}`
    /// (after an auth scheme: `Bearer {{token}}`) names a secret rather than holding it, and shows
    /// as written; an inherited value is the built one, its variables expanded, so it never does.
    static func shownValue(name: String, value: String, _ state: AppState, written: Bool) -> String {
        guard !state.revealsSecrets, Redaction.isSecret(name: name) else { return value }
        if written {
            let words = value.trimmingWhitespace().split(separator: " ", maxSplits: 1)
            let reference = words.count == 2 ? words[1] : words.first ?? ""
            let inner = reference.dropFirst(2).dropLast(2)
            if reference.hasPrefix("{{"), reference.hasSuffix("}}"), !inner.contains("{"), !inner.contains("}") { return value }
        }
        return Redaction.headerValue(name: name, value: value)
    }

    private static func drawHeaders(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ list: inout ListState, focused: Bool) {
        let theme = state.theme
        let rows = state.headerListRows
        if rows.isEmpty {
            buffer.write("No headers. Press a to add one.", x: rect.x + 1, y: rect.y, style: theme.style(.muted), limit: rect.width - 1)
            return
        }
        // The last line says where the selected default comes from and what space does.
        let hasDefaults = rows.count > state.headers.count
        let listHeight = hasDefaults ? rect.height - 1 : rect.height
        let range = list.visibleRange(count: rows.count, viewport: listHeight)
        for (line, index) in range.enumerated() {
            let selected = index == list.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(rect.row(line), style: base)
            let spans: [Span]
            switch rows[index] {
            case .own(let own):
                let row = state.headers[own]
                let nameStyle = selected ? base : theme.style(row.isEnabled ? .headerName : .disabled)
                let valueStyle = selected ? base : theme.style(row.isEnabled ? .headerValue : .disabled)
                let value = shownValue(name: row.name, value: row.value, state, written: true)
                spans = [Span(row.isEnabled ? "[x] " : "[ ] ", base), Span(row.name, nameStyle), Span(": ", valueStyle), Span(value, valueStyle)]
            case .removed(let removed):
                let name = state.removedHeaders[removed]
                let style = selected ? base : theme.style(.disabled)
                spans = originSpans([Span("[ ] ", base), Span(name, style), Span(": null", style)], origin: state.removedOrigin(name).rawValue + ", removed", width: rect.width, style: style)
            case .inherited(let inherited):
                let header = state.defaultHeaders[inherited]
                let style = selected ? base : theme.style(.muted)
                let value = shownValue(name: header.name, value: header.value, state, written: false)
                spans = originSpans([Span("[x] ", base), Span(header.name, style), Span(": " + value, style)], origin: header.origin.rawValue, width: rect.width, style: style)
            }
            buffer.write(spans, x: rect.x, y: rect.y + line, limit: rect.width)
        }
        guard hasDefaults else { return }
        let note: String = switch state.selectedHeaderRow {
        case .removed(let index)?: "\(state.removedHeaders[index]): null removes the \(state.removedOrigin(state.removedHeaders[index]).rawValue) header · space sends it again"
        case .inherited(let index)?: "\(state.defaultHeaders[index].origin.rawValue) · space or d: not sent (saved as name: null) · enter overrides"
        default: "greyed: sent without being listed, with their origin"
        }
        buffer.write(note, x: rect.x + 1, y: rect.maxY - 1, style: theme.style(.muted), limit: rect.width - 1)
    }

    /// A row with its origin at the right, the value cut to make room (left out when too narrow).
    private static func originSpans(_ spans: [Span], origin: String, width: Int, style: Style) -> [Span] {
        let tag = " (\(origin))"
        let text = spans.map(\.text).joined()
        let room = width - TextWidth.of(tag)
        guard room >= 16 else { return spans }
        guard TextWidth.of(text) > room else { return spans + [Span(tag, style)] }
        // Cut the last span (the value) with …, keeping the mark and the name.
        var cut = spans
        let head = spans.dropLast().map(\.text).joined()
        let last = spans[spans.count - 1]
        let keep = max(0, room - TextWidth.of(head) - 1)
        cut[cut.count - 1] = Span(String(TextWidth.prefix(last.text, fitting: keep)) + "…", last.style)
        return cut + [Span(tag, style)]
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
            placement = "\(state.method) puts them in the body (\(state.serializer.rawValue)\(state.serializer == .multipart ? "; \"@path\" values are files" : ""))"
        }
        buffer.write(placement, x: rect.x + 1, y: rect.maxY - 1, style: theme.style(.muted), limit: rect.width - 1)
    }

    private static func drawBody(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ text: inout TextArea, focused: Bool) {
        let theme = state.theme
        let editor = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - 1)
        text.render(into: &buffer, at: editor, style: theme.style(.base), gutterStyle: theme.style(.muted), selectionStyle: theme.style(.selection), focused: focused)
        let note = BodyKindPane.editorNote(state)
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
