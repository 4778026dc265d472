import TerminalUI
import TincanCore
import TincanSessions

/// The mouse: clicks focus panes, pick rows and switch tabs; the wheel scrolls the pane under it.
/// Hit-testing uses the same ``ScreenLayout`` as drawing.
extension AppState {
    /// Applies a mouse event; a click outside an open modal closes it.
    mutating func handleMouse(_ mouse: MouseEvent) {
        let layout = ScreenLayout(self)
        if modal != nil {
            // A click outside the modal closes it.
            if case .press = mouse.action, !(layout.modalFrame?.contains(x: mouse.x, y: mouse.y) ?? true) {
                closeModal()
            }
            return
        }
        guard let target = layout.hits.target(x: mouse.x, y: mouse.y) else { return }
        switch (mouse.action, target) {
        case let (.press, .pane(pane)):
            setFocus(pane)
            // Rows start inside the box's border.
            if let region = layout.hits.region(x: mouse.x, y: mouse.y) { select(in: pane, row: mouse.y - region.y - 1) }
        case let (.press, .requestTab(tab)):
            switchRequestTab(to: tab)
        case let (.press, .previewView(view)):
            previewView = view
            focus = .preview
            refreshPreview()
        case let (.press, .responseView(view)):
            if view != responseView { showResponseView(view) }
            focus = .response
        case (.wheelUp, .pane(let pane)), (.wheelDown, .pane(let pane)):
            let saved = focus
            focus = pane
            handleInPane(.mouse(mouse))
            focus = saved
        default:
            break
        }
    }

    private mutating func select(in pane: Pane, row: Int) {
        switch pane {
        case .headers:
            let count = headerListRows.count
            guard count > 0 else { return }
            headerList.select(headerList.offset + row, count: count)
        case .parameters:
            // The query fields sit above the tree: a click there focuses them.
            guard let box = ScreenLayout(self).requestBox else { return }
            let split = RequestPanes.parametersSplit(Rect(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2), self)
            if row < split.query.height {
                setFocus(.query)
                if row > 0 { queryList.select(queryList.offset + row - 1, count: query.count) }
            } else {
                parameters.list.select(parameters.list.offset + row - split.query.height, count: parameters.rows.count)
            }
        case .properties:
            propertyList.select(propertyList.offset + row, count: PropertyRow.allCases.count)
        case .auth:
            authList.select(authList.offset + row, count: authRows.count)
        case .checks:
            checkList.select(checkList.offset + row, count: checkRowCount)
        case .collection:
            workspace.list.select(workspace.list.offset + row, count: workspace.session.requests.count)
        default:
            break
        }
    }
}
