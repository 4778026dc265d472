import ArgumentParser
import Foundation
import TincanCore
import TincanSessions

/// `tincan send [METHOD] URL [ITEM...]`: one request, sent, or printed with `--offline`.
///
/// Every option is declared once, here and in the option groups (SendOptionGroups.swift), and
/// read by swift-argument-parser into typed values; `validate()` refuses what does not go together.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        // Parsed directly (TincanCommand.execute), `send` is its parser's root, and a root
        // first parses the arguments as two commands of the parser's own to see whether they
        // ask for a completion script: 0.5 ms of its start-up, for words that only the root
        // `tincan` takes. A command with a super-command skips that; the name is shown only
        // when the command is the root of its help, which it never is (help goes through
        // `tincan`).
        _superCommandName: "tincan",
        abstract: "Send one request (or print it with --offline), HTTPie's way.",
        usage: "tincan send [METHOD] URL [ITEM...] [OPTIONS]",
        discussion: """
            Examples:
              tincan send :8080/get                 GET http://localhost:8080/get
              tincan send httpbin.org/post name=Ada age:=36     POST: data given
              tincan send -j PUT api.example/items/7 done:=true
              tincan send example.org/file.bin -o file.bin
              tincan send api.example/me -a ann:s3cret | jq .name

            The method is optional: GET, or POST when there is data. On a
            terminal the head, the body and a summary show in colour; into
            a pipe, the body alone (--print chooses the parts).

            Items, as HTTPie's:
              name=value    a text parameter     name:=json   a JSON one
              name==value   a query field        Name:value   a header
              field@path    a multipart file     name=@file   read from a file
              user[name]=x tags[]=a tags[]=b    nested parameters
            Exit: 0 valid, 2 bad input, 3 failed validation, 4 transport error,
            5 not decodable.
            """
    )

    @Argument(help: ArgumentHelp("The method (optional), the URL (absolute, relative to --base, or :PORT/path for localhost), then the items.", valueName: "method-url-items"))
    var words: [String] = []

    /// curl's `-d DATA` (HTTPie's `-d` is its download flag) and `-X METHOD`: not Tincan's, read
    /// only so that `validate()` can say what to write instead of "Unknown option".
    @Option(name: .customShort("d"), help: .hidden)
    var curlData: String?

    @Option(name: .customShort("X"), help: .hidden)
    var curlMethod: String?

    @OptionGroup(title: "Request")
    var request: SendRequestOptions

    @OptionGroup(title: "Authentication")
    var authentication: SendAuthOptions

    @OptionGroup(title: "Output")
    var output: SendOutputOptions

    @OptionGroup(title: "Connection")
    var connection: SendConnectionOptions

    @OptionGroup(title: "TLS")
    var tls: SendTLSOptions

    @OptionGroup(title: "Response validation")
    var response: SendResponseOptions

    /// The positionals read as HTTPie reads them: a method when the first word is one and
    /// another word follows that is not an item, then the URL, then the items.
    var positionals: (method: String?, url: String, items: [String]) {
        get throws {
            guard let first = words.first else {
                // HTTPie's --download is a flag; here it takes the file, so `--download URL` took the URL.
                if let file = output.download, Self.looksLikeURL(file) {
                    throw ValidationError("a URL is missing: --download (-o) takes the FILE to save to, and took '\(file)' as that file; write tincan send URL --download FILE")
                }
                throw ValidationError("a URL is missing: tincan send [METHOD] URL [ITEM...]")
            }
            // A first word that cannot be a URL (no dot, slash or colon) before a word that is
            // not an item is the method, to be checked as one.
            if words.count >= 2, !first.contains(where: { ".:/".contains($0) }), !Self.looksLikeItem(words[1]) {
                return (first, words[1], Array(words.dropFirst(2)))
            }
            if words.count == 1, (HTTPMethod.standard + ["TRACE", "CONNECT"]).contains(first), first == first.uppercased() {
                throw ValidationError("a URL is missing after the method \(first): tincan send [METHOD] URL [ITEM...]")
            }
            return (nil, first, Array(words.dropFirst()))
        }
    }

    /// Whether a word reads as a URL rather than a file name: a scheme, or a host with a port or
    /// a path (`localhost:8080`, `example.org/x`, `:8080/x`).
    static func looksLikeURL(_ word: String) -> Bool {
        if word.contains("://") || word.hasPrefix(":") { return true }
        if word.hasPrefix("/") || word.hasPrefix(".") || word.hasPrefix("~") { return false }
        guard let end = word.firstIndex(where: { "/:".contains($0) }) else { return false }
        let host = word[..<end]
        return host == "localhost" || (host.contains(".") && !host.hasSuffix(".") && word[end] == "/") || word[end] == ":"
    }

    /// Whether a word is a request item (`name=value`, `Name:value`, `field@file`) rather than a
    /// URL: it has an item's separator before any `/` and does not start like a URL.
    static func looksLikeItem(_ word: String) -> Bool {
        if word.hasPrefix("/") || word.hasPrefix(":") || word.hasPrefix(".") || word.contains("://") { return false }
        guard let separator = word.firstIndex(where: { "=:@".contains($0) }) else { return false }
        if let slash = word.firstIndex(of: "/"), slash < separator { return false }
        // host:port is a URL (localhost:8080/x), not a header.
        if word[separator] == ":", word[word.index(after: separator)...].first?.isNumber == true { return false }
        return true
    }

    func validate() throws {
        if curlData != nil {
            throw ValidationError("-d is not an option of tincan send: give the body as items (name=value, name:=JSON, name=@file) or --raw TEXT, as HTTPie does; to save the body to a file, --download FILE")
        }
        if let method = curlMethod {
            throw ValidationError("-X is not an option of tincan send: the method is the first word, as HTTPie takes it (tincan send \(method) URL)")
        }
        _ = try positionals
        if output.explain, output.format == .json { throw ValidationError("--format json does not go with --explain; expected text or markdown") }
        if !output.explain, output.format == .markdown { throw ValidationError("--format markdown is for --explain only; expected text or json") }
        if output.showSecrets, !output.explain { throw ValidationError("--show-secrets is for --explain only") }
        if output.print != nil, output.format == .json { throw ValidationError("--print chooses the parts of the text output; --format json prints them all in one object") }
        if let serializer = request.serializer, let flag = request.serializerFlag, serializer != flag.kind {
            throw ValidationError("--serializer \(serializer.rawValue) and --\(flag.rawValue) ask for different serializers; give one")
        }
        if request.graphql == nil, request.graphqlVariables != nil || request.operationName != nil {
            throw ValidationError("--\(request.graphqlVariables != nil ? "graphql-variables" : "operation-name") belongs to a GraphQL operation; it needs --graphql QUERY")
        }
        if request.graphql != nil, request.upload != nil || request.paramsJSON != nil {
            throw ValidationError("--graphql is the body; it does not go with --\(request.upload != nil ? "upload" : "params-json")")
        }
        if output.continueDownload, output.download == nil { throw ValidationError("--continue resumes a download; it needs --output FILE") }
        if output.download != nil, request.upload != nil { throw ValidationError("--output and --upload cannot go together; send the upload, then download") }
        if output.stream == true, output.download != nil { throw ValidationError("--stream prints the body as it arrives and --output saves it to a file; give one") }
        if connection.retryDelay != nil, connection.retry == nil { throw ValidationError("--retry-delay sets the wait before a retry; it needs --retry N") }
        if tls.clientKey != nil, tls.clientCertificate == nil { throw ValidationError("--key names the private key of a client certificate; it needs --cert FILE") }
        if !connection.follow, let maximum = connection.maxRedirects, maximum > 0 {
            throw ValidationError("--no-follow follows no redirect and --max-redirects \(maximum) follows some; give one")
        }
    }

    /// The serializer `--serializer`, `-j` or `-f` asks for.
    var serializer: SerializerKind { request.serializer ?? request.serializerFlag?.kind ?? .form }

    /// The redirects followed: none with `--no-follow`, else `--max-redirects` or 10.
    var redirects: RedirectPolicy {
        guard connection.follow else { return .doNotFollow }
        return connection.maxRedirects.map(RedirectPolicy.init(maximum:)) ?? .standard
    }
}

extension SendCommand {
    func run() async throws {
        var draft = try makeDraft()
        let serializer = try makeResponseSerializer()
        let jarCookies = try connection.cookies.cookieJar.map(Self.loadCookies)
        // Last of the checks, so that bad input is refused before anything waits on a pipe.
        try readStandardInput(into: &draft)
        let request = try draft.build(boundary: request.boundary)
        let httpVersion = connection.httpVersion?.preference ?? .automatic
        // Checked before --offline returns too: a bad proxy or certificate is an error either way.
        let proxySettings = try makeProxySettings(for: request.url)
        let clientIdentity = try tls.makeClientIdentity()
        let retryPolicy = makeRetryPolicy()
        var out = StandardOutput()
        if output.explain {
            return try writeExplanation(of: draft, request: request, httpVersion: httpVersion, proxy: proxySettings,
                                        clientIdentity: clientIdentity, retryPolicy: retryPolicy, to: &out)
        }
        guard !output.offline else {
            switch output.format {
            case .text, .markdown: try out.write(try RequestPreview.text(request, httpVersion: httpVersion))
            case .json: try RequestJSON.write(request, to: &out)
            }
            try out.flush()
            return
        }

        // Before anything is sent: the body would have nowhere to go.
        if let download = output.download {
            do {
                try DownloadDestination.check(download)
            } catch {
                throw CLIFailure.badInput("--output: \(error)")
            }
        }

        var options = TaskOptions(responseSerializer: serializer)
        options.credential = try digestCredential
        options.uploadFile = uploadPath
        options.uploadBytesPerSecond = self.request.throttle
        options.download = output.download.map { TaskOptions.Download(path: $0, resuming: output.continueDownload) }
        if let limit = connection.maxBody { options.maximumBodyBytes = limit.bytes }
        options.deadline = connection.maxTime
        options.redirects = redirects
        options.proxy = proxySettings
        options.clientIdentity = clientIdentity
        options.httpVersion = httpVersion
        options.retryPolicy = retryPolicy
        options.oauth2 = try authentication.oauth2Authorization
        if let limit = connection.maxHeaderSize { options.maximumHeaderBytes = limit }
        let presentation = SendPresentation(output, terminal: isatty(STDOUT_FILENO) == 1)
        let printer = streamSelection.map { selection in
            let printer = StreamPrinter(format: output.format, pretty: presentation.formats && presentation.terminal)
            options.stream = printer.options(selection)
            return printer
        }
        let manager: URLSessionManager
        do {
            let policy = try tls.makeSecurityPolicy()
            // What weakens trust is said before anything is sent (issue 36 §7).
            for weakening in policy.weakenings where weakening.isUnsafe { StandardError.warn("\(weakening)") }
            // One request: its task runs on the transport's thread, with no hop between threads.
            manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: self.request.base), securityPolicy: policy, scheduling: .transportLoop)
        } catch let error as SecurityPolicyError {
            throw CLIFailure.badInput("\(error)")
        }
        if let jarCookies { manager.cookieJar.insert(jarCookies) }
        let task: SessionTask
        do {
            task = try manager.task(with: request, options: options)
        } catch let error as SecurityPolicyError {
            try? await manager.invalidate(cancelingTasks: true)
            throw CLIFailure.badInput("--pin: \(error)")
        }
        // A stream prints as it goes: a progress line would cut into it.
        let progress = isatty(STDERR_FILENO) == 1 && printer == nil ? ProgressLine() : nil
        let watcher = Task {
            for await event in task.events { progress?.show(event) }
        }
        task.resume()
        let result = await task.result()
        _ = await watcher.value
        progress?.clear()
        try? await manager.invalidate(cancelingTasks: true)

        if let failure = printer?.failure { throw failure }
        switch output.format {
        case .text where result.stream != nil: StandardError.print(ResponseReport.text(result))
        case .text, .markdown: try ResponseReport.write(result, presentation: presentation, to: &out)
        case .json: try ResponseReport.json(result, to: &out)
        }
        try out.flush()
        if let cookieJar = connection.cookies.cookieJar {
            do {
                try CookieFile.save(manager.cookieJar, to: cookieJar)
            } catch {
                throw CLIFailure.writeFailed(error)
            }
        }
        let code = ResponseReport.exitCode(result)
        if code != .success { throw ExitCode(code.rawValue) }
    }

    /// Which bodies are printed as they arrive: every one with `--stream` (event streams and
    /// lines only with `--format json`), event streams on a terminal by default, none with
    /// `--no-stream`.
    var streamSelection: StreamOptions.Selection? {
        if output.stream == true { return output.format == .json ? .eventStreamsAndLines : .every }
        return output.stream == false || output.download != nil || isatty(STDOUT_FILENO) != 1 ? nil : .eventStreams
    }

    /// The credential for challenges: with `--auth-type digest`, `--user` is not sent up front.
    var digestCredential: Credential? {
        get throws {
            guard authentication.authType == .digest, let user = authentication.user else { return nil }
            let credentials = try authentication.credentials(from: user)
            return Credential(user: credentials.user, password: credentials.password)
        }
    }

    /// The proxy settings `--proxy`, `--noproxy`, `--proxytunnel` and the environment give,
    /// checked against the first request's URL.
    func makeProxySettings(for url: URLReference) throws -> ProxySettings {
        var settings = try connection.route.settings(checking: url)
        settings.tunnelsPlainHTTP = connection.proxyTunnel
        return settings
    }

    /// An encrypted key's passphrase: `TINCAN_KEY_PASSPHRASE`, else asked on a terminal; nil for a
    /// key that is not encrypted, or when there is neither (loading then says how to give one).
    static func passphrase(forKey path: String) -> String? {
        guard ClientIdentity.keyIsEncrypted(atPath: path) else { return nil }
        if let value = ProcessEnvironment.values[ClientIdentity.passphraseVariable] { return value }
        guard isatty(STDIN_FILENO) == 1, let typed = getpass("Passphrase for \(path): ") else { return nil }
        return String(cString: typed)
    }

    /// The size of a regular file, or nil when `path` is not one.
    static func regularFileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// The number `text` gives in `range`, or a bad-input failure naming the option.
    static func checked(_ text: String, _ range: NumericRange) throws -> Double {
        do {
            return try range.value(parsing: text)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
    }

    /// The retry policy `--retry` and `--retry-delay` ask for, or nil for none.
    func makeRetryPolicy() -> RetryPolicy? {
        guard let retry = connection.retry else { return nil }
        return RetryPolicy(limit: retry, delay: connection.retryDelay ?? RetryPolicy.defaultDelay)
    }

    /// The response serializer the options ask for.
    func makeResponseSerializer() throws -> any ResponseSerializer {
        let types = response.acceptType.map { Set($0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }) }
        var serializer = (response.responseSerializer ?? (request.graphql != nil ? .graphql : .compound)).makeSerializer()
        if let statuses = response.acceptStatus { serializer.acceptableStatusCodes = statuses }
        if let types { serializer.acceptableContentTypes = types }
        return response.removeNulls ? NullRemoval.applied(to: serializer) : serializer
    }

    /// Turns the arguments into a draft, naming the argument at fault on bad input. With no
    /// method given, it is GET, or POST when the draft has a body (HTTPie's rule); standard input
    /// read as the body makes it POST later, in ``readStandardInput(into:)``.
    func makeDraft() throws -> RequestDraft {
        let (method, url, items) = try positionals
        if let method, !HTTPMethod.isValid(method) {
            throw CLIFailure.badInput("METHOD '\(method)' is not a method; expected GET, HEAD, POST, PUT, PATCH, DELETE or another token")
        }
        var draft = RequestDraft(method: method.map(HTTPMethod.normalize) ?? "GET", url: url, baseURL: request.base)
        draft.serializer = serializer
        if let paramsJSON = request.paramsJSON {
            do {
                draft.parameters = try JSONParser.parse(paramsJSON)
            } catch {
                throw CLIFailure.badInput("--params-json is not valid JSON: \(error)")
            }
        }
        draft.items = try items.map { text in
            do {
                return try RequestItem.parse(text)
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        draft.items = try request.header.items() + draft.items
        if let timeout = connection.timeout { draft.observed.timeoutInterval = timeout }
        if let user = authentication.user, authentication.authType == .basic {
            draft.credentials = try authentication.credentials(from: user)
        }
        if request.upload != nil {
            if let uploadPath {
                do {
                    _ = try RequestBody.sendableFileLength(atPath: uploadPath)
                } catch {
                    throw CLIFailure.badInput("--upload: \(error)")
                }
            }
            draft.upload(fromFile: uploadPath ?? RequestDraft.standardInputPath)
        }
        if let query = request.graphql { draft.body = .graphql(try graphQLOperation(query)) }
        if method == nil, draft.hasBodyItems || request.upload != nil { draft.method = "POST" }
        return draft
    }

    /// The GraphQL operation `--graphql`, `--graphql-variables` and `--operation-name` say.
    private func graphQLOperation(_ query: String) throws -> GraphQLQuery {
        var operation = GraphQLQuery(query: query, operationName: request.operationName)
        if let text = request.graphqlVariables {
            let variables: ParameterValue
            do {
                variables = try JSONParser.parse(text)
            } catch {
                throw CLIFailure.badInput("--graphql-variables is not valid JSON: \(error)")
            }
            if let problem = GraphQLQuery.variablesProblem(variables) { throw CLIFailure.badInput("--graphql-variables: \(problem)") }
            operation.variables = variables
        }
        return operation
    }

    // MARK: - Standard input as the body (issue 18 §7)

    /// The file `--upload` streams from disk: nil for none, or for `-` and `@-`, which send
    /// standard input (read whole, within ``StandardInput/limit``) as curl's `-T -` does.
    var uploadPath: String? {
        guard let upload = request.upload, upload != RequestDraft.standardInputPath, upload != "@" + RequestDraft.standardInputPath else { return nil }
        return upload
    }

    /// The cookies of `--cookie-jar FILE` (none when it does not exist yet), checked before
    /// anything is sent: a malformed line is exit 2 naming FILE:LINE, and the file is left as it is.
    static func loadCookies(from path: String) throws -> [Cookie] {
        do {
            // Where the jar will be written, checked now: a link to nothing would fail only after sending.
            _ = try AtomicFile.resolvingLinks(path)
        } catch {
            throw CLIFailure.badInput("--cookie-jar: \(error)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        if !folder.isEmpty, stat(folder, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
            throw CLIFailure.badInput("--cookie-jar \(path): the folder \(folder) does not exist; expected a file in an existing folder")
        }
        do {
            return try CookieFile.load(from: path)
        } catch {
            throw CLIFailure.badInput("--cookie-jar \(error)")
        }
    }

    /// Reads standard input when the draft asks for it: once for the one item (or `--upload -`)
    /// that reads `-`, or, by HTTPie's rule, as the raw body when nothing else gives one and
    /// `--ignore-stdin` is not set (which makes a request with no method given a POST). A
    /// terminal is never read, and an empty input sends no body.
    func readStandardInput(into draft: inout RequestDraft) throws {
        let readers = draft.standardInputReaders.map { $0 == RequestDraft.rawBodyReader ? "--upload \(request.upload ?? "-")" : $0 }
        if readers.count > 1 {
            throw CLIFailure.badInput("standard input can be read once, but \(readers.joined(separator: " and ")) all read it")
        }
        if let reader = readers.first {
            if request.ignoreStdin {
                throw CLIFailure.badInput("--ignore-stdin: '\(reader)' reads standard input")
            }
            guard let bytes = try StandardInput.current.read() else {
                throw CLIFailure.badInput("'\(reader)' reads standard input, which is a terminal; redirect or pipe the body in")
            }
            draft.standardInput = bytes
            return
        }
        guard !request.ignoreStdin, !draft.hasBodyItems, let bytes = try StandardInput.current.read(), !bytes.isEmpty else { return }
        draft.body = .bytes(bytes)
        if let words = try? positionals, words.method == nil { draft.method = "POST" }
    }

    // MARK: -
}

/// The output formats of `send`.
enum OutputFormat: String, OptionWord {
    case text
    case json
    /// Only with `--explain` (a handout); refused otherwise.
    case markdown
}

/// How `--user` is used: sent with the first request, or kept for a Digest challenge.
enum AuthType: String, OptionWord {
    case basic
    case digest
    /// A bearer token obtained through `--grant`.
    case oauth2
}

/// `--pin-mode` takes the words a session's `pin-mode:` takes.
extension SessionKey.PinMode: OptionWord {}

extension TLSMinimum: OptionWord {}

extension SerializerKind: OptionWord {}
extension ResponseSerializerKind: OptionWord {}
