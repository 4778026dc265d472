import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import WSClient

/// What a WebSocket connection sends: a text or a binary message.
public enum WebSocketOutgoing: Sendable, Hashable {
    case text(String)
    case binary([UInt8])
}

/// How a WebSocket connection ended: the close frame the server answered (or began) with.
public struct WebSocketClose: Sendable, Hashable {
    /// The server's status code, nil when its close frame had none.
    public var code: UInt16?
    /// The server's reason, raw (pass it to ``TerminalText`` before printing).
    public var reason: String?
}

/// One WebSocket connection (RFC 6455) through swift-websocket's `WSClient`: the opening
/// handshake is the request a ``RequestDraft`` builds (its headers, credentials and query, plus
/// the cookies the jar holds for the URL), over the security policy's TLS (CA file, pins,
/// `insecure`, TLS 1.2 at least), the client certificate, and the proxy route, an HTTP proxy
/// tunnelled with CONNECT (its credentials as `Proxy-Authorization`) or SOCKS5.
///
/// Nothing here runs until ``run(outgoing:onFrame:)`` is called: no global state, no work at
/// start-up.
public struct WebSocketConnection: Sendable {
    /// The handshake request as built, its URL http or https (the ws or wss URL's HTTP form).
    public var request: HTTPRequest
    public var securityPolicy: SecurityPolicy
    public var proxy: ProxySettings
    public var clientIdentity: ClientIdentity?
    /// The jar whose cookies for the URL go with the handshake, and where the 101's `Set-Cookie`
    /// goes; nil, or the request's `httpShouldHandleCookies` false, for neither.
    public var cookieJar: CookieJar?
    public var limits: WebSocketLimits
    /// How long the connection and handshake may take.
    public var connectTimeout: Duration

    /// A connection for `request` (built from a draft whose URL went through
    /// ``WebSocketURL/httpForm(of:)``).
    public init(request: HTTPRequest, securityPolicy: SecurityPolicy = .default, proxy: ProxySettings = .direct, clientIdentity: ClientIdentity? = nil,
                cookieJar: CookieJar? = nil, limits: WebSocketLimits = WebSocketLimits(), connectTimeout: Duration = .seconds(60)) {
        self.request = request
        self.securityPolicy = securityPolicy
        self.proxy = proxy
        self.clientIdentity = clientIdentity
        self.cookieJar = cookieJar
        self.limits = limits
        self.connectTimeout = connectTimeout
    }

    /// The ws or wss URL the handshake goes to.
    public var url: URLReference { WebSocketURL.webSocketForm(of: request.url) }

    /// The header fields of the handshake the library is handed: the request's own, without
    /// those the handshake itself owns (Host, Origin, Connection, Upgrade, `Sec-WebSocket-*`
    /// but the protocol, and a body's framing), with the jar's cookies added.
    public var handshakeHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        let owned: Set<String> = ["host", "origin", "connection", "upgrade", "content-length", "transfer-encoding", "sec-websocket-key",
                                  "sec-websocket-version", "sec-websocket-extensions", "content-type"]
        for field in request.headers where !owned.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        if request.properties.httpShouldHandleCookies, let cookies = cookieJar?.headerValue(for: request.url), !headers.contains(name: "Cookie") {
            headers.add(name: "Cookie", value: cookies)
        }
        return headers
    }

    /// Connects, sends each message `outgoing` yields, and when it finishes closes with 1000
    /// (normal closure), reading every frame the server sends until its close; `onFrame` is
    /// called with each frame either way, on the library's tasks, one at a time per direction.
    ///
    /// - Returns: The server's close frame.
    /// - Throws: ``TransportError``: cannot connect, TLS, the proxy, a refused upgrade, a frame
    ///   or message past the limits, the close not answered in time, or cancelled.
    @discardableResult
    public func run(outgoing: AsyncStream<WebSocketOutgoing>, onFrame: @escaping @Sendable (WebSocketFrameRecord) -> Void) async throws(TransportError) -> WebSocketClose {
        let route: ProxyRoute
        do {
            route = try proxy.route(to: request.url)
        } catch {
            throw TransportError(.proxy("\(error)"))
        }
        var tls: TLSConfiguration?
        if request.url.scheme?.lowercased() == "https" {
            do {
                let base = try securityPolicy.tlsConfiguration()
                tls = clientIdentity.map { $0.configuring(base) } ?? base
            } catch {
                throw TransportError(.tls("\(error)"))
            }
        }
        var sslContext: NIOSSLContext?
        if let tls {
            do {
                sslContext = try NIOSSLContext(configuration: tls)
            } catch {
                throw TransportError(.tls("\(error)"))
            }
        }
        let url = request.url
        guard let host = url.host, !host.isEmpty, let port = url.effectivePort, let hostHeader = url.hostHeaderValue else {
            throw TransportError(.invalidRequest("the URL has no host"))
        }
        var headers = NIOHTTP1.HTTPHeaders()
        headers.add(name: "Host", value: hostHeader)
        headers.add(name: "Origin", value: "\(self.url.scheme ?? "ws")://\(host.contains(":") ? "[\(host)]" : host)")
        for field in handshakeHeaders {
            guard HTTPField.Name(field.name) != nil else { throw TransportError(.invalidRequest("'\(field.name)' is not a valid header name")) }
            headers.add(name: field.name, value: field.value)
        }
        let logger = Logger(label: "tincan.websocket") { _ in SwiftLogNoOpLogHandler() }
        let limits = self.limits
        let opened = SharedState(false)
        let handler: WebSocketDataHandler<WebSocketConversationContext> = { inbound, outbound, _ in
            opened.withLock { $0 = true }
            try await Self.exchange(inbound: inbound, outbound: outbound, outgoing: outgoing, limits: limits, onFrame: onFrame)
        }
        var tunnel: WebSocketChannel.Tunnel?
        var address = (host: host, port: port)
        if let server = route.server {
            switch server.kind {
            case .http:
                var connectHeaders = NIOHTTP1.HTTPHeaders()
                if let credential = server.credential {
                    connectHeaders.add(name: "Proxy-Authorization", value: RequestSettings.basicAuthorization(username: credential.user, password: credential.password))
                }
                tunnel = .http(connectHeaders: connectHeaders)
            case .socks5:
                tunnel = .socks
            }
            address = (server.host, server.port)
        }
        // The upgrade's Set-Cookie is stored as any response's is, by the jar's rules for the URL.
        let jar = request.properties.httpShouldHandleCookies ? cookieJar : nil
        let channel = WebSocketChannel(host: host, port: port, target: url.requestTarget, headers: headers, sslContext: sslContext, tunnel: tunnel,
                                       proxyTimeout: .nanoseconds(Int64(connectTimeout.inSeconds * 1_000_000_000)),
                                       maxFrameSize: limits.maximumFrameBytes, closeTimeout: limits.closeTimeout, handler: handler) { answer in
            let cookies = answer["Set-Cookie"]
            if let jar, !cookies.isEmpty { jar.store(setCookie: cookies, for: url) }
        }
        let connect: @Sendable () async throws -> WebSocketCloseFrame? = { [address] in
            try await ClientConnection(channel, address: .hostname(address.host, port: address.port), eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                                       logger: logger).run()
        }
        let connectTimeout = self.connectTimeout
        do {
            let closeFrame = try await withThrowingTaskGroup(of: WebSocketCloseFrame??.self) { group in
                group.addTask { .some(try await connect()) }
                // The connection and the handshake within the connect timeout; after that, only
                // the close has a bound (the library's), as a conversation may last.
                group.addTask {
                    try await Task.sleep(for: connectTimeout)
                    if !opened.value { throw TransportError(.timedOut(.connect, seconds: connectTimeout.inSeconds)) }
                    return .none
                }
                while let finished = try await group.next() {
                    if case .some(let frame) = finished {
                        group.cancelAll()
                        return frame
                    }
                }
                return nil
            }
            // No close frame from the server: the connection ended another way (RFC 6455's 1006),
            // such as NIO's decoder refusing a frame past the limit, which it answers with 1009
            // and a closed connection without telling the library why.
            guard let closeFrame else {
                throw TransportError(.connectionClosed("the connection ended without the server's close frame (1006): the server closed it, or sent a frame over \(limits.maximumFrameBytes) bytes (--max-message-size), which was refused with 1009"))
            }
            let close = WebSocketClose(code: UInt16(webSocketErrorCode: closeFrame.closeCode), reason: closeFrame.reason)
            onFrame(WebSocketFrameRecord(direction: .received, kind: .close, data: Array((close.reason ?? "").utf8), closeCode: close.code))
            return close
        } catch {
            throw Self.transportError(error, host: host, proxy: route.server, limits: limits)
        }
    }

    /// The conversation once the handshake is done: messages out as `outgoing` yields them, then
    /// a close; frames in until the server's close, whichever side closes first.
    private static func exchange(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, outgoing: AsyncStream<WebSocketOutgoing>,
                                 limits: WebSocketLimits, onFrame: @escaping @Sendable (WebSocketFrameRecord) -> Void) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await message in inbound.messages(maxSize: limits.maximumMessageBytes) {
                    switch message {
                    case .text(let text): onFrame(.text(text, .received))
                    case .binary(let buffer): onFrame(WebSocketFrameRecord(direction: .received, kind: .binary, data: Array(buffer.readableBytesView)))
                    }
                }
                return true
            }
            group.addTask {
                for await message in outgoing {
                    switch message {
                    case .text(let text):
                        try await outbound.writeTextMessage(text)
                        onFrame(.text(text, .sent))
                    case .binary(let bytes):
                        try await outbound.writeBinaryMessage(ByteBuffer(bytes: bytes))
                        onFrame(WebSocketFrameRecord(direction: .sent, kind: .binary, data: bytes))
                    }
                }
                // The server closed first: its close was answered by the library.
                if Task.isCancelled { return false }
                try await outbound.close(.normalClosure, reason: nil)
                onFrame(WebSocketFrameRecord(direction: .sent, kind: .close, closeCode: 1000))
                // The frames the server sent before its answer are still read, for this long.
                try await Task.sleep(for: limits.closeTimeout)
                throw WebSocketCloseTimeout(seconds: limits.closeTimeout.inSeconds)
            }
            // Whichever ends first: the reader at the server's close, or the writer's wait for it.
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// The library's and NIO's errors as a ``TransportError`` that says what happened.
    static func transportError(_ error: any Error, host: String, proxy: ProxyServer?, limits: WebSocketLimits) -> TransportError {
        if let error = error as? TransportError { return error }
        if let timeout = error as? WebSocketCloseTimeout {
            return TransportError(.timedOut(.idle, seconds: timeout.seconds))
        }
        if case WebSocketChannelError.upgradeRefused = error {
            return TransportError(.badResponse("the server did not switch to WebSocket (it answered the upgrade request with something other than 101 Switching Protocols)"))
        }
        if let error = error as? NIOHTTP1ProxyConnectHandler.Error {
            let proxyName = proxy.map { "the proxy \($0.address)" } ?? "the proxy"
            if error == .httpProxyHandshakeTimeout() { return TransportError(.proxy("\(proxyName) did not answer CONNECT in time")) }
            if error == .invalidProxyResponse() { return TransportError(.proxy("\(proxyName) answered CONNECT with something that is not HTTP")) }
            return TransportError(.proxy("\(proxyName) refused to open a tunnel (it answered CONNECT with a status other than 2xx)"))
        }
        if case WebSocketChannelError.socksTimeout = error {
            return TransportError(.proxy("\(proxy.map { "the proxy \($0.address)" } ?? "the proxy") did not open the SOCKS5 tunnel in time"))
        }
        if let code = libraryCloseCode(error) {
            switch code {
            case .messageTooLarge:
                return TransportError(.limitExceeded("the server sent a WebSocket frame or message over \(limits.maximumMessageBytes) bytes (--max-message-size); the connection was closed with 1009"))
            case .dataInconsistentWithMessage:
                return TransportError(.badResponse("the server sent a text message that is not UTF-8; the connection was closed with 1007"))
            default:
                return TransportError(.badResponse("the server broke the WebSocket protocol; the connection was closed with 1002"))
            }
        }
        if let error = error as? NIOWebSocketError, error == .invalidFrameLength {
            return TransportError(.limitExceeded("the server sent a WebSocket frame over \(limits.maximumFrameBytes) bytes (--max-message-size)"))
        }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            // NIOSSL's words name no host when none was sent as the server name (an address).
            return TransportError(.tls("the certificate does not name \(host.isIPAddress ? "the address " : "")\(host)"))
        }
        if error is CancellationError { return TransportError(.cancelled) }
        return AsyncHTTPClientTransport.transportError(error, idleTimeout: limits.closeTimeout.inSeconds, deadline: nil, proxy: proxy)
    }
}

/// The close code of swift-websocket's own error for a conversation it closed (a message too
/// large, text that is not UTF-8, a protocol error), whose type the library keeps to itself:
/// an enum case `close` holding the `WebSocketErrorCode` it closed with.
func libraryCloseCode(_ error: any Error) -> WebSocketErrorCode? {
    let mirror = Mirror(reflecting: error)
    guard mirror.displayStyle == .enum, let child = mirror.children.first, child.label == "close" else { return nil }
    return child.value as? WebSocketErrorCode
}

/// The server did not answer our close within ``WebSocketLimits/closeTimeout``.
struct WebSocketCloseTimeout: Error {
    var seconds: Double
}

/// The two spellings of a WebSocket URL: ws and wss, which the user writes, and http and https,
/// which the draft builds, the cookie jar matches and the proxy rules route.
public enum WebSocketURL {
    /// `text` with `ws://` as `http://` and `wss://` as `https://`; other text as it is (a
    /// relative URL, `:8080/ws`, http and https).
    ///
    /// - Throws: ``RequestSerializationError`` for a scheme that is none of the four.
    public static func httpForm(of text: String) throws(RequestSerializationError) -> String {
        let lowered = text.lowercased()
        if lowered.hasPrefix("ws://") { return "http://" + text.dropFirst(5) }
        if lowered.hasPrefix("wss://") { return "https://" + text.dropFirst(6) }
        if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
            let scheme = lowered[..<colon]
            if scheme != "http", scheme != "https" {
                throw RequestSerializationError(.invalidURL(text, reason: "the scheme '\(text[..<colon])' is not ws or wss (http and https are read as ws and wss)"))
            }
        }
        return text
    }

    /// `url` with http as ws and https as wss.
    public static func webSocketForm(of url: URLReference) -> URLReference {
        var url = url
        switch url.scheme?.lowercased() {
        case "http": url.scheme = "ws"
        case "https": url.scheme = "wss"
        default: break
        }
        return url
    }
}
