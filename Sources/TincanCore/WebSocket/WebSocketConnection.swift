import Foundation
import HTTPTypes
import Logging
import NIOCore
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
    /// The jar whose cookies for the URL go with the handshake, or nil for none.
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
        if let cookies = cookieJar?.headerValue(for: request.url), !headers.contains(name: "Cookie") {
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
        var configuration = WebSocketClientConfiguration(maxFrameSize: limits.maximumFrameBytes, closeTimeout: limits.closeTimeout)
        var fields = HTTPFields()
        for field in handshakeHeaders {
            guard let name = HTTPField.Name(field.name) else { throw TransportError(.invalidRequest("'\(field.name)' is not a valid header name")) }
            fields.append(HTTPField(name: name, value: field.value))
        }
        configuration.additionalHeaders = fields
        let logger = Logger(label: "tincan.websocket") { _ in SwiftLogNoOpLogHandler() }
        let limits = self.limits
        let opened = SharedState(false)
        let handler: WebSocketDataHandler<WebSocketClient.Context> = { inbound, outbound, _ in
            opened.withLock { $0 = true }
            try await Self.exchange(inbound: inbound, outbound: outbound, outgoing: outgoing, limits: limits, onFrame: onFrame)
        }
        let urlText = url.string
        var proxySettings: WebSocketProxySettings?
        if let server = route.server {
            let type: WebSocketProxySettings.ProxyType
            switch server.kind {
            case .http:
                var connectHeaders = HTTPFields()
                if let credential = server.credential {
                    connectHeaders[.proxyAuthorization] = RequestSettings.basicAuthorization(username: credential.user, password: credential.password)
                }
                type = .http(connectHeaders: connectHeaders)
            case .socks5:
                type = .socks
            }
            proxySettings = WebSocketProxySettings(host: server.host, port: server.port, type: type, timeout: connectTimeout)
        }
        // The library's client is not Sendable: it is made where it runs.
        let connect: @Sendable () async throws -> WebSocketCloseFrame? = { [configuration, tls, proxySettings] in
            let client = if let proxySettings {
                WebSocketClient(url: urlText, configuration: configuration, tlsConfiguration: tls, proxySettings: proxySettings,
                                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger, handler: handler)
            } else {
                WebSocketClient(url: urlText, configuration: configuration, tlsConfiguration: tls,
                                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger, handler: handler)
            }
            return try await client.run()
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
            throw Self.transportError(error, proxy: route.server, limits: limits)
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
    static func transportError(_ error: any Error, proxy: ProxyServer?, limits: WebSocketLimits) -> TransportError {
        if let error = error as? TransportError { return error }
        if let timeout = error as? WebSocketCloseTimeout {
            return TransportError(.timedOut(.idle, seconds: timeout.seconds))
        }
        if let error = error as? WebSocketClientError {
            let proxyName = proxy.map { "the proxy \($0.address)" } ?? "the proxy"
            switch error {
            case .webSocketUpgradeFailed:
                return TransportError(.badResponse("the server did not switch to WebSocket (it answered the upgrade request with something other than 101 Switching Protocols)"))
            case .serverSentMessageTooLarge:
                return TransportError(.limitExceeded("the server sent a WebSocket frame or message over \(limits.maximumMessageBytes) bytes (--max-message-size); the connection was closed with 1009"))
            case .serverSentDataInconsistentWithMessage:
                return TransportError(.badResponse("the server sent a text message that is not UTF-8; the connection was closed with 1007"))
            case .serverProtocolError:
                return TransportError(.badResponse("the server broke the WebSocket protocol; the connection was closed with 1002"))
            case .proxyHandshakeFailed:
                return TransportError(.proxy("\(proxyName) refused to open a tunnel (it answered CONNECT with a status other than 2xx)"))
            case .proxyHandshakeInvalidResponse:
                return TransportError(.proxy("\(proxyName) answered CONNECT with something that is not HTTP"))
            case .proxyHandshakeTimeout:
                return TransportError(.proxy("\(proxyName) did not answer CONNECT in time"))
            case .invalidURL:
                return TransportError(.invalidRequest("the URL has no host"))
            default:
                return TransportError(.other("\(error)"))
            }
        }
        if let error = error as? NIOWebSocketError, error == .invalidFrameLength {
            return TransportError(.limitExceeded("the server sent a WebSocket frame over \(limits.maximumFrameBytes) bytes (--max-message-size)"))
        }
        if error is CancellationError { return TransportError(.cancelled) }
        let underlying = (error as? NIOConnectionError)?.connectionErrors.first?.error ?? error
        if let error = underlying as? NIOSSLExtraError, error == .cannotUseIPAddressInSNI {
            // swift-websocket 1.6 names the host in SNI, which TLS forbids for an address.
            return TransportError(.tls("wss:// to an IP address is not supported by the WebSocket library (it would send the address as the TLS server name); use a host name, such as localhost"))
        }
        return AsyncHTTPClientTransport.transportError(error, idleTimeout: limits.closeTimeout.inSeconds, deadline: nil, proxy: proxy)
    }
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
