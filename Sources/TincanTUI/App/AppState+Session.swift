import Foundation
import OrderedCollections
import TerminalUI
import TincanCore
import TincanSessions

extension AppState {
    // MARK: - Panes and the saved request

    /// What the panes hold now.
    var paneValues: PaneValues {
        PaneValues(method: method, serializer: serializer, base: baseField.text, url: urlField.text, headers: headers,
                   removedHeaders: removedHeaders, query: query,
                   parameters: Self.parameterValue(parameters.root), bodySource: bodySource, auth: auth, observed: observed,
                   responseSerializer: responseSerializer, acceptableStatusCodes: acceptableStatusCodes,
                   removesNulls: removesNulls, maxBody: maxBody)
    }

    /// The session with the panes written into the selected request (and the base), without
    /// changing the state.
    public var editedSession: Session {
        var session = workspace.session
        guard let loaded = workspace.loaded, let original = workspace.loadedRequest else { return session }
        let current = paneValues
        session.requests[workspace.selected] = current.merged(into: original, loaded: loaded, defaults: session.defaults.response)
        if current.base != loaded.base {
            let base = current.base.trimmingWhitespace()
            session.base = base.isEmpty ? nil : base
        }
        return session
    }

    /// Writes the panes into the workspace's session.
    mutating func commitPanes() {
        workspace.session = editedSession
    }

    /// Whether the session has changes that are not in its file.
    public var isModified: Bool {
        editedSession != workspace.savedSession
    }

    /// Puts a session into the panes, its first request selected.
    public mutating func open(_ workspace: Workspace) {
        self.workspace = workspace
        self.workspace.loaded = nil
        loadRequest(min(workspace.selected, workspace.session.requests.count - 1), committing: false)
    }

    /// Loads request `index` of the session into the panes, after keeping the panes' edits of the
    /// request they showed.
    public mutating func loadRequest(_ index: Int) {
        loadRequest(index, committing: true)
    }

    mutating func loadRequest(_ index: Int, committing: Bool) {
        if committing {
            if bodyIsDirty, !applyBody() { return }
            commitPanes()
        }
        guard workspace.session.requests.indices.contains(index) else { return }
        let saved = workspace.session.requests[index]
        let values = PaneValues(saved, in: workspace.session)
        workspace.selected = index
        workspace.list.select(index, count: workspace.session.requests.count)
        workspace.loadedRequest = saved
        workspace.loaded = values
        method = values.method
        serializer = values.serializer
        baseField = TextField(values.base)
        urlField = TextField(values.url)
        headers = values.headers
        headerList = ListState()
        removedHeaders = values.removedHeaders
        query = values.query
        queryList = ListState()
        bodySource = values.bodySource
        bodyContentType = nil
        if case .text? = values.bodySource {
            bodyContentType = values.headers.last { $0.isEnabled && HTTPHeaders.same($0.name, "Content-Type") }?.value
        }
        auth = values.auth
        authList = ListState()
        authStash = AuthStash()
        var root = Self.treeNode(key: "", values.parameters)
        root.isExpanded = true
        parameters = TreeEditor(root: root)
        observed = values.observed
        responseSerializer = values.responseSerializer
        acceptableStatusCodes = values.acceptableStatusCodes
        removesNulls = values.removesNulls
        maxBody = values.maxBody
        bodyIsDirty = false
        if requestTab == .body { loadBodyEditor() }
        refreshPreview()
    }

    /// The selected request, resolved with the variables in effect as `tincan replay` would.
    public func resolveCurrent() throws -> ResolvedRequest {
        try resolveSelected(in: editedSession)
    }

    /// The selected request of `session` (the edited session), resolved.
    ///
    /// - Parameter files: Where the session's client certificate comes from: what the runner read
    ///   for the preview, or (for a caller outside `update`) the disk.
    func resolveSelected(in session: Session, files: any RequestFileReader = DiskFileReader()) throws -> ResolvedRequest {
        try session.resolve(workspace.selected, template: try variablesInEffect(), directory: sessionDirectory, file: workspace.path, proxyEnvironment: proxyEnvironment,
                            files: files)
    }

    /// The workspace's variables, `{{$env.NAME}}` read from the environment the app started with.
    func variablesInEffect() throws -> Template {
        try workspace.template(processEnvironment: launch.environment)
    }

    /// The folder of a session file as `Session.directory(of:)` gives it, with the working
    /// directory the app started in for a bare file name.
    static func folder(of path: String, in workingDirectory: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? workingDirectory : folder
    }

    /// `~` or `~/…` as a path in the home folder of the environment the app started with; any
    /// other path as it is.
    func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = launch.environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// Where the session's relative paths are read from (absolute).
    var sessionDirectory: String {
        workspace.directory(in: launch.workingDirectory)
    }

    /// Removes `@path` string members (at any depth of objects) from a multipart parameter tree,
    /// collecting them as file fields named as the command line names them (`a[b]`).
    static func extractFiles(from members: inout OrderedDictionary<String, ParameterValue>, path: [String], into files: inout [(String, String)]) {
        for (key, value) in members {
            let childPath = path + [key]
            switch value {
            case .string(let text) where text.hasPrefix("@") && text.count > 1:
                let field = childPath.enumerated().map { $0.offset == 0 ? $0.element : "[\($0.element)]" }.joined()
                files.append((field, String(text.dropFirst())))
                members.removeValue(forKey: key)
            case .dictionary(var inner):
                extractFiles(from: &inner, path: childPath, into: &files)
                members[key] = .dictionary(inner)
            default:
                break
            }
        }
    }

    // MARK: - The collection

    /// Adds an empty request after the selected one, and selects it.
    mutating func addRequest(_ request: SavedRequest = SavedRequest(url: "")) {
        if bodyIsDirty, !applyBody() { return }
        commitPanes()
        let index = workspace.selected + 1
        workspace.session.requests.insert(request, at: index)
        // A lesson's steps stay on their requests.
        editLessonSteps { step in if step.requestIndex >= index { step.requestIndex += 1 } }
        loadRequest(index, committing: false)
        focus = .url
    }

    /// Removes the request under the collection's cursor (never the last one).
    mutating func removeRequest() {
        guard workspace.session.requests.count > 1 else {
            status = StatusMessage("A session keeps at least one request.", .warning)
            return
        }
        let index = workspace.list.selected
        if let step = workspace.session.lesson?.steps.firstIndex(where: { $0.requestIndex == index }) {
            status = StatusMessage("Step \(step + 1) of the lesson starts from this request, so it stays; edit it instead.", .warning)
            return
        }
        commitPanes()
        let removed = workspace.session.requests.remove(at: index)
        editLessonSteps { step in if step.requestIndex > index { step.requestIndex -= 1 } }
        let next = min(index, workspace.session.requests.count - 1)
        if index == workspace.selected || workspace.selected >= workspace.session.requests.count {
            loadRequest(next, committing: false)
        } else if index < workspace.selected {
            workspace.selected -= 1
        }
        workspace.list.select(next, count: workspace.session.requests.count)
        status = StatusMessage("Removed \(removed.displayName); it is gone from the file when you save.")
    }

    /// Renames the request under the collection's cursor; an empty name removes the name.
    mutating func renameRequest(_ name: String) {
        let index = workspace.list.selected
        let trimmed = name.trimmingWhitespace()
        // A lesson's step that names this request follows it to its new name.
        let named = workspace.session.lesson?.steps.contains { $0.requestIndex == index && $0.requestName != nil } == true
        if named {
            guard !trimmed.isEmpty else {
                status = StatusMessage("A step of the lesson names this request, so it keeps a name.", .warning)
                return
            }
            editLessonSteps { step in if step.requestIndex == index, step.requestName != nil { step.requestName = trimmed } }
        }
        workspace.session.requests[index].name = trimmed.isEmpty ? nil : trimmed
        if index == workspace.selected { workspace.loadedRequest?.name = trimmed.isEmpty ? nil : trimmed }
    }

    // MARK: - Saving and opening

    /// Saves the session to its file, or to `path`; asks for a path when it has none. The runner
    /// writes it (``Effect/saveSession(_:path:overwriting:droppingComments:)``) and its answer
    /// comes to ``sessionSaved(_:at:)``.
    ///
    /// A file with comments that would be dropped is not overwritten: a choice to save elsewhere
    /// or to drop them follows. A file on disk that does not parse is never overwritten.
    ///
    /// - Parameter overwriting: Whether a file already at `path` may be replaced; when not, the
    ///   answer asks first.
    mutating func save(to path: String? = nil, droppingComments: Bool = false, overwriting: Bool = true) {
        if bodyIsDirty, !applyBody() { return }
        guard let target = path ?? workspace.path else {
            promptSaveAs()
            return
        }
        commitPanes()
        queuedEffects.append(.saveSession(workspace.session, path: target, overwriting: overwriting, droppingComments: droppingComments))
    }

    /// Takes the runner's answer to a save: the file as written becomes the saved session, or the
    /// refusal is shown (a question about comments or about a file already there, else the error).
    mutating func sessionSaved(_ outcome: SessionSaveOutcome, at target: String) -> [Effect] {
        let reread: Session
        switch outcome {
        case .saved(let session, let digest):
            reread = session
            workspace.digest = digest
        case .exists:
            mode = .modal(.picker(Picker(.confirmOverwrite(path: target), title: "\((target as NSString).lastPathComponent) exists", options: ["Overwrite it", "Cancel"], selected: "Cancel")))
            return []
        case .failed(let error):
            pendingAfterSave = nil
            switch error {
            case .wouldDropComments(_, let lines):
                mode = .modal(.picker(Picker(.commentConflict(path: target), title: "\((target as NSString).lastPathComponent) has comments (line\(lines.count == 1 ? "" : "s") \(lines.prefix(6).map(String.init).joined(separator: ", "))\(lines.count > 6 ? ", …" : ""))",
                                             options: ["Save as another file…", "Overwrite, dropping the comments", "Cancel"], selected: "")))
            case .existingFileDoesNotParse, .writeFailed:
                status = StatusMessage("Not saved: \(error)", .error)
            }
            return []
        }
        let selected = workspace.selected
        workspace.session = reread
        workspace.savedSession = reread
        workspace.path = target
        workspace.loadedRequest = reread.requests.indices.contains(selected) ? reread.requests[selected] : workspace.loadedRequest
        workspace.loaded = paneValues
        status = StatusMessage("Saved \(reread.requests.count) request\(reread.requests.count == 1 ? "" : "s") to \(target).", .success)
        var effects = rememberTrustAfterSave(target)
        refreshPreview()
        if let next = pendingAfterSave {
            pendingAfterSave = nil
            carryOut(next)
            if shouldQuit { effects.append(.quit) }
        }
        return effects
    }

    /// Asks where to save.
    mutating func promptSaveAs() {
        let suggestion = workspace.path.map { path -> String in
            let name = path.hasSuffix(".tincan.yaml") ? String(path.dropLast(".tincan.yaml".count)) : (path as NSString).deletingPathExtension
            return name + "-copy.tincan.yaml"
        } ?? Self.fileName(for: workspace.displayName)
        mode = .modal(.prompt(Prompt(.saveAs, title: "Save session as", question: "File (.tincan.yaml is added when there is no extension)", text: suggestion)))
    }

    /// A file name for a session name: lower case, words joined with dashes.
    static func fileName(for name: String) -> String {
        let words = name.lowercased().split { !$0.isLetter && !$0.isNumber }
        return (words.isEmpty ? "session" : words.joined(separator: "-")) + ".tincan.yaml"
    }

    /// The path a save-as or open answer names: `~` expanded, `.tincan.yaml` added to a bare name.
    func sessionPath(_ answer: String, addingExtension: Bool) -> String {
        var path = expandingHome(answer.trimmingWhitespace())
        if addingExtension, (path as NSString).pathExtension.isEmpty { path += ".tincan.yaml" }
        return path
    }

    /// Answers the save-as prompt: a refusal to show, or nil when the save was asked for (a file
    /// already there is asked about once the runner answers).
    mutating func answerSaveAs(_ answer: String) -> String? {
        guard !answer.trimmingWhitespace().isEmpty else { return "expected a file name" }
        let path = sessionPath(answer, addingExtension: true)
        closeModal()
        save(to: path, overwriting: path == workspace.path)
        return nil
    }

    /// Answers the open prompt (or the command line's `open`): the reason the answer cannot be
    /// used, or nil when the runner was asked to read the file; its answer comes to
    /// ``sessionOpened(_:at:discardingChanges:asker:)``.
    ///
    /// - Parameter asker: Where a file that does not open is reported.
    mutating func answerOpen(_ answer: String, discardingChanges: Bool = false, asker: Asker) -> String? {
        guard !answer.trimmingWhitespace().isEmpty else { return "expected the path of a .tincan.yaml file" }
        queuedEffects.append(.openSession(path: sessionPath(answer, addingExtension: false), discardingChanges: discardingChanges, asker: asker))
        return nil
    }

    /// Takes the runner's reading of a session file: asks about unsaved changes first, then puts
    /// the session in the panes; a file that did not open is reported where it was asked for.
    mutating func sessionOpened(_ outcome: Result<OpenedSessionFile, FileWorkFailure>, at path: String, discardingChanges: Bool, asker: Asker) {
        let file: OpenedSessionFile
        switch outcome {
        case .success(let read):
            file = read
        case .failure(let failure):
            refuse(failure.description, to: asker, statusPrefix: "Not opened")
            return
        }
        if !discardingChanges, isModified {
            mode = .modal(.picker(Picker(.unsaved(.open(path)), title: "Unsaved changes in \(workspace.displayName)",
                                         options: ["Save, then open \((path as NSString).lastPathComponent)", "Open without saving", "Cancel"], selected: "")))
            return
        }
        closeModal()
        let session = file.session
        var opened = Workspace(session: session, path: path)
        opened.overrides = workspace.overrides
        opened.demo = workspace.demo
        opened.digest = file.digest
        opened.filesOutside = file.filesOutside
        // The lesson belongs to the file it came from.
        lesson = nil
        if previewView == .notes { previewView = .wire }
        open(opened)
        status = StatusMessage("Opened \(path): \(session.requests.count) request\(session.requests.count == 1 ? "" : "s").", .success)
        settleTrust()
        refreshPreview()
    }

    /// Shows why file work was refused where it was asked for: under the prompt (open again, as
    /// it was answered) or on the command line, else in the status line after `statusPrefix`.
    mutating func refuse(_ reason: String, to asker: Asker, statusPrefix: String) {
        switch asker {
        case .prompt(var prompt):
            prompt.error = reason
            mode = .modal(.prompt(prompt))
        case .commandLine(let text):
            var line = CommandLineState()
            line.field = TextField(text)
            line.error = reason
            mode = .commandLine(line)
        case .statusLine:
            status = StatusMessage("\(statusPrefix): \(reason)", .error)
        }
    }

    /// The open prompt, as where a refusal of the work its answer asks for goes.
    var promptAsker: Asker {
        if case .prompt(let prompt)? = modal { .prompt(prompt) } else { .statusLine }
    }

    /// Quits, or first asks about unsaved changes, whether the session has a file or not (the
    /// welcome request's edits are work too).
    mutating func requestQuit() -> [Effect] {
        if bodyIsDirty { _ = applyBody() }
        if isModified {
            let save = workspace.path == nil ? "Save as a file, then quit…" : "Save and quit"
            mode = .modal(.picker(Picker(.unsaved(.quit), title: "Unsaved changes in \(workspace.displayName)",
                                         options: [save, "Quit without saving", "Cancel"], selected: "")))
            status = StatusMessage("ctrl+c again quits without saving.", .warning)
            return []
        }
        shouldQuit = true
        return [.quit]
    }

    /// Does what waited on the unsaved-changes question.
    mutating func carryOut(_ next: Picker.UnsavedFollowUp) {
        switch next {
        case .quit:
            shouldQuit = true
        case .open(let path):
            if let refusal = answerOpen(path, discardingChanges: true, asker: .statusLine) { status = StatusMessage("Not opened: \(refusal)", .error) }
        }
    }

    /// Carries out a choice from the comment, overwrite or unsaved-changes pickers.
    mutating func chooseFileAction(_ option: String, for purpose: Picker.Purpose) -> [Effect] {
        switch purpose {
        case .commentConflict(let path):
            if option.hasPrefix("Save as") { promptSaveAs() }
            if option.hasPrefix("Overwrite") { save(to: path, droppingComments: true) }
            if option == "Cancel" { pendingAfterSave = nil }
        case .confirmOverwrite(let path):
            if option.hasPrefix("Overwrite") { save(to: path, droppingComments: true) }
            if option == "Cancel" { pendingAfterSave = nil }
        case .unsaved(let next):
            if option == "Cancel" { return [] }
            if option.hasPrefix("Save") {
                // With no file yet, a name is asked first; the quit (or open) follows the save's answer.
                pendingAfterSave = next
                save()
                return []
            }
            carryOut(next)
            return shouldQuit ? [.quit] : []
        case .recoverDraft(let draft, _):
            guard option.hasPrefix("Restore") else { return [.discardDraft] }
            workspace.session = draft
            loadRequest(min(workspace.selected, draft.requests.count - 1), committing: false)
            status = StatusMessage("Restored the unsaved changes; F6 saves them.", .success)
        default:
            break
        }
        return []
    }

    // MARK: - Environments

    /// Opens the environment picker.
    mutating func pickEnvironment() {
        let names = Array(workspace.session.environments.keys)
        guard !names.isEmpty else {
            status = StatusMessage("This session defines no environments (environments: in the file).", .warning)
            return
        }
        mode = .modal(.picker(Picker(.environment, title: "Environment", options: [Self.noEnvironment] + names, selected: workspace.environment ?? Self.noEnvironment)))
    }

    static let noEnvironment = "(none: the file's variables)"

    mutating func chooseEnvironment(_ option: String) {
        workspace.environment = option == Self.noEnvironment ? nil : option
        status = StatusMessage(workspace.environment.map { "Environment: \($0)" } ?? "No environment: the file's variables apply.")
    }

    // MARK: - History

    /// Opens the history picker, newest first.
    mutating func pickHistory() {
        guard !history.isEmpty else {
            status = StatusMessage(recordsHistory ? "No history yet: requests appear here once sent." : "History is off (history: false in config.yaml).")
            return
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "MM-dd HH:mm:ss"
        let options = history.reversed().enumerated().map { index, entry in
            let outcome = entry.status.map(String.init) ?? (entry.error == nil ? "—" : "error")
            return "\(String(index + 1).leftPadded(to: 3)) \(formatter.string(from: entry.time))  \(entry.request.method.rightPadded(to: 6)) \(outcome.rightPadded(to: 5)) \(Redaction.url(entry.sentURL))"
        }
        mode = .modal(.picker(Picker(.history, title: "History (\(history.count)) · enter reopens as a new request", options: options, selected: "")))
    }

    /// Reopens history entry `index` (0 is the newest) as a new request of the session.
    mutating func reopenHistory(_ index: Int) {
        let entry = history[history.count - 1 - index]
        var request = entry.request
        request.name = nil
        // The panes first, so the base compared is the one in the Base field now, edited or not.
        if bodyIsDirty, !applyBody() { return }
        commitPanes()
        // A relative URL keeps its meaning only against the base it was sent with.
        if let base = entry.base, base != (workspace.session.base ?? ""), !request.url.contains("://") {
            request.url = URLReference(parsing: request.url).resolved(against: URLReference(parsing: base)).description
        }
        addRequest(request)
        status = StatusMessage("Reopened \(request.method) \(Redaction.url(entry.sentURL)) as request \(workspace.selected + 1).")
    }

    /// The history entry for a finished send. The values the variables view hides (secret
    /// variables, and what `{{$env.NAME}}` reads) are never kept, whatever the history's
    /// redaction setting: the request as written keeps its references.
    func historyEntry(for exchange: Exchange, result: TaskResult, at time: Double) -> HistoryEntry {
        var request = exchange.saved ?? SavedRequest(method: exchange.request.method, url: exchange.request.url.string)
        request.recorded = nil
        let entry = HistoryEntry(time: startedAt.addingTimeInterval(time), session: workspace.session.name ?? workspace.path.map { ($0 as NSString).lastPathComponent },
                                 base: exchange.base, request: request, sentURL: exchange.request.url.string,
                                 status: result.response?.statusCode, duration: result.metrics.total.inSeconds,
                                 error: result.transportError.map { "\($0)" } ?? result.serialization?.error.map { $0.message })
        return entry.hiding(workspace.session.hiddenValues(of: [request], environment: workspace.environment, overrides: workspace.overrides,
                                                           captured: workspace.captured, processEnvironment: launch.environment))
    }

    // MARK: - Copy as curl or code

    /// Opens the copy menu: curl, then each language ``CodeExport`` writes.
    mutating func pickCodeLanguage() {
        let options = ["curl"] + CodeExport.Language.allCases.map(\.title)
        mode = .modal(.picker(Picker(.copyFormat, title: "Copy the request as", options: options, selected: options[0])))
    }

    /// The request in the preview as a curl command, shown and put on the clipboard.
    mutating func copyAsCurl() -> [Effect] {
        guard case .request(let request, _) = preview else {
            if let reason = preview.notReady { status = StatusMessage("Nothing to copy: \(reason)", .error) }
            return []
        }
        let exported = CurlCommand.export(request, resolved: resolved)
        return copied(exported.command, as: "curl", what: "the curl command", warnings: exported.warnings, tool: "curl")
    }

    /// The request in the preview as a program in `language`, shown and put on the clipboard.
    mutating func copyAsCode(_ language: CodeExport.Language) -> [Effect] {
        guard case .request(let request, _) = preview else {
            if let reason = preview.notReady { status = StatusMessage("Nothing to copy: \(reason)", .error) }
            return []
        }
        let exported = CodeExport.export(request, resolved: resolved, as: language)
        return copied(exported.code, as: language.title, what: "the \(language.title) code", warnings: exported.warnings, tool: language.title)
    }

    /// Shows `command` in a dialog (secrets as dots, warnings above it) and copies it whole.
    private mutating func copied(_ command: String, as title: String, what: String, warnings: [String], tool: String) -> [Effect] {
        // Long lines fold at the dialog's width (the clipboard gets them whole).
        let width = max(20, self.width - 10)
        var lines: [StyledLine] = []
        // What the tool will not do as Tincan does is shown above the command, not copied.
        let notes = warnings.map { "# warning: \($0)" }
        // On screen the secrets are dots, as everywhere (a projector shows this dialog); the
        // clipboard gets the command as it runs.
        let shown = hiddenSecrets.hiding(in: command)
        for line in (notes + shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) {
            var rest = Substring(line)
            repeat {
                let piece = TextWidth.prefix(rest, fitting: width)
                lines.append([Span(String(piece))])
                rest = rest.dropFirst(piece.count)
            } while !rest.isEmpty
        }
        mode = .modal(.message(Dialog(title: "Copied as \(title) (OSC 52 clipboard)", lines: lines, hint: "↑↓ scroll · esc close")))
        status = warnings.isEmpty
            ? StatusMessage("Copied \(what) to the clipboard (through the terminal: OSC 52).", .success)
            : StatusMessage("Copied \(what) (OSC 52); \(warnings.count) setting\(warnings.count == 1 ? "" : "s") \(tool) does not carry out as Tincan does, listed in the dialog.", .warning)
        return [.copyToClipboard(command)]
    }
}
