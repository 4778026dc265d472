import TerminalUI
import TincanCore
import TincanSessions

/// What each ``Action`` of the key table does.
extension AppState {
    /// Carries out an action bound to a key (or asked for by the command line).
    mutating func perform(_ action: Action) -> [Effect] {
        switch action {
        case .send: return sendReadingFailedFilesAgain()
        case .slowMotion: return slowMotionKey()
        case .cancel:
            if cancelSlowMotionBeforeSending() { return [] }
            guard let exchange, exchange.phase == .sending else {
                status = StatusMessage("Nothing is being sent.")
                return []
            }
            self.exchange?.phase = .cancelled
            status = StatusMessage("Cancelled.", .warning)
            return [.cancel(exchange: exchange.id)]
        case .quit:
            return requestQuit()
        case .save: save()
        case .saveAs: promptSaveAs()
        case .openSession:
            mode = .modal(.prompt(Prompt(.openSession, title: "Open session", question: "File (.tincan.yaml)", text: workspace.path.map { path in Self.folder(of: path, in: launch.workingDirectory) + "/" } ?? "")))
        case .environment: pickEnvironment()
        case .history: pickHistory()
        case .compare: pickComparison()
        case .copyCurl: return copyAsCurl()
        case .copyCode: pickCodeLanguage()
        case .commandLine, .commandLineColon:
            mode = .commandLine(CommandLineState())
        case .openRequest:
            loadRequest(workspace.list.selected)
            status = StatusMessage("Request \(workspace.selected + 1) of \(workspace.session.requests.count): \(workspace.session.requests[workspace.selected].displayName)")
        case .addRequest: addRequest()
        case .removeRequest: removeRequest()
        case .renameRequest:
            mode = .modal(.prompt(Prompt(.renameRequest, title: "Name the request", question: "Name (empty for none)", text: workspace.session.requests[workspace.list.selected].name ?? "")))
        case .help, .helpQuestion:
            mode = .modal(.help(Self.helpDialog(keymap)))
        case .focusNext: moveFocus(by: 1)
        case .focusPrevious: moveFocus(by: -1)
        case .nextTab, .previousTab:
            let tabs = RequestTab.allCases
            let step = action == .nextTab ? 1 : tabs.count - 1
            switchRequestTab(to: tabs[(tabs.firstIndex(of: requestTab)! + step) % tabs.count])
        case .jump: startJump()
        case .focusURL: jump(to: .pane(.url))
        case .focusMethod: jump(to: .pane(.method))
        case .focusBody: jump(to: .requestTab(.body))
        case .received:
            toggleReceived()
        case .explain:
            previewView = previewView == .explain ? .wire : .explain
            previewScroll = ScrollState()
            status = StatusMessage(previewView == .explain ? "Explain: why the request looks the way it does, and why the response passed or failed. F9 shows the wire again." : "Preview: the bytes on the wire.")
        case .nextResponseView:
            showResponseView(response.nextView)
            responseScroll = ScrollState()
        case .editExternally:
            switch bodySource {
            case .file?, .upload?:
                status = StatusMessage("The body is a file: $EDITOR edits text, the parameters or bytes (alt+k on the Body tab changes the kind).", .warning)
                return []
            default:
                if requestTab != .body || !bodyIsDirty { loadBodyEditor() }
                return [.editExternally(text: body.text, fileExtension: bodyFileExtension)]
            }
        case .cycleTheme:
            theme = themes.theme(after: theme.name)
            status = StatusMessage("Theme: \(theme.name), kept for the next run (theme: in config.yaml)")
            return [.saveTheme(theme.name)]
        case .zoom:
            guard Self.zoomablePanes.contains(focus) || zoomed else {
                let field = switch focus {
                case .baseURL: "base URL"
                case .url: "URL"
                default: focus.rawValue
                }
                status = StatusMessage("Nothing to zoom: the \(field) field is one line. F12 zooms a pane (requests, headers, params, body, props, checks, preview, response); tab moves to one.", .warning)
                break
            }
            zoomed.toggle()
        case .suspend:
            return [.suspend]
        case .nextChoice: stepChoice(by: 1)
        case .previousChoice: stepChoice(by: -1)
        case .openPicker:
            mode = .modal(focus == .method
                ? .picker(Picker(.method, title: "Method", options: Self.methods, selected: method))
                : .picker(Picker(.serializer, title: "Request serializer", options: SerializerKind.allCases.map(\.rawValue), selected: serializer.rawValue)))
        case .addHeader:
            mode = .modal(.prompt(Prompt(.addHeader, title: "Add header", question: "Name: value")))
        case .editHeader: editHeaderRow()
        case .removeHeader: removeHeaderRow()
        case .toggleHeader: toggleHeaderRow()
        case .addQuery: addQueryField()
        case .editQuery: editQueryField()
        case .removeQuery: removeQueryField()
        case .toggleQuery: toggleQueryField()
        case .addParameter:
            let question = addsToAnArray
                ? "Key path from the top (user[roles]), or enter alone for a new element here"
                : "Key (user[address][city] names its place from the top; the type is chosen next)"
            mode = .modal(.prompt(Prompt(.addParameter, title: "Add parameter", question: question)))
        case .editValue:
            let node = parameters.selectedNode
            if node.value.isContainer {
                parameters.setExpanded(!node.isExpanded)
                return []
            }
            mode = .modal(.prompt(Prompt(.editValue, title: "Edit \(node.key.isEmpty ? "value" : node.key)", question: "Value (\(node.value.type.rawValue))", text: Self.editableText(node.value))))
        case .renameParameter:
            mode = .modal(.prompt(Prompt(.renameParameter, title: "Rename", question: "New key", text: parameters.selectedNode.key)))
        case .removeParameter:
            treeEdit { try $0.removeSelected() }
        case .cycleType:
            parameters.cycleSelectedType()
            status = StatusMessage("Type: \(parameters.selectedNode.value.type.rawValue)")
        case .expand: parameters.setExpanded(true)
        case .collapse: parameters.collapseOrSelectParent()
        case .changeProperty: changeProperty(PropertyRow.allCases[propertyList.selected])
        case .resetProperty: resetProperty(PropertyRow.allCases[propertyList.selected])
        case .applyBody: applyBody()
        case .toggleWrap: toggleWrap()
        case .lessonNotes, .nextStep, .previousStep, .lessonHint: performLesson(action)
        case .resetStep: return resetLessonStep()
        case .resetLesson: return resetLesson()
        case .cookieJar: return openCookieJar()
        case .cache: return openCache()
        case .viewInPager: return viewBody(in: .pager)
        case .viewInEditor: return viewBody(in: .editor)
        case .saveBody: promptSaveBody()
        case .filterBody: promptBodyFilter()
        case .scrollLeft: scrollSideways(by: -1)
        case .scrollRight: scrollSideways(by: 1)
        case .bodyKind: pickBodyKind()
        case .graphQLSchema: return introspectSchema()
        case .completeField: completeGraphQLField()
        case .changeAuth: changeAuth()
        case .revealSecrets: toggleSecrets()
        case .addCheck, .addCapture, .editCheck, .removeCheck: performCheck(action)
        case .variables: showVariables()
        case .search, .searchNext, .searchPrevious, .copyPath, .toggleFold, .fold, .unfold, .foldAll, .unfoldAll:
            return performBody(action)
        }
        return []
    }

    /// Whether a plain `a` adds to an array: the selection is one, or an element of one.
    var addsToAnArray: Bool {
        let parent = parameters.selectedNode.value.isContainer ? parameters.selectedNode : nil
        return parent?.value == .array || (parent == nil && parentOfSelectionIsArray)
    }

    private var parentOfSelectionIsArray: Bool {
        let path = parameters.selectedPath
        guard !path.isEmpty else { return false }
        return parameters.root[Array(path.dropLast())].value == .array
    }

    private mutating func treeEdit(_ edit: (inout TreeEditor) throws -> Void) {
        do {
            try edit(&parameters)
        } catch {
            status = StatusMessage("\(error)", .error)
        }
    }

    static func editableText(_ value: TreeValue) -> String {
        switch value {
        case let .string(text): text
        case let .number(text): text
        case let .bool(bool): bool ? "true" : "false"
        default: ""
        }
    }
}
