import ArgumentParser
import Foundation
import TincanCore
import TincanSessions

// `tincan send`'s options, each declared once (issue 34 §10): the parser reads them into typed
// values (a number through its `NumericRange`, a choice as an enumeration), `--help` lists them
// under these groups' titles, and `SendCommand.validate()` refuses what does not go together.

/// The body and how it is built.
struct SendRequestOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The base URL the URL resolves against.", valueName: "URL"))
    var base: String?

    @Option(help: ArgumentHelp("How parameters become a body (default: form).", valueName: "KIND"))
    var serializer: SerializerKind?

    @Flag(help: "The json or the form serializer, as HTTPie spells them.")
    var serializerFlag: SerializerFlag?

    @Option(name: .customLong("params-json"), help: ArgumentHelp("The parameters as one JSON value, nesting and all.", valueName: "JSON"))
    var paramsJSON: String?

    @OptionGroup
    var header: HeaderOptions

    @Option(help: ArgumentHelp("Stream FILE as the body (curl -T); - for standard input.", valueName: "FILE"))
    var upload: String?

    @Option(help: ArgumentHelp("A GraphQL document to send: POSTed as JSON, or in the URL when the method is GET.", valueName: "QUERY"))
    var graphql: String?

    @Option(name: .customLong("graphql-variables"), help: ArgumentHelp("The GraphQL operation's variables, a JSON object.", valueName: "JSON"))
    var graphqlVariables: String?

    @Option(name: .customLong("operation-name"), help: ArgumentHelp("Which operation of the GraphQL document to run.", valueName: "NAME"))
    var operationName: String?

    @Option(help: ArgumentHelp("Pace the upload, in bytes a second (64k, 1M; 1 to 1T).", valueName: "RATE"),
            transform: { text in try OptionValue.checked { () throws(NumericRangeError) in try ByteRate.checked(text, range: NumericRange.uploadRate.named("--throttle")) } })
    var throttle: Int?

    @Option(help: ArgumentHelp("A fixed multipart boundary, for repeatable output.", valueName: "TEXT"))
    var boundary: String?

    @Flag(name: .customLong("ignore-stdin"), help: "Never send standard input as the body.")
    var ignoreStdin = false
}

/// `-j`/`--json` and `-f`/`--form`: HTTPie's spelling of two serializers.
enum SerializerFlag: String, EnumerableFlag {
    case json, form

    static func name(for value: SerializerFlag) -> NameSpecification {
        switch value {
        case .json: [.customShort("j"), .customLong("json")]
        case .form: [.customShort("f"), .customLong("form")]
        }
    }

    var kind: SerializerKind { self == .json ? .json : .form }
}

/// Who the request is from.
struct SendAuthOptions: ParsableArguments {
    @Option(name: [.customShort("a"), .customLong("auth"), .customLong("user")],
            help: ArgumentHelp("Credentials (a name alone asks for the password).", valueName: "NAME:PASSWORD"))
    var user: String?

    @Option(name: .customLong("auth-type"), help: ArgumentHelp("basic sends them; digest answers a challenge; oauth2: --grant.", valueName: "TYPE"))
    var authType: AuthType = .basic

    @Option(help: ArgumentHelp("The OAuth 2.0 grant (password takes --user).", valueName: "GRANT"))
    var grant: OAuth2Grant?

    @Option(name: .customLong("token-url"), help: ArgumentHelp("The OAuth 2.0 token endpoint.", valueName: "URL"))
    var tokenURL: String?

    @Option(name: .customLong("auth-url"), help: ArgumentHelp("The authorization endpoint (authorization-code).", valueName: "URL"))
    var authURL: String?

    @Option(name: .customLong("device-url"), help: ArgumentHelp("The device authorization endpoint (device-code).", valueName: "URL"))
    var deviceURL: String?

    @Option(name: .customLong("redirect-uri"), help: ArgumentHelp("The loopback redirect (default: 127.0.0.1, a free port).", valueName: "URL"))
    var redirectURI: String?

    @Option(name: .customLong("client-id"), help: ArgumentHelp("The OAuth 2.0 client identifier.", valueName: "ID"))
    var clientID: String?

    @Option(name: .customLong("client-secret"), help: ArgumentHelp("Sent only to the token and device endpoints.", valueName: "SECRET"))
    var clientSecret: String?

    @Option(name: .customLong("client-auth"), help: ArgumentHelp("Client authentication (default: basic).", valueName: "HOW"))
    var clientAuth: OAuth2ClientAuthentication?

    @Option(help: ArgumentHelp("The scopes asked for, space-separated.", valueName: "SCOPES"))
    var scope: String?

    @Option(help: ArgumentHelp("The audience, passed through to the token endpoint.", valueName: "AUDIENCE"))
    var audience: String?

    @Option(name: .customLong("refresh-token"), help: ArgumentHelp("The refresh token the refresh-token grant exchanges.", valueName: "TOKEN"))
    var refreshToken: String?

    @Option(name: .customLong("token-param"), help: ArgumentHelp("A token request parameter, passed through.", valueName: "NAME=VALUE"),
            transform: { text in
                guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                    throw ValidationError("--token-param '\(text)' is not NAME=VALUE")
                }
                return OAuth2Parameter(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
            })
    var tokenParams: [OAuth2Parameter] = []

    /// The OAuth 2.0 options given, by name, for `validate()`.
    var oauth2OptionsGiven: [String] {
        let given: [(String, Bool)] = [("--grant", grant != nil), ("--token-url", tokenURL != nil), ("--auth-url", authURL != nil),
                                       ("--device-url", deviceURL != nil), ("--redirect-uri", redirectURI != nil), ("--client-id", clientID != nil),
                                       ("--client-secret", clientSecret != nil), ("--client-auth", clientAuth != nil), ("--scope", scope != nil),
                                       ("--audience", audience != nil), ("--refresh-token", refreshToken != nil), ("--token-param", !tokenParams.isEmpty)]
        return given.filter(\.1).map(\.0)
    }

    /// Refuses OAuth 2.0 options without `--auth-type oauth2`, and a grant without what it needs.
    func validate() throws {
        guard authType == .oauth2 else {
            if let first = oauth2OptionsGiven.first { throw ValidationError("\(first) is for --auth-type oauth2") }
            return
        }
        guard let grant else { throw ValidationError("--auth-type oauth2 needs --grant (\(OAuth2Grant.allCases.map(\.rawValue).joined(separator: ", ")))") }
        guard tokenURL != nil, clientID != nil else { throw ValidationError("--auth-type oauth2 needs --token-url and --client-id") }
        switch grant {
        case .authorizationCode where authURL == nil: throw ValidationError("--grant authorization-code needs --auth-url")
        case .deviceCode where deviceURL == nil: throw ValidationError("--grant device-code needs --device-url")
        case .refreshToken where refreshToken == nil: throw ValidationError("--grant refresh-token needs --refresh-token")
        case .password where user == nil: throw ValidationError("--grant password needs --user NAME:PASSWORD")
        default: break
        }
        if grant != .password, user != nil { throw ValidationError("--user goes with --auth-type oauth2 only for --grant password") }
        if let redirectURI, let problem = OAuth2RedirectListener.problem(with: URLReference(parsing: redirectURI)) {
            throw ValidationError("--redirect-uri: \(problem)")
        }
    }
}

extension SendAuthOptions {
    /// `--auth NAME:PASSWORD`, or NAME alone with the password asked on the terminal.
    ///
    /// - Throws: ``CLIFailure`` when there is no password and no terminal to ask.
    func credentials(from text: String) throws -> RequestDraft.Credentials {
        if let colon = text.firstIndex(of: ":") {
            return .init(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
        }
        guard isatty(STDIN_FILENO) == 1, let password = getpass("Password for \(text): ") else {
            throw CLIFailure.badInput("--auth '\(text)' has no password and there is no terminal to ask; expected name:password")
        }
        return .init(user: text, password: String(cString: password))
    }
}

extension OAuth2Grant: OptionWord {}
extension OAuth2ClientAuthentication: OptionWord {}

/// What is printed, and how.
struct SendOutputOptions: ParsableArguments {
    @Option(name: [.customShort("p"), .customLong("print")],
            help: ArgumentHelp("What to print: H, B request head, body; h, b response head, body; m validation and timing. Default: hbm on a terminal, else b.", valueName: "HBhbm"))
    var print: PrintParts?

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Print the request too; into a pipe, heads and timing go to standard error.")
    var verbose = false

    @Option(help: ArgumentHelp("Colours and formats (all), one of them, or the body as it came (none). Default: all on a terminal, else none.", valueName: "STYLE"))
    var pretty: Pretty?

    @Option(help: ArgumentHelp("auto colours a terminal unless NO_COLOR is set.", valueName: "WHEN"))
    var color: ColorChoice = .auto

    @Option(help: ArgumentHelp("text, or json (one object); markdown with --explain.", valueName: "FORMAT"))
    var format: OutputFormat = .text

    @Flag(help: "Print the request instead of sending it.")
    var offline = false

    @Flag(help: "Print why the request looks as it does (Explain).")
    var explain = false

    @Flag(name: .customLong("show-secrets"), help: "With --explain, show secrets instead of dots.")
    var showSecrets = false

    @Flag(inversion: .prefixedNo, exclusivity: .exclusive, help: "Print the body as it arrives (curl -N). Default: event streams on a terminal.")
    var stream: Bool?

    @Option(name: [.customShort("o"), .customLong("output"), .customLong("download")],
            help: ArgumentHelp("Save the body to FILE (via FILE.part).", valueName: "FILE"))
    var download: String?

    @Flag(name: .customLong("continue"), help: "Resume FILE.part with a Range request.")
    var continueDownload = false
}

/// The letters of `--print`.
struct PrintParts: ExpressibleByArgument, Equatable {
    var requestHead = false, requestBody = false, responseHead = false, responseBody = false, metadata = false

    init(requestHead: Bool = false, requestBody: Bool = false, responseHead: Bool = false, responseBody: Bool = false, metadata: Bool = false) {
        self.requestHead = requestHead
        self.requestBody = requestBody
        self.responseHead = responseHead
        self.responseBody = responseBody
        self.metadata = metadata
    }

    init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        for letter in argument {
            switch letter {
            case "H": requestHead = true
            case "B": requestBody = true
            case "h": responseHead = true
            case "b": responseBody = true
            case "m": metadata = true
            default: return nil
            }
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["hb", "hbm", "b", "HBhbm", "h", "m"]) }

    /// Whether any part of the request is printed.
    var request: Bool { requestHead || requestBody }
}

/// `--pretty`, as HTTPie names it.
enum Pretty: String, OptionWord {
    case all, colors, format, none

    var colors: Bool { self == .all || self == .colors }
    var formats: Bool { self == .all || self == .format }
}

/// `--color`.
enum ColorChoice: String, OptionWord {
    case auto, always, never

    /// Whether the environment asks for no colour: `NO_COLOR` set (to anything but nothing), or
    /// `TERM=dumb`.
    static func forbidden(by environment: [String: String]) -> Bool {
        !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
    }

    /// Whether to colour output that goes to a terminal (`terminal`) or not: always, never, or
    /// on a terminal unless the environment forbids it.
    func colors(terminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: terminal && !Self.forbidden(by: environment)
        }
    }
}

/// How long, and how hard, the request may try.
struct SendConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Idle seconds before giving up (0.001 to 2147483).", valueName: "SECONDS"),
            transform: OptionValue.number(NumericRange.timeout.named("--timeout")))
    var timeout: Double?

    @Option(name: .customLong("max-time"), help: ArgumentHelp("The most seconds the whole request may take.", valueName: "SECONDS"),
            transform: OptionValue.number(NumericRange.deadline.named("--max-time")))
    var maxTime: Double?

    @Option(help: ArgumentHelp("Retry 408, 429, 5xx and dropped connections up to N times (0 to 100), idempotent methods only.", valueName: "N"),
            transform: OptionValue.integer(NumericRange.retries.named("--retry")))
    var retry: Int?

    @Option(name: .customLong("retry-delay"), help: ArgumentHelp("The first backoff (default 0.5 s), doubled each retry.", valueName: "SECONDS"),
            transform: OptionValue.number(NumericRange.retryDelay.named("--retry-delay")))
    var retryDelay: Double?

    @Flag(name: [.customShort("F"), .customLong("follow")], inversion: .prefixedNo, exclusivity: .exclusive, help: "Follow redirects (the default); --no-follow shows them.")
    var follow = true

    @Option(name: .customLong("max-redirects"), help: ArgumentHelp("The most redirects followed (0 to 1000; default 10).", valueName: "N"),
            transform: OptionValue.integer(NumericRange.redirects.named("--max-redirects")))
    var maxRedirects: Int?

    @Flag(help: "HTTP/1.1 only, or ask for HTTP/2. Default: h2 over TLS if the server agrees.")
    var httpVersion: HTTPVersionFlag?

    @OptionGroup
    var route: ProxyOptions

    @OptionGroup
    var cookies: CookieJarOption

    @Option(name: .customLong("max-header-size"), help: ArgumentHelp("The most bytes of response headers (1k to 1M; default 65536).", valueName: "SIZE"),
            transform: OptionValue.integer(NumericRange.headerSize.named("--max-header-size")))
    var maxHeaderSize: Int?

    @Flag(name: .customLong("proxytunnel"), help: "Tunnel plain http through the proxy too (curl -p).")
    var proxyTunnel = false

    @Option(name: .customLong("max-body"), help: ArgumentHelp("The most body kept in memory (default 256M; 0 no limit).", valueName: "SIZE"),
            transform: { text in BodyLimit(bytes: try OptionValue.checked { () throws(NumericRangeError) in try TaskOptions.maximumBodyBytes(parsing: text, name: "--max-body") }) })
    var maxBody: BodyLimit?
}

/// `--max-body`: a size, or nil for no limit (`0`).
struct BodyLimit: Equatable {
    var bytes: Int64?
}

/// `--http1.1` or `--http2`.
enum HTTPVersionFlag: String, EnumerableFlag {
    case http1_1 = "http1.1", http2

    static func name(for value: HTTPVersionFlag) -> NameSpecification {
        .customLong(value.rawValue)
    }

    var preference: HTTPVersionPreference { self == .http1_1 ? .http1_1 : .http2 }
}

/// Whom to trust, and who to be.
struct SendTLSOptions: ParsableArguments {
    @Option(name: .customLong("ca-file"), help: ArgumentHelp("Trust the CAs in this PEM file instead of the system's.", valueName: "FILE"))
    var caFile: String?

    @Option(help: ArgumentHelp("Trust only chains ending at this certificate. Repeatable.", valueName: "FILE"))
    var pin: [String] = []

    @Option(name: .customLong("pin-mode"), help: ArgumentHelp("What --pin compares.", valueName: "MODE"))
    var pinMode: SessionKey.PinMode = .certificate

    @Flag(help: "Do not verify certificates (anyone can pose as the server).")
    var insecure = false

    @Option(name: .customLong("tls-min"), help: ArgumentHelp("The oldest TLS accepted (default 1.2; 1.0 and 1.1 are unsafe: RFC 8996).", valueName: "VERSION"))
    var tlsMin: TLSMinimum = .standard

    @Option(name: .customLong("cert"), help: ArgumentHelp("A client certificate (PEM) for mutual TLS.", valueName: "FILE"))
    var clientCertificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("Its key (PEM; a passphrase from TINCAN_KEY_PASSPHRASE).", valueName: "FILE"))
    var clientKey: String?
}

/// How the response is judged and decoded.
struct SendResponseOptions: ParsableArguments {
    @Option(name: .customLong("response-serializer"), help: ArgumentHelp("How the body is checked and decoded (default: compound; graphql with --graphql).", valueName: "KIND"))
    var responseSerializer: ResponseSerializerKind?

    @Option(name: .customLong("accept-status"), help: ArgumentHelp("Acceptable statuses, such as 200-299,304 or 2xx.", valueName: "CODES"),
            transform: { try StatusCodeSet(parsing: $0) })
    var acceptStatus: StatusCodeSet?

    @Option(name: .customLong("accept-type"), help: ArgumentHelp("Acceptable content types, comma-separated.", valueName: "TYPES"))
    var acceptType: String?

    @Flag(name: .customLong("remove-nulls"), help: "Drop null members from decoded JSON.")
    var removeNulls = false
}

// MARK: - Groups `send` shares with `ws`

/// `-H`: the request's headers (`send`, `ws`).
struct HeaderOptions: ParsableArguments {
    @Option(name: .customShort("H"), help: ArgumentHelp("A header ('Name:' removes a default). Repeatable.", valueName: "'Name: value'"))
    var headers: [String] = []

    /// The headers as request items, in order: `Name: value` sets one, `Name:` removes a default.
    ///
    /// - Throws: ``CLIFailure/badInput(_:)`` naming the `-H` that is not a header.
    func items() throws -> [RequestItem] {
        try headers.map { header in
            let line: HeaderLine
            do throws(HeaderLine.Failure) {
                line = try HeaderLine(parsing: header)
            } catch {
                switch error {
                case .noSeparator: throw CLIFailure.badInput("-H '\(header)' is not a header; expected 'Name: value'")
                case .invalidName(let name): throw CLIFailure.badInput("-H '\(header)': '\(name)' is not a valid header name")
                }
            }
            return line.value.isEmpty ? .removeHeader(name: line.name) : .header(name: line.name, value: line.value)
        }
    }
}

/// `--proxy` and `--noproxy` (`send`, `ws`).
struct ProxyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("An http:// or socks5:// proxy; '' for none at all.", valueName: "URL"))
    var proxy: String?

    @Option(help: ArgumentHelp("Hosts, addresses or CIDR ranges reached directly.", valueName: "LIST"))
    var noproxy: String?

    /// The settings these options and the environment give, checked against `url` so that a
    /// proxy variable that cannot be used is bad input too.
    func settings(checking url: URLReference) throws -> ProxySettings {
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
}

/// `--cookie-jar` (`send`, `ws`).
struct CookieJarOption: ParsableArguments {
    @Option(name: .customLong("cookie-jar"), help: ArgumentHelp("Read cookies from FILE and write them back (curl's -b/-c).", valueName: "FILE"))
    var cookieJar: String?
}

extension SendTLSOptions {
    /// The security policy these options ask for.
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
        policy.minimumTLSVersion = tlsMin
        return policy
    }

    /// The client certificate `--cert` and `--key` give, read and checked now.
    func makeClientIdentity() throws -> ClientIdentity? {
        guard let clientCertificate else { return nil }
        do {
            return try ClientIdentity.load(certificate: clientCertificate, key: clientKey, passphrase: SendCommand.passphrase(forKey: clientKey ?? clientCertificate))
        } catch {
            throw CLIFailure.badInput("\(error.role.rawValue): \(error)")
        }
    }
}
