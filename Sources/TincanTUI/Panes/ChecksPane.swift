import TerminalUI
import TincanCore
import TincanSessions

/// The Checks tab: the selected request's assertions, then its captures, one line each in the
/// session's words, marked ✓ or ✗ by the last send, with the selected row's verdict below.
enum ChecksPane {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ list: inout ListState, focused: Bool) {
        let theme = state.theme
        let request = state.selectedRequest
        let count = request.assertions.count + request.captures.count
        guard count > 0 else {
            let help = ["No assertions or captures.", "a adds an assertion, c a capture.", "y on a response value offers an", "assertion on it."]
            for (line, text) in help.prefix(rect.height).enumerated() {
                buffer.write(text, x: rect.x + 1, y: rect.y + line, style: theme.style(.muted), limit: rect.width - 1)
            }
            return
        }
        // The selected row's verdict in full under the list (wrapped, up to three lines), or
        // what the keys do.
        let chosen = Row(min(list.selected, count - 1), of: request, in: state)
        let (note, element) = chosen.note
        let noteLines = wrap(note, width: max(1, rect.width - 1), limit: max(1, min(3, rect.height - 2)))
        let rows = max(1, rect.height - 1 - noteLines.count)
        let range = list.visibleRange(count: count, viewport: rows)
        for (line, index) in range.enumerated() {
            let selected = index == list.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(rect.row(line), style: base)
            let row = Row(index, of: request, in: state)
            var spans = [Span(row.mark.text, selected ? base : theme.style(row.mark.element))]
            if row.isCapture { spans.append(Span("capture ", selected ? base : theme.style(.label))) }
            spans.append(Span(row.text, base))
            if let value = row.capturedValue { spans.append(Span(" = " + value, selected ? base : theme.style(.jsonString))) }
            buffer.write(spans, x: rect.x, y: rect.y + line, limit: rect.width)
        }
        for (line, text) in noteLines.enumerated() {
            buffer.write(text, x: rect.x + 1, y: rect.maxY - noteLines.count + line, style: theme.style(element), limit: rect.width - 1)
        }
    }

    /// `text` in rows of at most `width` columns, broken at spaces (the Explain view's rule),
    /// at most `limit` of them, the last cut with … when there is more.
    static func wrap(_ text: String, width: Int, limit: Int) -> [String] {
        let rows = ExplainPane.wrap([Token(.base, text)], width: width, indent: 2).map { $0.map(\.text).joined() }
        guard rows.count > limit else { return rows }
        var kept = Array(rows.prefix(limit))
        kept[limit - 1] = String(TextWidth.prefix(kept[limit - 1], fitting: max(1, width - 1))) + "…"
        return kept
    }

    /// One row as drawn.
    struct Row {
        var mark: (text: String, element: ThemeElement) = ("· ", .muted)
        var isCapture = false
        var text: String
        var capturedValue: String?
        var failure: String?

        /// What the line under the list says about the row.
        var note: (String, ThemeElement) {
            if let failure { return ("✗ " + failure, .error) }
            if mark.element == .success { return (isCapture ? "✓ captured on the last send" : "✓ passed on the last send", .success) }
            return ("not checked yet: ctrl+r sends", .muted)
        }

        init(_ index: Int, of request: SavedRequest, in state: AppState) {
            if request.assertions.indices.contains(index) {
                text = CheckLine.text(of: request.assertions[index])
                guard let verdict = state.verdict(ofAssertion: index) else { return }
                mark = verdict.passed ? ("✓ ", .success) : ("✗ ", .error)
                failure = verdict.failure
                return
            }
            let capture = request.captures.elements[index - request.assertions.count]
            isCapture = true
            text = CheckLine.text(capture: capture.key, capture.value)
            switch state.verdict(ofCapture: capture.key) {
            case .success(let value)?:
                mark = ("✓ ", .success)
                let shown = Redaction.isSecret(name: capture.key) ? ParameterValue.string(Redaction.mask) : value
                capturedValue = String(JSONWriter.string(shown).prefix(200))
            case .failure(let verdict)?:
                mark = ("✗ ", .error)
                failure = verdict.reason
            case nil:
                break
            }
        }
    }
}
