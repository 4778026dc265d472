import TerminalUI
import TincanCore
import TincanSessions

/// Keys, pastes and resizes: who gets them (the open modal, the command line, the search field,
/// a binding of the active scopes, else the focused pane), and moving the focus.
extension AppState {
    // MARK: - Keys

    /// Routes one input event; mouse events go to ``handleMouse(_:)``.
    mutating func handle(_ event: InputEvent) -> [Effect] {
        switch event {
        case let .resize(width, height):
            self.width = width
            self.height = height
            return []
        case let .mouse(mouse):
            handleMouse(mouse)
            return []
        case .key, .paste:
            break
        }
        if case .key(let key) = event, key == .ctrl("c") || keymap.action(for: key, in: [Scope.global.rawValue]) == .quit {
            // ctrl+c while unsaved changes are being asked about quits without saving: a way out
            // that no keymap or dialog can take away.
            if key == .ctrl("c"), case .picker(let picker)? = modal, picker.purpose == .unsaved(.quit) {
                shouldQuit = true
                return [.quit]
            }
            return perform(.quit)
        }
        switch mode {
        case .modal: return handleModal(event)
        case .commandLine: return handleCommandLine(event)
        case .search:
            handleSearchField(event)
            return []
        case .jump:
            handleJump(event)
            return []
        case .inlineEdit:
            handleInlineEdit(event)
            return []
        case .panes: break
        }
        if case let .key(key) = event {
            // Text panes have no `list` scope, so printable keys reach the field.
            if let action = keymap.action(for: key, in: activeScopes) {
                return perform(action)
            }
        }
        handleInPane(event)
        return []
    }

    /// An event no binding took, for the focused pane's own widget (a field, a list, a tree).
    mutating func handleInPane(_ event: InputEvent) {
        let viewport = max(1, height / 3)
        switch focus {
        case .collection:
            workspace.list.handle(event, count: workspace.session.requests.count, viewport: max(1, height - 8))
        case .baseURL:
            if baseField.handle(event) { status = nil }
        case .url:
            // A pasted curl command becomes the whole request.
            if case .paste(let text) = event, text.trimmingWhitespaceAndNewlines().hasPrefix("curl ") {
                pasteCurlCommand(text)
                return
            }
            if urlField.handle(event) { status = nil }
        case .body:
            switch bodySource {
            case .file?, .upload?:
                if event == .key(KeyEvent(.enter)) { changeBodyFile() }
            default:
                let before = body.revision
                body.handle(event, pageHeight: viewport)
                if body.revision != before { bodyEdited() }
            }
        case .headers:
            headerList.handle(event, count: headerListRows.count, viewport: viewport)
        case .query:
            queryList.handle(event, count: query.count, viewport: viewport)
        case .auth:
            authList.handle(event, count: authRows.count, viewport: viewport)
        case .parameters:
            parameters.list.handle(event, count: parameters.rows.count, viewport: viewport)
        case .properties:
            propertyList.handle(event, count: PropertyRow.allCases.count, viewport: viewport)
        case .checks:
            checkList.handle(event, count: checkRowCount, viewport: viewport)
        case .preview:
            let bounds = previewScrollBounds()
            previewScroll.handle(event, contentHeight: bounds.contentHeight, viewport: bounds.viewport)
        case .response:
            if let document = bodyDocument {
                // Page keys turn the page, as a pager does, rather than only moving the selection.
                if case let .key(key) = event, key.modifiers.isEmpty, key.key == .pageDown || key.key == .pageUp {
                    bodyList.page(key.key == .pageDown ? 1 : -1, count: document.rowCount, viewport: responseViewport)
                } else {
                    bodyList.handle(event, count: document.rowCount, viewport: responseViewport)
                }
            } else {
                responseScroll.handle(event, contentHeight: responseShownLines(width: responseTextWidth).count, viewport: responseViewport)
            }
        case .method, .serializer:
            break
        }
    }

    // MARK: - Focus

    mutating func setFocus(_ pane: Pane) {
        if focus == .body, pane != .body, bodyIsDirty { applyBody() }
        if let tab = RequestTab.allCases.first(where: { $0.panes.contains(pane) }) { requestTab = tab }
        focus = pane
    }

    mutating func moveFocus(by delta: Int) {
        var ring = FocusRing(focusOrder)
        ring.focus(focus)
        if delta > 0 { ring.next() } else { ring.previous() }
        setFocus(ring.current)
    }

    mutating func switchRequestTab(to tab: RequestTab) {
        if requestTab == .body, bodyIsDirty, !applyBody() { return }
        requestTab = tab
        if tab == .body { loadBodyEditor() }
        focus = tab.pane
    }

    mutating func stepChoice(by delta: Int) {
        switch focus {
        case .method:
            let index = Self.methods.firstIndex(of: method) ?? 0
            method = Self.methods[(index + delta + Self.methods.count) % Self.methods.count]
        case .serializer:
            let kinds = SerializerKind.allCases
            serializer = kinds[(kinds.firstIndex(of: serializer)! + delta + kinds.count) % kinds.count]
        default:
            break
        }
    }
}
