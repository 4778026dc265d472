import TerminalUI

/// The Auth tab: the scheme, its fields (secrets as dots until v), and the session's client
/// certificate, read-only here.
enum AuthPane {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ list: inout ListState, _ mode: inout InputMode, focused: Bool) {
        let theme = state.theme
        let rows = state.authRows
        // The longest label shown and a space on either side: OAuth 2.0's are the longest.
        let labelWidth = (rows.map { TextWidth.of($0.label) }.max() ?? 11) + 2
        let range = list.visibleRange(count: rows.count, viewport: rect.height - 1)
        for (line, index) in range.enumerated() {
            let row = rows[index]
            let selected = index == list.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(rect.row(line), style: base)
            let readOnly = row == .clientCertificate || row == .clientKey
            let value = state.authValue(row)
            let valueStyle = selected ? base : theme.style(readOnly ? .muted : value.contains("{{") ? .jsonKey : .base)
            buffer.write([Span(" " + row.label.rightPadded(to: labelWidth - 1), selected ? base : theme.style(readOnly ? .disabled : .label)), Span(value, valueStyle)],
                         x: rect.x, y: rect.y + line, limit: rect.width)
            // The field being edited, in place of the value it edits.
            if case .inlineEdit(var edit) = mode, edit.target == .auth(row) {
                let field = Rect(x: rect.x + labelWidth, y: rect.y + line, width: max(1, rect.width - labelWidth), height: 1)
                edit.field.render(into: &buffer, at: field, style: theme.style(.fieldFocused), focused: true)
                mode = .inlineEdit(edit)
            }
        }
        let note: String = switch rows[max(0, min(rows.count - 1, list.selected))] {
        case .clientCertificate, .clientKey: "the session's (defaults: tls:), changed in Props"
        case _ where state.inlineEdit != nil: "enter keeps · esc leaves it as it was"
        case .scheme: "enter picks the type; each type's fields are kept while you switch"
        default:
            switch state.authScheme {
            case .none: "enter chooses basic, digest or a bearer token"
            case .basic: "sent with the request · v \(state.revealsSecrets ? "hides" : "shows") secrets"
            case .digest: "answers the server's challenge · v \(state.revealsSecrets ? "hides" : "shows") secrets"
            case .bearer: "the Authorization header · v \(state.revealsSecrets ? "hides" : "shows") the token"
            case .oauth2: "a bearer token from the grant (token-params: in the file) · v \(state.revealsSecrets ? "hides" : "shows") secrets"
            }
        }
        buffer.write(note, x: rect.x + 1, y: rect.maxY - 1, style: theme.style(.muted), limit: rect.width - 1)
    }
}
