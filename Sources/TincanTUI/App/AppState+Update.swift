import TerminalUI
import TincanCore
import TincanSessions

extension AppState {
    /// Applies a message: the only way the state changes.
    ///
    /// - Returns: The effects to run (sending, the editor, suspending, quitting).
    public mutating func update(_ message: Message) -> [Effect] {
        var effects: [Effect] = []
        // Only input and the editor change the request; core events and ticks (many a second
        // while a body streams) leave the preview as it is.
        var requestMayChange = false
        switch message {
        case let .input(event):
            effects = handle(event)
            requestMayChange = true
        case let .task(id, event, time):
            now = max(now, time)
            guard exchange?.id == id else { break }
            effects = apply(event, at: time)
        case let .sendFailed(id, reason, time):
            now = max(now, time)
            guard exchange?.id == id else { break }
            exchange?.phase = .finished
            status = StatusMessage("Not sent: \(reason)", .error)
        case let .tick(time):
            now = max(now, time)
        case let .editorFinished(text):
            requestMayChange = true
            if requestTab != .body { loadBodyFromParameters() }
            body.text = text
            bodyIsDirty = true
            requestTab = .body
            focus = .body
            applyBody()
        case let .editorFailed(reason):
            status = StatusMessage("$EDITOR did not run: \(reason)", .error)
        case let .historyFailed(reason):
            recordsHistory = false
            status = StatusMessage("History is off for this run: \(reason)", .warning)
        }
        if requestMayChange { refreshPreview() }
        return effects
    }

    // MARK: - Input

    private mutating func handle(_ event: InputEvent) -> [Effect] {
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
        if modal != nil {
            return handleModal(event)
        }
        if commandLine != nil {
            return handleCommandLine(event)
        }
        if search.field != nil {
            handleSearchField(event)
            return []
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

    private mutating func handleInPane(_ event: InputEvent) {
        let viewport = max(1, height / 3)
        switch focus {
        case .collection:
            workspace.list.handle(event, count: workspace.session.requests.count, viewport: max(1, height - 8))
        case .baseURL:
            if baseField.handle(event) { status = nil }
        case .url:
            // A pasted curl command becomes the whole request.
            if case .paste(let text) = event, text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("curl ") {
                loadCurlCommand(text)
                return
            }
            if urlField.handle(event) { status = nil }
        case .body:
            if body.handle(event, pageHeight: viewport) {
                if case .key(let key) = event, [.up, .down, .left, .right, .home, .end, .pageUp, .pageDown].contains(key.key) { break }
                bodyIsDirty = true
            }
        case .headers:
            headerList.handle(event, count: headers.count, viewport: viewport)
        case .parameters:
            parameters.list.handle(event, count: parameters.rows.count, viewport: viewport)
        case .properties:
            propertyList.handle(event, count: PropertyRow.allCases.count, viewport: viewport)
        case .preview:
            previewScroll.handle(event, contentHeight: previewBoxLines(width: ScreenLayout(self).previewBox?.width ?? width).count, viewport: viewport)
        case .response:
            if let document = bodyDocument {
                // Page keys turn the page, as a pager does, rather than only moving the selection.
                if case let .key(key) = event, key.modifiers.isEmpty, key.key == .pageDown || key.key == .pageUp {
                    bodyList.page(key.key == .pageDown ? 1 : -1, count: document.rowCount, viewport: responseViewport)
                } else {
                    bodyList.handle(event, count: document.rowCount, viewport: responseViewport)
                }
            } else {
                responseScroll.handle(event, contentHeight: responseLines.count, viewport: viewport)
            }
        case .method, .serializer:
            break
        }
    }

    private mutating func handleMouse(_ mouse: MouseEvent) {
        let layout = ScreenLayout(self)
        if modal != nil {
            // A click outside the modal closes it.
            if case .press = mouse.action, !(layout.modalFrame?.contains(x: mouse.x, y: mouse.y) ?? true) {
                modal = nil
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
            guard !headers.isEmpty else { return }
            let range = headerList.visibleRange(count: headers.count, viewport: max(1, height / 3))
            headerList.select(range.lowerBound + row, count: headers.count)
        case .parameters:
            parameters.list.select(parameters.list.offset + row, count: parameters.rows.count)
        case .properties:
            propertyList.select(propertyList.offset + row, count: PropertyRow.allCases.count)
        case .collection:
            workspace.list.select(workspace.list.offset + row, count: workspace.session.requests.count)
        default:
            break
        }
    }

    // MARK: - Actions

    mutating func perform(_ action: Action) -> [Effect] {
        switch action {
        case .send: return send()
        case .cancel:
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
            modal = .prompt(Prompt(.openSession, title: "Open session", question: "File (.tincan.yaml)", text: workspace.path.map { Session.directory(of: $0) + "/" } ?? ""))
        case .environment: pickEnvironment()
        case .history: pickHistory()
        case .compare: pickComparison()
        case .copyCurl: return copyAsCurl()
        case .commandLine, .commandLineColon:
            commandLine = CommandLineState()
        case .openRequest:
            loadRequest(workspace.list.selected)
            status = StatusMessage("Request \(workspace.selected + 1) of \(workspace.session.requests.count): \(workspace.session.requests[workspace.selected].displayName)")
        case .addRequest: addRequest()
        case .removeRequest: removeRequest()
        case .renameRequest:
            modal = .prompt(Prompt(.renameRequest, title: "Name the request", question: "Name (empty for none)", text: workspace.session.requests[workspace.list.selected].name ?? ""))
        case .help, .helpQuestion:
            modal = .help(Self.helpDialog(keymap))
        case .focusNext: moveFocus(by: 1)
        case .focusPrevious: moveFocus(by: -1)
        case .nextTab:
            let tabs = RequestTab.allCases
            switchRequestTab(to: tabs[(tabs.firstIndex(of: requestTab)! + 1) % tabs.count])
        case .explain:
            previewView = previewView == .wire ? .explain : .wire
            previewScroll = ScrollState()
            status = StatusMessage(previewView == .explain ? "Explain: why the request looks the way it does, and why the response passed or failed. F9 shows the wire again." : "Preview: the bytes on the wire.")
        case .nextResponseView:
            let views = ResponseView.allCases
            showResponseView(views[(views.firstIndex(of: responseView)! + 1) % views.count])
            responseScroll = ScrollState()
        case .editExternally:
            if requestTab != .body || !bodyIsDirty { loadBodyFromParameters() }
            return [.editExternally(text: body.text, fileExtension: "json")]
        case .cycleTheme:
            theme = themes.theme(after: theme.name)
            status = StatusMessage("Theme: \(theme.name)")
        case .zoom:
            zoomed.toggle()
        case .suspend:
            return [.suspend]
        case .nextChoice: stepChoice(by: 1)
        case .previousChoice: stepChoice(by: -1)
        case .openPicker:
            modal = focus == .method
                ? .picker(Picker(.method, title: "Method", options: Self.methods, selected: method))
                : .picker(Picker(.serializer, title: "Request serializer", options: SerializerKind.allCases.map(\.rawValue), selected: serializer.rawValue))
        case .addHeader:
            modal = .prompt(Prompt(.addHeader, title: "Add header", question: "Name: value"))
        case .editHeader:
            guard headers.indices.contains(headerList.selected) else { return perform(.addHeader) }
            let row = headers[headerList.selected]
            modal = .prompt(Prompt(.editHeader(headerList.selected), title: "Edit header", question: "Name: value", text: "\(row.name): \(row.value)"))
        case .removeHeader:
            guard headers.indices.contains(headerList.selected) else { return [] }
            let removed = headers.remove(at: headerList.selected)
            headerList.select(headerList.selected, count: headers.count)
            status = StatusMessage("Removed \(removed.name).")
        case .toggleHeader:
            guard headers.indices.contains(headerList.selected) else { return [] }
            headers[headerList.selected].isEnabled.toggle()
        case .addParameter:
            let parent = parameters.selectedNode.value.isContainer ? parameters.selectedNode : nil
            if parent?.value == .array || (parent == nil && parentOfSelectionIsArray) {
                treeEdit { try $0.add(key: "") }
                modal = .prompt(Prompt(.editValue, title: "New element", question: "Value (typed as \(parameters.selectedNode.value.type.rawValue); t changes the type)"))
            } else {
                modal = .prompt(Prompt(.addParameter, title: "Add parameter", question: "Key (a string value follows; t changes its type)"))
            }
        case .editValue:
            let node = parameters.selectedNode
            if node.value.isContainer {
                parameters.setExpanded(!node.isExpanded)
                return []
            }
            modal = .prompt(Prompt(.editValue, title: "Edit \(node.key.isEmpty ? "value" : node.key)", question: "Value (\(node.value.type.rawValue))", text: Self.editableText(node.value)))
        case .renameParameter:
            modal = .prompt(Prompt(.renameParameter, title: "Rename", question: "New key", text: parameters.selectedNode.key))
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
        case .search, .searchNext, .searchPrevious, .copyPath, .toggleFold, .fold, .unfold, .foldAll, .unfoldAll:
            return performBody(action)
        }
        return []
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

    private mutating func send() -> [Effect] {
        if let exchange, exchange.phase == .sending {
            status = StatusMessage("A request is already being sent; ctrl+g cancels it.", .warning)
            return []
        }
        if bodyIsDirty {
            guard applyBody() else { return [] }
            refreshPreview()
        }
        guard case let .request(request, _) = preview else {
            if case let .error(reason) = preview { status = StatusMessage("Cannot send: \(reason)", .error) }
            return []
        }
        // The panes' response settings over the resolved request's: one reading of both.
        var sending = resolved ?? ResolvedRequest(draft: RequestDraft(method: request.method, url: request.url.string))
        sending.contract.serializer = responseSerializer
        sending.contract.acceptStatus = acceptableStatusCodes.description
        sending.contract.removesNulls = removesNulls
        sending.contract.maxBody = maxBody
        if let uploadBytesPerSecond { sending.options.uploadBytesPerSecond = uploadBytesPerSecond }
        let options: TaskOptions
        do {
            options = try sending.taskOptions()
        } catch {
            status = StatusMessage("Cannot send: the \(error)", .error)
            return []
        }
        // Before anything is sent: the body would have nowhere to go.
        if let download = options.download {
            do {
                try DownloadDestination.check(download.path)
            } catch {
                status = StatusMessage("Cannot send: \(error)", .error)
                return []
            }
        }
        let id = nextExchangeID
        nextExchangeID += 1
        var exchange = Exchange(id: id, request: request, startedAt: now)
        let session = editedSession
        exchange.saved = session.requests[workspace.selected]
        exchange.base = session.base
        exchange.template = try? workspace.template()
        exchange.responseSerializer = options.responseSerializer
        self.exchange = exchange
        responseScroll = ScrollState()
        status = StatusMessage("Sending \(request.method) \(Redaction.url(request.url.string))…")
        return [.send(exchange: id, request: request, plan: SendPlan(options: options, security: sending.security))]
    }

    mutating func setFocus(_ pane: Pane) {
        if focus == .body, pane != .body, bodyIsDirty { applyBody() }
        if let tab = RequestTab.allCases.first(where: { $0.pane == pane }) { requestTab = tab }
        focus = pane
    }

    private mutating func moveFocus(by delta: Int) {
        var ring = FocusRing(focusOrder)
        ring.focus(focus)
        if delta > 0 { ring.next() } else { ring.previous() }
        setFocus(ring.current)
    }

    private mutating func switchRequestTab(to tab: RequestTab) {
        if requestTab == .body, bodyIsDirty, !applyBody() { return }
        requestTab = tab
        if tab == .body { loadBodyFromParameters() }
        focus = tab.pane
    }

    private mutating func stepChoice(by delta: Int) {
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

    // MARK: - Modals

    private mutating func handleModal(_ event: InputEvent) -> [Effect] {
        guard let current = modal else { return [] }
        let isEscape = event == .key(KeyEvent(.escape))
        switch current {
        case var .help(dialog), var .message(dialog):
            if isEscape || event == .key(KeyEvent(.enter)) || event == .key(.char("q")) || event == .key(KeyEvent(.function(1))) {
                modal = nil
                return []
            }
            dialog.scroll.handle(event, contentHeight: dialog.lines.count, viewport: max(1, height - 6))
            if case .help = current { modal = .help(dialog) } else { modal = .message(dialog) }
        case var .picker(picker):
            if isEscape { modal = nil; return [] }
            if event == .key(KeyEvent(.enter)) {
                modal = nil
                return choose(picker.options[picker.list.selected], at: picker.list.selected, for: picker.purpose)
            }
            picker.list.handle(event, count: picker.options.count, viewport: ScreenLayout.pickerViewport(picker, screenHeight: height))
            modal = .picker(picker)
        case var .prompt(prompt):
            if isEscape { modal = nil; return [] }
            if event == .key(KeyEvent(.enter)) {
                let text = prompt.dialog.field?.text ?? ""
                if let refusal = answer(prompt.purpose, text) {
                    prompt.error = refusal
                    modal = .prompt(prompt)
                } else if case .prompt(let still) = modal, still == prompt {
                    modal = nil
                }
                return []
            }
            prompt.dialog.field?.handle(event)
            prompt.error = nil
            modal = .prompt(prompt)
        }
        return []
    }

    /// Applies a prompt's answer. - Returns: why it was refused, or nil when it was applied.
    private mutating func answer(_ purpose: Prompt.Purpose, _ text: String) -> String? {
        switch purpose {
        case .addHeader, .editHeader:
            let header: HeaderLine
            do throws(HeaderLine.Failure) {
                header = try HeaderLine(parsing: text)
            } catch {
                switch error {
                case .noSeparator: return "expected Name: value"
                case .invalidName(let name): return HeaderLine.invalidNameMessage(name)
                }
            }
            let (name, value) = (header.name, header.value)
            if case let .editHeader(index) = purpose, headers.indices.contains(index) {
                headers[index].name = name
                headers[index].value = value
            } else {
                headers.append(HeaderRow(name: name, value: value))
                headerList.select(headers.count - 1, count: headers.count)
            }
        case .addParameter:
            do {
                try parameters.add(key: text)
            } catch {
                return "\(error)"
            }
            modal = .prompt(Prompt(.editValue, title: "Value of \(text)", question: "Value (string; t on the tree changes the type)"))
        case .editValue:
            do {
                try parameters.setSelectedValue(parameters.selectedNode.value.type, text: text)
            } catch {
                return "\(error)"
            }
        case .renameParameter:
            do {
                try parameters.renameSelected(to: text)
            } catch {
                return "\(error)"
            }
        case .timeout:
            do {
                observed.timeoutInterval = try NumericRange.timeout.value(parsing: text)
            } catch {
                return "\(error)"
            }
        case .acceptableStatusCodes:
            do {
                acceptableStatusCodes = try StatusCodeSet(parsing: text)
            } catch {
                return "\(error)"
            }
        case .uploadLimit:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed == "0" {
                uploadBytesPerSecond = nil
            } else {
                do {
                    uploadBytesPerSecond = try ByteRate.checked(trimmed, range: NumericRange.uploadRate.named("upload"))
                } catch {
                    return "\(error)"
                }
            }
        case .maxBody:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                maxBody = nil
            } else {
                do {
                    _ = try TaskOptions.maximumBodyBytes(parsing: trimmed)
                } catch {
                    return "\(error)"
                }
                maxBody = trimmed
            }
        case .saveAs: return answerSaveAs(text)
        case .openSession: return answerOpen(text)
        case .renameRequest: renameRequest(text)
        }
        return nil
    }

    private mutating func choose(_ option: String, at index: Int, for purpose: Picker.Purpose) -> [Effect] {
        switch purpose {
        case .environment: chooseEnvironment(option)
        case .history: reopenHistory(index)
        case .compareFirst: pickComparison(first: index)
        case let .compareSecond(first):
            // The second list leaves the first out: map its index back.
            showComparison(first, index >= first ? index + 1 : index)
        case .commentConflict, .confirmOverwrite, .unsaved: return chooseFileAction(option, for: purpose)
        case .method: method = option
        case .serializer: serializer = SerializerKind(rawValue: option) ?? serializer
        case .cachePolicy: observed.cachePolicy = CachePolicy(rawValue: option)
        case .networkServiceType: observed.networkServiceType = NetworkServiceType(rawValue: option)
        case .responseSerializer: responseSerializer = ResponseSerializerKind(rawValue: option) ?? responseSerializer
        }
        return []
    }

    // MARK: - Properties

    private mutating func changeProperty(_ row: PropertyRow) {
        let effective = observed.effective
        switch row {
        case .timeout:
            modal = .prompt(Prompt(.timeout, title: "Timeout", question: "Seconds", text: ParameterValue.format(effective.timeoutInterval)))
        case .cachePolicy:
            modal = .picker(Picker(.cachePolicy, title: "Cache policy", options: CachePolicy.allCases.map(\.rawValue), selected: effective.cachePolicy.rawValue))
        case .cookies: observed.httpShouldHandleCookies = !effective.httpShouldHandleCookies
        case .pipelining: observed.httpShouldUsePipelining = !effective.httpShouldUsePipelining
        case .cellular: observed.allowsCellularAccess = !effective.allowsCellularAccess
        case .networkService:
            modal = .picker(Picker(.networkServiceType, title: "Network service type", options: NetworkServiceType.allCases.map(\.rawValue), selected: effective.networkServiceType.rawValue))
        case .responseSerializer:
            modal = .picker(Picker(.responseSerializer, title: "Response serializer", options: ResponseSerializerKind.allCases.map(\.rawValue), selected: responseSerializer.rawValue))
        case .acceptableStatus:
            modal = .prompt(Prompt(.acceptableStatusCodes, title: "Acceptable status codes", question: "Codes, ranges and classes, such as 200-299,304 or 2xx", text: acceptableStatusCodes.description))
        case .removeNulls: removesNulls.toggle()
        case .maxBody:
            modal = .prompt(Prompt(.maxBody, title: "Body kept in memory", question: "Bytes (500k, 256M, 2G), 0 for no limit, empty for the default", text: maxBody ?? ""))
        case .uploadLimit:
            modal = .prompt(Prompt(.uploadLimit, title: "Upload pace", question: "Bytes per second (64k, 1m), empty for full speed", text: uploadBytesPerSecond.map(String.init) ?? ""))
        }
    }

    private mutating func resetProperty(_ row: PropertyRow) {
        switch row {
        case .timeout: observed.timeoutInterval = nil
        case .cachePolicy: observed.cachePolicy = nil
        case .cookies: observed.httpShouldHandleCookies = nil
        case .pipelining: observed.httpShouldUsePipelining = nil
        case .cellular: observed.allowsCellularAccess = nil
        case .networkService: observed.networkServiceType = nil
        case .responseSerializer: responseSerializer = .compound
        case .acceptableStatus: acceptableStatusCodes = .successful
        // Back to what the session's defaults say, which the request then inherits.
        case .removeNulls: removesNulls = workspace.session.defaults.response.removesNulls ?? false
        case .maxBody: maxBody = workspace.session.defaults.response.maxBody
        case .uploadLimit: uploadBytesPerSecond = nil
        }
    }

    // MARK: - Task events

    private mutating func apply(_ event: TaskEvent, at time: Double) -> [Effect] {
        guard var current = exchange else { return [] }
        var effects: [Effect] = []
        switch event {
        case .resumed: current.milestones.append((time, "resumed"))
        case .requestSent: current.milestones.append((time, "request sent"))
        case let .uploadProgress(progress):
            if let note = Self.progressMilestone("upload", from: current.upload.progress, to: progress) { current.milestones.append((time, note)) }
            current.upload.record(progress, at: time)
        case let .responseHead(response): current.milestones.append((time, "response head: \(response.version) \(response.statusCode)"))
        case let .downloadProgress(progress):
            if let note = Self.progressMilestone("download", from: current.download.progress, to: progress) { current.milestones.append((time, note)) }
            current.download.record(progress, at: time)
        case let .redirected(redirect): current.milestones.append((time, "redirected (\(redirect.statusCode)) to \(redirect.to.string)"))
        case let .retried(reason):
            if case let .authentication(scheme, _) = reason { current.milestones.append((time, "retried with \(scheme) authentication")) }
        case let .cache(outcome): current.milestones.append((time, "cache: \(outcome)"))
        case let .completed(result):
            current.result = result
            let outcome = result.transportError.map { "failed: \($0)" }
                ?? "completed: \(result.response.map { "\($0.statusCode)" } ?? "no response"), \(RequestPreview.byteCount(Int64(result.data.count)))"
                + (result.serialization?.error == nil ? "" : ", validation failed")
            current.milestones.append((time, outcome))
            if current.phase == .sending { current.phase = .finished }
            let removesNulls = current.responseSerializer.map(NullRemoval.isOn(in:)) ?? false
            current.prettyBody = BodyFormatter.pretty(result, removesNulls: removesNulls)
            current.rawBody = BodyFormatter.raw(BodyFormatter.displayBytes(result))
            bodyList = ListState()
            search.current = nil
            if let query = search.query { search.matchCount = current.prettyBody.matchCount(query) }
            if let response = result.response, let serializer = current.responseSerializer, let serialization = result.serialization {
                current.validation = Explanation.validation(of: response, data: result.data, request: result.request, serializer: serializer, serialization: serialization)
            }
            status = Self.summary(result)
            if let saved = current.saved, let template = current.template, result.transportError == nil,
               !saved.assertions.isEmpty || !saved.captures.isEmpty {
                let evaluation = ResponseEvaluation(saved, result: result, template: template)
                current.checks = evaluation.checks
                for (name, value) in evaluation.captures { workspace.captured[name] = value }
                status = Self.summary(result, checks: evaluation.checks, captures: evaluation.captures.map(\.name))
            }
            responseView = .pretty
            let entry = historyEntry(for: current, result: result)
            history.append(entry)
            if recordsHistory { effects.append(.recordHistory(entry)) }
            keepSnapshot(of: current, result: result)
            BodyFormatter.releaseDecodedTree(of: &current)
        }
        exchange = current
        // Captured values change what later requests resolve to.
        if case .completed = event { refreshPreview() }
        return effects
    }

    /// A timeline note when a transfer first moves or crosses a quarter of its size.
    static func progressMilestone(_ direction: String, from previous: TransferProgress?, to progress: TransferProgress) -> String? {
        let size = RequestPreview.shortSize(Double(progress.completed))
        guard let expected = progress.expected, expected > 0 else {
            return previous == nil && progress.completed > 0 ? "\(direction) started (length unknown)" : nil
        }
        func quarter(_ bytes: Int64) -> Int64 { min(4, bytes * 4 / expected) }
        let before = previous.map { quarter($0.completed) } ?? -1
        let now = quarter(progress.completed)
        guard now > before, now > 0 || before < 0 else { return nil }
        if now == 0 { return "\(direction) started: \(RequestPreview.shortSize(Double(expected))) expected" }
        return "\(direction) \(now * 25)% (\(size) of \(RequestPreview.shortSize(Double(expected))))"
    }

    /// The status line after a send whose saved request has assertions or captures.
    private static func summary(_ result: TaskResult, checks: [CheckResult], captures: [String]) -> StatusMessage {
        let status = result.response.map { "\($0.statusCode)" } ?? "no response"
        let time = String(format: "%.1f ms", result.metrics.total.inSeconds * 1000)
        let captured = captures.isEmpty ? "" : " · captured \(captures.joined(separator: ", "))"
        if let failed = checks.first(where: { !$0.passed }) {
            let count = checks.count { !$0.passed }
            return StatusMessage("\(status) in \(time): \(count) of \(checks.count) checks failed; \(failed.name): \(failed.failure ?? "")\(captured)", .error)
        }
        return StatusMessage("\(status) in \(time): \(checks.count) check\(checks.count == 1 ? "" : "s") passed\(captured)", .success)
    }

    private static func summary(_ result: TaskResult) -> StatusMessage {
        if let error = result.transportError { return StatusMessage("Transport error: \(error)", .error) }
        guard let response = result.response else { return StatusMessage("No response.", .error) }
        let time = String(format: "%.1f ms", result.metrics.total.inSeconds * 1000)
        if let error = result.serialization?.error {
            return StatusMessage("\(response.statusCode) in \(time): \(error.chain.count == 1 ? "1 validation error" : "\(error.chain.count) validation errors (chained)")", .warning)
        }
        return StatusMessage("\(response.statusCode) \(HTTPResponse.reasonPhrase(forStatusCode: response.statusCode)) in \(time)", .success)
    }
}
