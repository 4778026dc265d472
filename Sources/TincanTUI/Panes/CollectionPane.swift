import TerminalUI
import TincanCore
import TincanSessions

/// The session's requests, in file order: the one in the editor is marked, the cursor selects.
enum CollectionPane {
    static func draw(_ buffer: inout ScreenBuffer, _ rect: Rect, _ state: AppState, _ cursor: inout ListState) {
        let theme = state.theme
        let focused = state.focus == .collection && state.modal == nil
        let requests = state.workspace.session.requests
        let inside = Renderer.box(&buffer, rect, titles: ["Requests (\(requests.count))"], active: 0, focused: state.focus == .collection, theme: theme)
        guard !inside.isEmpty else { return }
        let list = Rect(x: inside.x, y: inside.y, width: inside.width, height: max(0, inside.height - 1))
        let range = cursor.visibleRange(count: requests.count, viewport: list.height)
        for (line, index) in range.enumerated() {
            let request = requests[index]
            let selected = index == cursor.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(list.row(line), style: base)
            let mark = index == state.workspace.selected ? "▸" : " "
            let methodStyle = selected ? base : theme.style(.method)
            buffer.write([Span(mark, base), Span(request.method.rightPadded(to: 7), methodStyle), Span(request.name ?? request.url, base)],
                         x: list.x, y: list.y + line, limit: list.width)
        }
        let environment = state.workspace.environment.map { "env \($0)" } ?? (state.workspace.session.environments.isEmpty ? "no environments" : "no env · alt+e")
        buffer.write(environment, x: inside.x + 1, y: inside.maxY - 1, style: theme.style(.muted), limit: inside.width - 1)
    }
}
