import ArgumentParser
import Foundation
import TincanCore

/// `tincan ws URL`: a WebSocket conversation (issue 39 §3). Each `--message`, then each line of
/// standard input, goes out as a text message; every frame is printed as it goes and comes
/// (``WebSocketPrinter``); when the input ends the connection closes with 1000 and the command
/// exits 0 once the server has answered the close.
///
/// The handshake is built as `send` builds a request (the URL's http form through the same
/// draft, `-H` headers, the cookie jar's cookies) and sent through the core's
/// ``WebSocketConnection`` with send's TLS and proxy options.
struct WebSocketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws",
        abstract: "Talk to a WebSocket server: messages out, every frame printed with its time.",
        usage: "tincan ws URL [--message TEXT ...] [OPTIONS] [< lines]",
        discussion: """
            Examples:
              tincan ws ws://127.0.0.1:8080/ws              type lines; ctrl+d closes
              echo hello | tincan ws :8080/ws               one message, then close
              tincan ws wss://echo.example/ws --message hi --format json

            Each --message, then each line of standard input, is sent as a
            text message (a terminal is read only when no --message is
            given). Frames print as they go (→) and come (←). At the end of
            the input the connection closes with 1000. http and https URLs
            are read as ws and wss.
            Exit: 0 closed, 2 bad input, 4 connection or protocol error,
            23 output could not be written.
            """
    )

    @Argument(help: ArgumentHelp("The ws:// or wss:// URL (:PORT/path for localhost).", valueName: "URL"))
    var url: String

    @Option(name: .customLong("message"), help: ArgumentHelp("A text message sent before standard input's lines. Repeatable.", valueName: "TEXT"))
    var messages: [String] = []

    @Option(name: .customLong("binary-message"),
            help: ArgumentHelp("A binary message, its bytes in base64 (as --format json prints them), sent after the text ones. Repeatable.", valueName: "BASE64"),
            transform: WebSocketCommand.binaryMessage)
    var binaryMessages: [[UInt8]] = []

    @Option(help: ArgumentHelp("text (a line a frame) or json (an object a frame).", valueName: "FORMAT"))
    var format: WebSocketPrinter.Format = .text

    @Option(name: .customLong("max-message-size"), help: ArgumentHelp("The largest frame or message either way (1k to 1G; default 16M).", valueName: "SIZE"),
            transform: OptionValue.integer(NumericRange.webSocketMessageSize.named("--max-message-size")))
    var maxMessageSize: Int?

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Seconds to connect and upgrade (default 60).", valueName: "SECONDS"),
            transform: OptionValue.number(NumericRange.timeout.named("--connect-timeout")))
    var connectTimeout: Double?

    @OptionGroup(title: "Request")
    var header: HeaderOptions

    @OptionGroup(title: "Authentication")
    var authentication: SendAuthOptions

    @OptionGroup(title: "Connection")
    var route: ProxyOptions

    @OptionGroup(title: "Connection")
    var cookies: CookieJarOption

    @OptionGroup(title: "TLS")
    var tls: SendTLSOptions

    func validate() throws {
        if tls.clientKey != nil, tls.clientCertificate == nil { throw ValidationError("--key names the private key of a client certificate; it needs --cert FILE") }
        // The handshake is one request, sent once: no challenge can be answered.
        if authentication.authType == .digest {
            throw ValidationError("--auth-type digest answers a challenge, which a WebSocket handshake cannot; ws sends --auth up front (basic), or a token with --auth-type oauth2")
        }
    }

    /// `--binary-message`'s bytes: standard base64, padded, as `--format json` prints a binary frame.
    static func binaryMessage(_ text: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: text) else {
            throw ValidationError("--binary-message '\(text)' is not base64; expected the message's bytes in base64, such as AAEC/w== for 00 01 02 ff")
        }
        return Array(data)
    }

    func run() async throws {
        var draft = RequestDraft(method: "GET", url: try WebSocketURL.httpForm(of: url))
        draft.items = try header.items()
        let oauth2 = try authentication.oauth2Authorization
        if oauth2 == nil, let user = authentication.user { draft.credentials = try authentication.credentials(from: user) }
        var request = try draft.build()
        let proxy = try route.settings(checking: request.url)
        let identity = try tls.makeClientIdentity()
        let policy: SecurityPolicy
        do {
            policy = try tls.makeSecurityPolicy()
            _ = try policy.tlsConfiguration()
        } catch let error as SecurityPolicyError {
            throw CLIFailure.badInput("\(error)")
        }
        for weakening in policy.weakenings where weakening.isUnsafe { StandardError.warn("\(weakening)") }
        if let oauth2 {
            // The grant's token request goes first, as send's would, with the same trust and route.
            var options = TaskOptions()
            options.proxy = proxy
            options.clientIdentity = identity
            options.oauth2 = oauth2
            let manager = try URLSessionManager(http: try HTTPSessionManager(), securityPolicy: policy)
            if let failure = await manager.authorizeWithBearer(&request, options: options).failure {
                throw CLIFailure(message: "error: \(failure)", exitCode: .transportFailed)
            }
        }
        // The upgrade's Set-Cookie goes into the jar as any response's does; saved with --cookie-jar.
        let jar = CookieJar()
        if let path = cookies.cookieJar { jar.insert(try SendCommand.loadCookies(from: path)) }
        var limits = WebSocketLimits()
        if let maxMessageSize {
            limits.maximumFrameBytes = maxMessageSize
            limits.maximumMessageBytes = maxMessageSize
        }
        let connection = WebSocketConnection(request: request, securityPolicy: policy, proxy: proxy, clientIdentity: identity, cookieJar: jar,
                                             limits: limits, connectTimeout: .seconds(connectTimeout ?? 60))
        let input = StandardInput.current
        let readsInput: Bool = switch input.source {
        case .fileDescriptor(let descriptor): messages.isEmpty || isatty(descriptor) == 0
        case .bytes: true
        case .none: false
        }
        let (outgoing, continuation) = AsyncStream<WebSocketOutgoing>.makeStream()
        let messages = self.messages.map(WebSocketOutgoing.text) + binaryMessages.map(WebSocketOutgoing.binary)
        let feeder = Task { () throws -> Void in
            defer { continuation.finish() }
            for message in messages { continuation.yield(message) }
            guard readsInput else { return }
            for try await line in input.lines(maximumLineBytes: limits.maximumMessageBytes) { continuation.yield(.text(line)) }
        }
        let printer = WebSocketPrinter(format: format)
        let outcome: Result<WebSocketClose, TransportError>
        do {
            outcome = .success(try await connection.run(outgoing: outgoing, onFrame: printer.print))
        } catch {
            outcome = .failure(error)
        }
        feeder.cancel()
        if let path = cookies.cookieJar {
            do {
                try CookieFile.save(jar, to: path)
            } catch {
                throw CLIFailure.writeFailed(error)
            }
        }
        if let failure = printer.firstFailure { throw failure }
        switch outcome {
        case .success: break
        case .failure(let error): throw CLIFailure(message: "error: \(error)", exitCode: .transportFailed)
        }
        // A line too long for a message: the connection closed with 1000 at that line, and the input is at fault.
        if case .failure(let error) = await feeder.result { throw error }
    }
}
