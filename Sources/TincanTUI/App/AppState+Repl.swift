import Foundation
import OrderedCollections
import TerminalUI
import TincanCore
import TincanSessions

/// The `:` command line while it is open: the text, where in the history it is, and what Tab or
/// the last run had to say.
public struct CommandLineState: Sendable, Equatable {
    public var field = TextField()
    /// The history entry shown, counted from the newest; nil while editing a new line.
    public var historyIndex: Int?
    /// The new line, kept while the history is browsed.
    public var pending = ""
    /// Candidates from the last Tab that had more than one.
    public var completions: [String] = []
    /// Why the last line was not run.
    public var error: String?

    public init() {}
}

extension AppState {
    // MARK: - Keys

    /// Handles a key or paste while the command line is open.
    mutating func handleCommandLine(_ event: InputEvent) -> [Effect] {
        guard var line = commandLine else { return [] }
        switch event {
        case .key(KeyEvent(.escape)):
            mode = .panes
            return []
        case .key(KeyEvent(.enter)):
            let text = line.field.text.trimmingWhitespace()
            if text.isEmpty {
                mode = .panes
                return []
            }
            return runCommandLine(text)
        case .key(KeyEvent(.up)), .key(KeyEvent(.down)):
            browseHistory(&line, older: event == .key(KeyEvent(.up)))
        case .key(KeyEvent(.tab)):
            complete(&line)
        default:
            if line.field.handle(event) {
                line.completions = []
                line.error = nil
                line.historyIndex = nil
            }
        }
        mode = .commandLine(line)
        return []
    }

    private func browseHistory(_ line: inout CommandLineState, older: Bool) {
        guard !replHistory.isEmpty else { return }
        let current = line.historyIndex
        if current == nil { line.pending = line.field.text }
        let next: Int? = older ? min((current ?? -1) + 1, replHistory.count - 1) : (current.flatMap { $0 == 0 ? nil : $0 - 1 })
        line.historyIndex = next
        line.field = TextField(next.map { replHistory[replHistory.count - 1 - $0] } ?? line.pending)
        line.completions = []
    }

    /// Runs a line: parses it, applies it, and records it in the history. A line that fails stays
    /// in the field with the reason under it.
    ///
    /// A line with `key=@file` items first asks the runner to read the files
    /// (``Effect/readFileValues(_:workingDirectory:line:)``), the line staying open; their
    /// values come back to ``fileValuesRead(_:line:)``, which runs it again with them.
    ///
    /// - Parameter fileValues: The files' values, once read.
    mutating func runCommandLine(_ text: String, fileValues: [FileValueRead: ParameterValue]? = nil) -> [Effect] {
        var effects: [Effect] = []
        if replHistory.last != text {
            replHistory.append(text)
            if recordsHistory { effects.append(.recordCommand(keepsSecretsInHistory ? text : ReplCommand.redacted(text))) }
        }
        // Kept so a line that parses but cannot apply (`set timeout 1e17`) stays as typed too.
        let typed = commandLine
        do {
            let command = try ReplCommand.parse(text)
            if fileValues == nil, case let .request(_, _, items) = command {
                let reads = items.compactMap { item -> FileValueRead? in
                    if case let .parameterFromFile(key, path, isJSON) = item { FileValueRead(key: key, path: path, isJSON: isJSON) } else { nil }
                }
                if !reads.isEmpty { return effects + [.readFileValues(reads, workingDirectory: launch.workingDirectory, line: text)] }
            }
            // A line applies whole or not at all: it runs on a copy, which replaces the state
            // only once every part of it has applied (`put /x X-None:` changes neither the
            // method nor the URL when there is no X-None header to remove).
            var applied = self
            applied.mode = .panes
            let produced = try applied.execute(command, line: text, fileValues: fileValues ?? [:])
            self = applied
            effects += produced
            refreshPreview()
        } catch {
            var line = commandLine ?? typed ?? CommandLineState()
            line.error = error.description
            line.historyIndex = nil
            line.completions = []
            mode = .commandLine(line)
        }
        return effects
    }

    // MARK: - Running commands

    /// Takes the runner's reading of a command line's files: the line runs with their values, or
    /// stays with the first failure under it.
    mutating func fileValuesRead(_ outcome: Result<[FileValueRead: ParameterValue], FileWorkFailure>, line: String) -> [Effect] {
        switch outcome {
        case .success(let values):
            return runCommandLine(line, fileValues: values)
        case .failure(let failure):
            refuse(failure.description, to: .commandLine(line), statusPrefix: "Not run")
            return []
        }
    }

    /// Applies a parsed command to the state.
    ///
    /// - Parameters:
    ///   - line: The line as typed, for a refusal that comes back from the runner.
    ///   - fileValues: The values of the line's `key=@file` items, read by the runner.
    /// - Throws: ``ReplError`` when the command is well formed but cannot apply (an unknown theme,
    ///   a file that cannot be read).
    mutating func execute(_ command: ReplCommand, line: String, fileValues: [FileValueRead: ParameterValue]) throws(ReplError) -> [Effect] {
        switch command {
        case let .request(method, url, items):
            // The line is the whole request, as HTTPie reads its items (issue 34 §8): the method,
            // the URL (kept when the line gives none), and the items as the parameters, query
            // and headers; what the line does not name is emptied. The base, the serializer,
            // the credentials and the Props tab stay.
            self.method = method
            if let url { urlField = TextField(url) }
            var root = TreeNode(key: "", value: .object)
            root.isExpanded = true
            parameters = TreeEditor(root: root)
            headers = []
            removedHeaders = []
            query = []
            bodySource = nil
            bodyContentType = nil
            for item in items { try apply(item, fileValues: fileValues) }
            let named = [("parameter", items.count { if case .parameter = $0 { true } else if case .parameterFromFile = $0 { true } else if case .file = $0 { true } else { false } }),
                         ("query field", items.count { if case .query = $0 { true } else { false } }),
                         ("header", items.count { if case .header = $0 { true } else { false } })]
                .map { "\($0.1) \($0.0)\($0.1 == 1 ? "" : "s")" }
            status = StatusMessage("\(method) \(urlField.text): the whole request, \(named.joined(separator: ", ")); send (or ctrl+r) sends it.")
        case let .header(name, value):
            if let value {
                try apply(.header(name: name, value: value), fileValues: [:])
                status = StatusMessage(value.isEmpty ? "\(name) is sent with an empty value." : "\(name): \(Redaction.headerValue(name: name, value: value)) is set.")
            } else {
                try apply(.removeHeader(name: name), fileValues: [:])
                status = StatusMessage("Removed the \(name) row; a default \(name) comes back unless it is turned off in the Headers tab.")
            }
        case let .base(url):
            baseField = TextField(url ?? "")
        case let .url(url):
            urlField = TextField(url)
        case let .set(property, value):
            try setProperty(property, value)
        case let .pin(files, mode):
            workspace.session.defaults.security.pins = files
            workspace.session.defaults.security.pinMode = files.isEmpty ? .certificate : mode
            status = StatusMessage(files.isEmpty ? "No pins: the system's trust roots (or the CA file) decide."
                : "Pinned \(files.count == 1 ? "1 certificate" : "\(files.count) certificates")\(mode == .publicKey ? " by public key" : ""), for every request of the session: \(files.joined(separator: ", ")). F6 saves them under defaults: security: pins:.")
        case let .serializer(kind):
            serializer = kind
        case let .acceptStatus(codes):
            acceptableStatusCodes = codes
        case let .response(kind):
            responseSerializer = kind
        case .send:
            return perform(.send)
        case let .theme(name):
            guard let chosen = themes.theme(named: name) else {
                throw ReplError("there is no theme '\(name)'; expected one of: \(themes.names.joined(separator: ", "))")
            }
            theme = chosen
            status = StatusMessage("Theme: \(chosen.name)")
        case let .environment(name):
            if let name, workspace.session.environments[name] == nil {
                let names = workspace.session.environments.keys
                throw ReplError("there is no environment '\(name)'; " + (names.isEmpty ? "the session defines none" : "expected one of: \(names.joined(separator: ", "))"))
            }
            chooseEnvironment(name ?? Self.noEnvironment)
        case let .save(path):
            if let path {
                if let refusal = answerSaveAs(path) { throw ReplError(refusal) }
            } else {
                save()
            }
        case let .open(path):
            if let refusal = answerOpen(path, asker: .commandLine(line)) { throw ReplError(refusal) }
        case let .clear(target):
            if target != .headers { parameters = TreeEditor(root: TreeNode(key: "", value: .object)) }
            if target != .params { headers = [] }
        case .help:
            let width = ReplCommand.usage.map { TextWidth.of($0.0) }.max() ?? 0
            mode = .modal(.message(Dialog(title: "Commands (: opens the command line)", lines: ReplCommand.usage.map { [Span($0.0.rightPadded(to: width + 2), Style().adding(.bold)), Span($0.1)] }
                + [[], [Span("Items as in tincan send: name=text  name:=json  name==query  Header:value  field@file")]], hint: "esc close")))
        }
        return []
    }

    /// Applies one request item to the panes.
    private mutating func apply(_ item: RequestItem, fileValues: [FileValueRead: ParameterValue]) throws(ReplError) {
        switch item {
        case let .parameter(key, value):
            try insertParameter(key, value)
        case let .parameterFromFile(key, path, isJSON):
            // Read by the runner as `tincan send` reads it, before the line ran again with it.
            guard let value = fileValues[FileValueRead(key: key, path: path, isJSON: isJSON)] else {
                throw ReplError("\(key)@\(path) was not read")
            }
            try insertParameter(key, value)
        case let .query(name, value):
            // Added as the draft adds `name==value` when it builds (as `tincan send` does): escaped,
            // after the query, before a fragment.
            urlField = TextField(RequestDraft.url(urlField.text, addingQuery: [QueryStringPair(field: name, value: value)]))
        case let .header(name, value):
            if let index = headers.firstIndex(where: { HTTPHeaders.same($0.name, name) }) {
                headers[index].value = value
                headers[index].isEnabled = true
            } else {
                headers.append(HeaderRow(name: name, value: value))
            }
        case let .removeHeader(name):
            guard let index = headers.firstIndex(where: { HTTPHeaders.same($0.name, name) }) else {
                throw ReplError("there is no header row named \(name); the table has \(headers.isEmpty ? "none" : headers.map(\.name).joined(separator: ", "))")
            }
            headers.remove(at: index)
        case let .file(field, path, _):
            serializer = .multipart
            try insertParameter(field, .string("@" + path))
        }
    }

    private mutating func insertParameter(_ key: String, _ value: ParameterValue) throws(ReplError) {
        guard case .dictionary(var members) = Self.parameterValue(parameters.root) else {
            throw ReplError("the parameters are an array; items name object members")
        }
        do {
            let path = try ParameterPath(parsing: key)
            // A plain name sets the member (`tags:=["a"]` replaces tags); a nested path such as
            // `tags[]=b` adds to what is there, as on the command line.
            if path.components.count == 1 {
                members[key] = value
            } else {
                try path.insert(value, into: &members)
            }
        } catch {
            throw ReplError("\(error)")
        }
        var root = Self.treeNode(key: "", .dictionary(members))
        root.isExpanded = true
        parameters.replaceRoot(root)
    }

    private mutating func setProperty(_ property: ReplCommand.SetProperty, _ value: String) throws(ReplError) {
        func flag() throws(ReplError) -> Bool {
            switch value.lowercased() {
            case "on", "true", "yes": return true
            case "off", "false", "no": return false
            default: throw ReplError("\(property.word) takes on or off, not '\(value)'")
            }
        }
        switch property {
        case .observed(.timeoutInterval):
            do {
                observed.timeoutInterval = try NumericRange.timeout.value(parsing: value)
            } catch {
                throw ReplError("\(error)")
            }
        case .observed(.cachePolicy):
            guard let policy = CachePolicy(rawValue: value) else { throw ReplError("cache takes one of: \(property.expects)") }
            observed.cachePolicy = policy
        case .observed(.httpShouldHandleCookies): observed.httpShouldHandleCookies = try flag()
        case .observed(.httpShouldUsePipelining): observed.httpShouldUsePipelining = try flag()
        case .observed(.allowsCellularAccess): observed.allowsCellularAccess = try flag()
        case .observed(.networkServiceType):
            guard let type = NetworkServiceType(rawValue: value) else { throw ReplError("service takes one of: \(property.expects)") }
            observed.networkServiceType = type
        case .upload:
            if value.lowercased() == "off" || value == "0" {
                uploadBytesPerSecond = nil
            } else {
                do {
                    uploadBytesPerSecond = try ByteRate.checked(value, range: NumericRange.uploadRate.named("upload"))
                } catch {
                    throw ReplError("\(error) (or off)")
                }
            }
        }
        status = StatusMessage("\(property.word) = \(value)")
    }

    // MARK: - Completion

    /// Header names offered after `header` and for items: common ones, then those in use.
    static let commonHeaderNames = ["Accept", "Accept-Encoding", "Accept-Language", "Authorization", "Cache-Control", "Content-Type", "Cookie",
                                    "If-Match", "If-Modified-Since", "If-None-Match", "Origin", "Range", "Referer", "User-Agent", "X-Request-ID"]

    /// The candidates for the word being typed at the end of `text`.
    func completionCandidates(for text: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let typing = text.hasSuffix(" ") || text.isEmpty ? "" : (words.last ?? "")
        let position = text.hasSuffix(" ") || text.isEmpty ? words.count : words.count - 1
        let command = words.first?.lowercased() ?? ""
        var pool: [String]
        if position == 0 {
            pool = ReplCommand.commandWords
        } else if Self.methods.contains(command.uppercased()) {
            pool = position == 1 && !typing.contains(":") ? usedPaths : headerNames.map { $0 + ":" }
        } else {
            switch (command, position) {
            case ("header", 1): pool = headerNames.map { $0 + ":" }
            case ("serializer", 1): pool = SerializerKind.allCases.map(\.rawValue)
            case ("response", 1): pool = ResponseSerializerKind.allCases.map(\.rawValue)
            case ("theme", 1): pool = themes.names
            case ("env", 1): pool = ["none"] + workspace.session.environments.keys
            case ("clear", 1): pool = ReplCommand.ClearTarget.allCases.map(\.rawValue)
            case ("accept", 1): pool = ["status"]
            case ("set", 1): pool = ReplCommand.properties.map(\.name)
            case ("set", 2): pool = ReplCommand.SetProperty(word: words[1])?.completions ?? []
            case ("url", 1), ("base", 1): pool = usedPaths
            default: pool = []
            }
        }
        var seen = Set<String>()
        return pool.filter { $0.lowercased().hasPrefix(typing.lowercased()) && seen.insert($0).inserted }
    }

    /// Header names: the common ones, then any in the table or the history.
    private var headerNames: [String] {
        Self.commonHeaderNames + headers.map(\.name) + history.flatMap { $0.request.headers.map(\.name) }
    }

    /// URLs and paths already used: the session's requests, the history (newest first), and the URL field.
    private var usedPaths: [String] {
        [urlField.text] + history.reversed().map(\.request.url) + workspace.session.requests.map(\.url)
    }

    private func complete(_ line: inout CommandLineState) {
        let text = line.field.text
        let candidates = completionCandidates(for: text)
        guard !candidates.isEmpty else {
            line.completions = []
            return
        }
        let typedCount = text.hasSuffix(" ") || text.isEmpty ? 0 : (text.split(separator: " ").last?.count ?? 0)
        let stem = String(text.dropLast(typedCount))
        if candidates.count == 1 {
            let word = candidates[0]
            line.field = TextField(stem + word + (word.hasSuffix(":") ? " " : " "))
            line.completions = []
            return
        }
        // Several: complete to what they share, and list them.
        var shared = candidates[0]
        for candidate in candidates.dropFirst() {
            while !candidate.lowercased().hasPrefix(shared.lowercased()) { shared.removeLast() }
        }
        if shared.count > typedCount { line.field = TextField(stem + shared) }
        line.completions = candidates
    }
}
