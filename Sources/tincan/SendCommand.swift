import ArgumentParser
import Foundation
import TincanCore
import TincanSessions

/// `tincan send [options] METHOD URL [ITEM...]`.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Build one request and send it, or print it with --offline.",
        discussion: """
            Items follow HTTPie's conventions:
              name=value        a string parameter        name:=json   a raw JSON parameter
              name==value       a query-string field      Name:value   a header (Name: removes it)
              field@path        a multipart file          name=@file   a parameter read from a file
            Nested names build nested parameters: user[name]=x tags[]=a tags[]=b.
            """
    )

    @Argument(help: "The method: GET, HEAD, POST, PUT, PATCH, DELETE or any other token.")
    var method: String

    @Argument(help: "The URL: absolute, or relative to --base. Without --base, ':8080/x' means http://localhost:8080/x.")
    var url: String

    @Argument(help: "Request items (see above).")
    var items: [String] = []

    @Option(help: "The session manager's base URL, which URL resolves against.")
    var base: String?

    @Option(help: "How parameters become a body: form, json, plist or multipart.")
    var serializer: SerializerKind = .form

    @Option(name: .customLong("params-json"), help: "The parameters as one JSON value, with its exact nested structure.")
    var paramsJSON: String?

    @Option(name: .customShort("H"), help: "A per-request header 'Name: value'; it replaces a default of the same name. Repeatable.")
    var headers: [String] = []

    @Option(help: "The request timeout in seconds (0.001 to 2147483).")
    var timeout: String?

    @Option(name: .customLong("max-time"), help: "The most seconds the whole request may take, redirects and challenges included (as curl's --max-time; 0.001 to 2147483). Default: no limit.")
    var maxTime: String?

    @Option(help: ArgumentHelp("Retry a transient failure up to N times (0 to 100): statuses 408, 429, 500, 502, 503, 504, and a connection refused, reset or timed out, for GET, HEAD, PUT, DELETE, OPTIONS and TRACE; with exponential backoff and jitter, and Retry-After honoured up to 30 s.", valueName: "N"))
    var retry: String?

    @Option(name: .customLong("retry-delay"), help: ArgumentHelp("With --retry, the first retry's backoff in seconds (0 to 3600; default 0.5), doubled for each retry after it.", valueName: "SECONDS"))
    var retryDelay: String?

    @Option(name: .customLong("max-redirects"), help: "The most redirects followed (0 to 1000; 0 follows none and shows the redirect). Default: 10.")
    var maxRedirects: String?

    @Flag(name: .customLong("http1.1"), help: "Speak HTTP/1.1 only, even to a server that offers HTTP/2.")
    var http1_1 = false

    @Flag(name: .customLong("http2"), help: "Ask for HTTP/2 (over TLS; the server may still choose HTTP/1.1). Default: HTTP/2 over TLS when the server agrees.")
    var http2 = false

    @Option(help: "Credentials as name:password (name alone asks for the password on a terminal).")
    var user: String?

    @Option(name: .customLong("auth-type"), help: "basic sends --user with the first request; digest answers the server's challenge.")
    var authType: AuthType = .basic

    @Option(help: "Stream the response body to FILE (through FILE.part, renamed when complete) instead of printing it.")
    var download: String?

    @Flag(name: .customLong("continue"), help: "With --download, resume FILE.part with a Range request (a 200 starts again).")
    var continueDownload = false

    @Option(help: "Send FILE as the body, streamed from disk (as curl -T).")
    var upload: String?

    @Option(help: "Limit the upload rate, in bytes per second (k, M and G suffixes; 1 to 1T), so progress can be watched.")
    var throttle: String?

    @Option(name: .customLong("max-body"), help: "The most response-body bytes kept in memory (k, M and G suffixes; default 256M, 0 for no limit). Larger bodies fail with exit 4; --download has no limit.")
    var maxBody: String?

    @Option(name: .customLong("ca-file"), help: "Trust the CA certificates in this PEM file instead of the system's.")
    var caFile: String?

    @Option(help: "Pin a certificate (PEM or DER file); only chains ending at a pinned certificate are trusted. Repeatable.")
    var pin: [String] = []

    @Option(name: .customLong("pin-mode"), help: "What --pin pins: certificate or public-key.")
    var pinMode: SessionKey.PinMode = .certificate

    @Flag(help: "Do not verify certificates (TLS stays encrypted, but anyone can pose as the server).")
    var insecure = false

    @Option(name: .customLong("cert"), help: ArgumentHelp("Present this client certificate (PEM; it may hold the key too) to servers that ask for one (mutual TLS).", valueName: "FILE"))
    var clientCertificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("The client certificate's private key (PEM). An encrypted key's passphrase is asked on a terminal, else read from TINCAN_KEY_PASSPHRASE.", valueName: "FILE"))
    var clientKey: String?

    @Option(help: ArgumentHelp("Send through this proxy: [http://|socks5://|socks5h://][user:password@]host[:port] (port 1080 by default); '' for none, whatever the environment says.", valueName: "URL"))
    var proxy: String?

    @Option(help: ArgumentHelp("Hosts reached without the proxy: comma-separated names (matching their subdomains too), IP addresses or CIDR ranges, or *; replaces NO_PROXY, and '' proxies every host.", valueName: "LIST"))
    var noproxy: String?

    @Option(help: "Output format: text (the wire form) or json; with --explain, text or markdown.")
    var format: OutputFormat = .text

    @Flag(help: "Print the request that would be sent, without sending it.")
    var offline = false

    @Flag(help: "Print why the request looks as it does (the TUI's Explain view), without sending it; --format markdown for handouts.")
    var explain = false

    @Flag(name: .customLong("show-secrets"), help: "With --explain, show secret header values, passwords and query fields instead of hiding them.")
    var showSecrets = false

    @Option(help: "A fixed multipart boundary, for reproducible output.")
    var boundary: String?

    @Option(name: .customLong("response-serializer"), help: "How the response is validated and decoded: http, json, xml, plist, image or compound.")
    var responseSerializer: ResponseSerializerKind = .compound

    @Option(name: .customLong("accept-status"), help: "Acceptable status codes, such as 200-299,304 or 2xx.")
    var acceptStatus: String?

    @Flag(name: .customLong("remove-nulls"), help: "Remove object members whose value is null from decoded JSON (with the json and compound serializers).")
    var removeNulls = false

    @Option(name: .customLong("accept-type"), help: "Acceptable content types, comma-separated (replaces the serializer's own).")
    var acceptType: String?

    // MARK: - Standard input as the body (issue 18 §7)

    @Flag(name: .customLong("ignore-stdin"), help: "Do not send standard input as the body when no body items are given (as HTTPie's --ignore-stdin).")
    var ignoreStdin = false

    // MARK: - Streaming responses (issue 18 §4)

    @Flag(help: "Print the response body as it arrives: server-sent events and NDJSON lines one by one (JSON Lines with --format json), any other body as its bytes (as curl -N). The head and the summary go to standard error. Default for text/event-stream when standard output is a terminal.")
    var stream = false

    @Flag(name: .customLong("no-stream"), help: "Keep a text/event-stream body whole and print it at the end, even on a terminal.")
    var noStream = false

    // MARK: - Cookies kept across runs (issue 18 §6)

    @Option(name: .customLong("cookie-jar"), help: "Read cookies from FILE before the request and write them back after it (mode 0600), in the Netscape format curl's -b and -c share.")
    var cookieJar: String?

    // MARK: -

    func run() async throws {
        try await options.run()
    }

    /// The options as plain values, which `run` reads (every check is made there, not in a
    /// `validate()`, which the direct reading would not call); `parsedDirectly` gives the same for a
    /// usual command line without the parser (SendCommand+DirectParse).
    var options: SendOptions {
        SendOptions(
            method: method,
            url: url,
            items: items,
            base: base,
            serializer: serializer,
            paramsJSON: paramsJSON,
            headers: headers,
            timeout: timeout,
            maxTime: maxTime,
            retry: retry,
            retryDelay: retryDelay,
            maxRedirects: maxRedirects,
            http1_1: http1_1,
            http2: http2,
            user: user,
            authType: authType,
            download: download,
            continueDownload: continueDownload,
            upload: upload,
            throttle: throttle,
            maxBody: maxBody,
            caFile: caFile,
            pin: pin,
            pinMode: pinMode,
            insecure: insecure,
            clientCertificate: clientCertificate,
            clientKey: clientKey,
            proxy: proxy,
            noproxy: noproxy,
            format: format,
            offline: offline,
            explain: explain,
            showSecrets: showSecrets,
            boundary: boundary,
            responseSerializer: responseSerializer,
            acceptStatus: acceptStatus,
            removeNulls: removeNulls,
            acceptType: acceptType,
            ignoreStdin: ignoreStdin,
            stream: stream,
            noStream: noStream,
            cookieJar: cookieJar
        )
    }
}

/// What one `tincan send` was asked: `SendCommand`'s options as plain values, with the same
/// defaults, and what is done with them.
struct SendOptions: Equatable {
    var method: String
    var url: String
    var items: [String] = []
    var base: String?
    var serializer: SerializerKind = .form
    var paramsJSON: String?
    var headers: [String] = []
    var timeout: String?
    var maxTime: String?
    var retry: String?
    var retryDelay: String?
    var maxRedirects: String?
    var http1_1 = false
    var http2 = false
    var user: String?
    var authType: AuthType = .basic
    var download: String?
    var continueDownload = false
    var upload: String?
    var throttle: String?
    var maxBody: String?
    var caFile: String?
    var pin: [String] = []
    var pinMode: SessionKey.PinMode = .certificate
    var insecure = false
    var clientCertificate: String?
    var clientKey: String?
    var proxy: String?
    var noproxy: String?
    var format: OutputFormat = .text
    var offline = false
    var explain = false
    var showSecrets = false
    var boundary: String?
    var responseSerializer: ResponseSerializerKind = .compound
    var acceptStatus: String?
    var removeNulls = false
    var acceptType: String?
    var ignoreStdin = false
    var stream = false
    var noStream = false
    var cookieJar: String?
}

extension SendOptions {
    func run() async throws {
        try checkExplainFormat()
        var draft = try makeDraft()
        // Checked before --offline returns, so a bad rate is an error whether or not it is used.
        let uploadBytesPerSecond = try throttle.map(Self.rate)
        let serializer = try makeResponseSerializer()
        let bodyLimit = try maxBody.map(Self.bodyLimit)
        let deadline = try maxTime.map { try Self.checked($0, NumericRange.deadline.named("--max-time")) }
        let redirects = try maxRedirects.map { RedirectPolicy(maximum: Int(try Self.checked($0, NumericRange.redirects.named("--max-redirects")))) }
        if http1_1, http2 { throw CLIFailure.badInput("--http1.1 and --http2 ask for different versions; give one") }
        let httpVersion: HTTPVersionPreference = http1_1 ? .http1_1 : http2 ? .http2 : .automatic
        let jarCookies = try cookieJar.map(Self.loadCookies)
        let retryPolicy = try makeRetryPolicy()
        // Last of the checks, so that bad input is refused before anything waits on a pipe.
        try readStandardInput(into: &draft)
        let request = try draft.build(boundary: boundary)
        // Checked before --offline returns too: a bad proxy or certificate is an error either way.
        let proxySettings = try makeProxySettings(for: request.url)
        let clientIdentity = try makeClientIdentity()
        var output = StandardOutput()
        if explain {
            return try writeExplanation(of: draft, request: request, httpVersion: httpVersion, proxy: proxySettings,
                                        clientIdentity: clientIdentity, retryPolicy: retryPolicy, to: &output)
        }
        guard !offline else {
            switch format {
            case .text, .markdown: try output.write(try RequestPreview.text(request, httpVersion: httpVersion))
            case .json: try RequestJSON.write(request, to: &output)
            }
            try output.flush()
            return
        }

        // Before anything is sent: the body would have nowhere to go.
        if let download {
            do {
                try DownloadDestination.check(download)
            } catch {
                throw CLIFailure.badInput("--download: \(error)")
            }
        }

        var options = TaskOptions(responseSerializer: serializer)
        options.credential = try digestCredential
        options.uploadFile = uploadPath
        options.uploadBytesPerSecond = uploadBytesPerSecond
        options.download = download.map { TaskOptions.Download(path: $0, resuming: continueDownload) }
        if let bodyLimit { options.maximumBodyBytes = bodyLimit }
        options.deadline = deadline
        if let redirects { options.redirects = redirects }
        options.proxy = proxySettings
        options.clientIdentity = clientIdentity
        options.httpVersion = httpVersion
        options.retryPolicy = retryPolicy
        let printer = try streamSelection.map { selection in
            let printer = StreamPrinter(format: format, pretty: isatty(STDOUT_FILENO) == 1)
            options.stream = printer.options(selection)
            return printer
        }
        let manager: URLSessionManager
        do {
            // One request: its task runs on the transport's thread, with no hop between threads.
            manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: base), securityPolicy: try makeSecurityPolicy(), scheduling: .transportLoop)
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
        switch format {
        case .text where result.stream != nil: StandardError.print(ResponseReport.text(result))
        case .text, .markdown: try ResponseReport.write(result, to: &output)
        case .json: try ResponseReport.json(result, to: &output)
        }
        try output.flush()
        if let cookieJar {
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
        get throws {
            if stream, noStream { throw CLIFailure.badInput("--stream and --no-stream contradict each other; give one") }
            if stream, download != nil { throw CLIFailure.badInput("--stream prints the body as it arrives and --download saves it to a file; give one") }
            if stream { return format == .json ? .eventStreamsAndLines : .every }
            return noStream || download != nil || isatty(STDOUT_FILENO) != 1 ? nil : .eventStreams
        }
    }

    /// The credential for challenges: with `--auth-type digest`, `--user` is not sent up front.
    var digestCredential: Credential? {
        get throws {
            guard authType == .digest, let user else { return nil }
            let credentials = try credentials(from: user)
            return Credential(user: credentials.user, password: credentials.password)
        }
    }

    /// The security policy the TLS options ask for.
    func makeSecurityPolicy() throws -> SecurityPolicy {
        let mode = pinMode.mode
        var policy = pin.isEmpty ? SecurityPolicy.default : SecurityPolicy(pinningMode: mode, pinnedCertificates: try pin.flatMap {
            do {
                return try SecurityPolicy.certificates(inFile: $0)
            } catch {
                throw CLIFailure.badInput("--pin \(error)")
            }
        })
        policy.caFile = caFile
        policy.allowInvalidCertificates = insecure
        return policy
    }

    /// The proxy settings `--proxy`, `--noproxy` and the environment give, checked against the
    /// first request's URL so that a proxy variable that cannot be used is bad input too.
    func makeProxySettings(for url: URLReference) throws -> ProxySettings {
        let settings: ProxySettings
        do {
            settings = try ProxySettings(proxy: proxy, noProxy: noproxy)
        } catch {
            throw CLIFailure.badInput("--proxy \(error)")
        }
        do {
            _ = try settings.route(to: url)
        } catch {
            throw CLIFailure.badInput("proxy variable \(error)")
        }
        return settings
    }

    /// The client certificate `--cert` and `--key` give, read and checked now.
    func makeClientIdentity() throws -> ClientIdentity? {
        guard let certificate = clientCertificate else {
            if clientKey != nil { throw CLIFailure.badInput("--key names the private key of a client certificate; it needs --cert FILE") }
            return nil
        }
        do {
            return try ClientIdentity.load(certificate: certificate, key: clientKey, passphrase: Self.passphrase(forKey: clientKey ?? certificate))
        } catch {
            throw CLIFailure.badInput("\(error.role.rawValue): \(error)")
        }
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

    /// Bytes per second from `200000`, `200k` or `1.5M`.
    static func rate(_ text: String) throws -> Int {
        do {
            return try ByteRate.checked(text, range: NumericRange.uploadRate.named("--throttle"))
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
    }

    /// The number `text` gives in `range`, or a bad-input failure naming the option.
    static func checked(_ text: String, _ range: NumericRange) throws -> Double {
        do {
            return try range.value(parsing: text)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
    }

    /// The in-memory body limit `--max-body` gives: nil (no limit) for 0.
    static func bodyLimit(_ text: String) throws -> Int64? {
        do {
            return try TaskOptions.maximumBodyBytes(parsing: text, name: "--max-body")
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
    }

    /// The retry policy `--retry` and `--retry-delay` ask for, or nil for none.
    func makeRetryPolicy() throws -> RetryPolicy? {
        guard let retry else {
            if retryDelay != nil { throw CLIFailure.badInput("--retry-delay sets the wait before a retry; it needs --retry N") }
            return nil
        }
        let limit = Int(try Self.checked(retry, NumericRange.retries.named("--retry")))
        let delay = try retryDelay.map { try Self.checked($0, NumericRange.retryDelay.named("--retry-delay")) }
        return RetryPolicy(limit: limit, delay: delay ?? RetryPolicy.defaultDelay)
    }

    /// The response serializer the options ask for.
    func makeResponseSerializer() throws -> any ResponseSerializer {
        var statuses: StatusCodeSet?
        if let acceptStatus {
            do {
                statuses = try StatusCodeSet(parsing: acceptStatus)
            } catch {
                throw CLIFailure.badInput("--accept-status \(error)")
            }
        }
        let types = acceptType.map { Set($0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }) }
        var serializer = responseSerializer.makeSerializer()
        if let statuses { serializer.acceptableStatusCodes = statuses }
        if let types { serializer.acceptableContentTypes = types }
        return removeNulls ? NullRemoval.applied(to: serializer) : serializer
    }

    /// Turns the arguments into a draft, naming the argument at fault on bad input.
    func makeDraft() throws -> RequestDraft {
        guard HTTPMethod.isValid(method) else {
            throw CLIFailure.badInput("METHOD '\(method)' is not a method; expected GET, HEAD, POST, PUT, PATCH, DELETE or another token")
        }
        var draft = RequestDraft(method: method, url: url, baseURL: base)
        draft.serializer = serializer
        if let paramsJSON {
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
        var headerItems: [RequestItem] = []
        for header in headers {
            let line: HeaderLine
            do throws(HeaderLine.Failure) {
                line = try HeaderLine(parsing: header)
            } catch {
                switch error {
                case .noSeparator: throw CLIFailure.badInput("-H '\(header)' is not a header; expected 'Name: value'")
                case .invalidName(let name): throw CLIFailure.badInput("-H '\(header)': '\(name)' is not a valid header name")
                }
            }
            headerItems.append(line.value.isEmpty ? .removeHeader(name: line.name) : .header(name: line.name, value: line.value))
        }
        draft.items = headerItems + draft.items
        if let timeout {
            do {
                draft.observed.timeoutInterval = try NumericRange.timeout.named("--timeout").value(parsing: timeout)
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        if let user, authType == .basic {
            draft.credentials = try credentials(from: user)
        }
        if continueDownload, download == nil {
            throw CLIFailure.badInput("--continue resumes a download; it needs --download FILE")
        }
        if download != nil, upload != nil {
            throw CLIFailure.badInput("--download and --upload cannot go together; send the upload, then download")
        }
        if upload != nil {
            if let uploadPath {
                do {
                    _ = try RequestBody.sendableFileLength(atPath: uploadPath)
                } catch {
                    throw CLIFailure.badInput("--upload: \(error)")
                }
            }
            draft.upload(fromFile: uploadPath ?? RequestDraft.standardInputPath)
        }
        return draft
    }

    // MARK: - Standard input as the body (issue 18 §7)

    /// The file `--upload` streams from disk: nil for none, or for `-` and `@-`, which send
    /// standard input (read whole, within ``StandardInput/limit``) as curl's `-T -` does.
    var uploadPath: String? {
        guard let upload, upload != RequestDraft.standardInputPath, upload != "@" + RequestDraft.standardInputPath else { return nil }
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
    /// `--ignore-stdin` is not set. A terminal is never read, and an empty input sends no body.
    func readStandardInput(into draft: inout RequestDraft) throws {
        let readers = draft.standardInputReaders.map { $0 == RequestDraft.rawBodyReader ? "--upload \(upload ?? "-")" : $0 }
        if readers.count > 1 {
            throw CLIFailure.badInput("standard input can be read once, but \(readers.joined(separator: " and ")) all read it")
        }
        if let reader = readers.first {
            if ignoreStdin {
                throw CLIFailure.badInput("--ignore-stdin: '\(reader)' reads standard input")
            }
            guard let bytes = try StandardInput.current.read() else {
                throw CLIFailure.badInput("'\(reader)' reads standard input, which is a terminal; redirect or pipe the body in")
            }
            draft.standardInput = bytes
            return
        }
        guard !ignoreStdin, !draft.hasBodyItems, let bytes = try StandardInput.current.read(), !bytes.isEmpty else { return }
        draft.body = .bytes(bytes)
    }

    // MARK: -

    private func credentials(from text: String) throws -> RequestDraft.Credentials {
        if let colon = text.firstIndex(of: ":") {
            return .init(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        guard isatty(STDIN_FILENO) == 1, let password = getpass("Password for \(text): ") else {
            throw CLIFailure.badInput("--user '\(text)' has no password and there is no terminal to ask; expected name:password")
        }
        return .init(user: text, password: String(cString: password))
    }
}

/// The output formats of `send`.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case text
    case json
    /// Only with `--explain` (a handout); refused otherwise.
    case markdown
}

/// How `--user` is used: sent with the first request, or kept for a Digest challenge.
enum AuthType: String, CaseIterable, ExpressibleByArgument {
    case basic
    case digest
}

/// `--pin-mode` takes the words a session's `pin-mode:` takes.
extension SessionKey.PinMode: ExpressibleByArgument {}

extension SerializerKind: ExpressibleByArgument {}
extension ResponseSerializerKind: ExpressibleByArgument {}
