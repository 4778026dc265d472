import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOSOCKS
import NIOSSL
import NIOWebSocket
import WSClient
@_spi(WSInternal) import WSCore

/// The context a conversation's handler is given (the library's own has no public initialiser).
struct WebSocketConversationContext: WebSocketContext {
    let logger: Logger
}

/// One WebSocket connection's channel, set up as swift-websocket's own client channel sets up
/// its (the proxy's tunnel, TLS, the HTTP upgrade), with two differences that its
/// `WebSocketClient` leaves no way to ask for:
///
/// - An IP address is not sent as the TLS server name (RFC 6066 §3 allows host names only, and
///   NIOSSL refuses to): with no name, NIOSSL checks the certificate against the address the
///   connection reached, so an IP address SAN is still verified.
/// - The `101 Switching Protocols` answer's header fields are handed to ``onUpgrade``, so its
///   `Set-Cookie` reaches the cookie jar as any response's does.
///
/// The conversation itself is the library's (`WebSocketHandler`: frames, pings, the close
/// handshake).
struct WebSocketChannel: ClientConnectionChannel {
    enum Upgrade: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    typealias Value = EventLoopFuture<Upgrade>

    /// How to reach the server through a proxy: CONNECT (with its header fields) or SOCKS5.
    enum Tunnel: Sendable {
        case http(connectHeaders: NIOHTTP1.HTTPHeaders)
        case socks
    }

    /// The server's host as the URL names it (an IPv6 address without brackets) and port.
    var host: String
    var port: Int
    /// The request line's target: the path and the query.
    var target: String
    /// The upgrade request's header fields, Host and Origin first; the upgrader adds its own.
    var headers: NIOHTTP1.HTTPHeaders
    var sslContext: NIOSSLContext?
    var tunnel: Tunnel?
    var proxyTimeout: TimeAmount
    var maxFrameSize: Int
    var closeTimeout: Duration
    var handler: WebSocketDataHandler<WebSocketConversationContext>
    /// Called with the 101 answer's header fields, on the channel's event loop.
    var onUpgrade: @Sendable (NIOHTTP1.HTTPHeaders) -> Void

    /// The TLS server name for `host`: nil for an IP address (RFC 6066 §3).
    static func serverName(for host: String) -> String? {
        host.isIPAddress ? nil : host
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard let tunnel else {
            return channel.eventLoop.makeCompletedFuture { try upgrade(channel) }
        }
        let connected = channel.eventLoop.makePromise(of: Void.self)
        let deadline = NIODeadline.now() + proxyTimeout
        let (host, port) = (self.host, self.port)
        // The setup's future completes now with the upgrade's, which waits for the tunnel: the
        // connection is made only once the setup's future has completed.
        return channel.eventLoop.makeCompletedFuture {
            let operations = channel.pipeline.syncOperations
            let open: EventLoopFuture<Void>
            switch tunnel {
            case .http(let connectHeaders):
                try operations.addHandler(HTTPRequestEncoder(), name: "ProxyRequestEncoder")
                try operations.addHandler(ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes)), name: "ProxyResponseDecoder")
                try operations.addHandler(NIOHTTP1ProxyConnectHandler(targetHost: host, targetPort: port, headers: connectHeaders, deadline: deadline, promise: connected))
                // Once the tunnel is open its HTTP handlers go, and the WebSocket's own come.
                open = connected.futureResult.flatMap {
                    channel.pipeline.removeHandler(name: "ProxyRequestEncoder")
                }.flatMap {
                    channel.pipeline.removeHandler(name: "ProxyResponseDecoder")
                }
            case .socks:
                try operations.addHandler(SOCKSClientHandler(targetAddress: .domain(host, port: port)))
                try operations.addHandler(SOCKSEstablished(promise: connected), name: "SOCKSEstablished")
                let timeout = channel.eventLoop.scheduleTask(deadline: deadline) { connected.fail(WebSocketChannelError.socksTimeout) }
                open = connected.futureResult.always { _ in timeout.cancel() }.flatMap {
                    channel.pipeline.removeHandler(name: "SOCKSEstablished")
                }
            }
            return open.flatMap {
                do {
                    return try upgrade(channel)
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        }
    }

    /// TLS (when the URL is wss), then the HTTP upgrade request; the future completes with the
    /// WebSocket channel once the server has switched protocols, or `.refused`.
    private func upgrade(_ channel: any Channel) throws -> Value {
        let onUpgrade = self.onUpgrade
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxFrameSize) { channel, head in
            channel.eventLoop.makeCompletedFuture {
                onUpgrade(head.headers)
                return .webSocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
            }
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
        let upgrades = NIOTypedHTTPClientUpgradeConfiguration(upgradeRequestHead: head, upgraders: [upgrader]) { channel in
            channel.eventLoop.makeCompletedFuture { .refused }
        }
        var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrades)
        configuration.leftOverBytesStrategy = .forwardBytes
        if let sslContext {
            let tls = try NIOSSLClientHandler(context: sslContext, serverHostname: Self.serverName(for: host))
            try channel.pipeline.syncOperations.addHandler(tls, position: .first)
        }
        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: configuration)
    }

    func handle(value: Value, logger: Logger) async throws -> WebSocketCloseFrame? {
        switch try await value.get() {
        case .webSocket(let channel):
            let configuration = WebSocketHandler.Configuration(extensions: [], autoPing: .disabled, closeTimeout: closeTimeout, validateUTF8: true,
                                                               maxFrameSize: maxFrameSize)
            return try await WebSocketHandler.handle(type: .client, configuration: configuration, asyncChannel: channel,
                                                     context: WebSocketConversationContext(logger: logger), handler: handler)
        case .refused:
            throw WebSocketChannelError.upgradeRefused
        }
    }
}

/// Why the channel gave up before the conversation.
enum WebSocketChannelError: Error {
    /// The SOCKS5 tunnel did not open in time.
    case socksTimeout
    /// The server answered the upgrade request with something other than 101.
    case upgradeRefused
}

/// Fulfils a promise when NIOSOCKS says the SOCKS5 tunnel is open, or fails it with the
/// handshake's error.
private final class SOCKSEstablished: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let promise: EventLoopPromise<Void>

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is SOCKSProxyEstablishedEvent { promise.succeed(()) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}
