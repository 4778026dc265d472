import HTTPTypes
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import TincanCore

/// `/ws`: a WebSocket echo (RFC 6455), for `tincan ws`, WebSocket requests in sessions and
/// lessons, and tests. Each text or binary message comes back as it was sent, a message at most
/// ``maximumMessageBytes``; the server answers a close with the same code.
///
/// Hummingbird upgrades a connection only on its first request, before its router sees it, so
/// the upgrade is decided here: a `GET /ws` whose `Host` is one of the server's names
/// (``DemoHostPolicy``, as the router's `HostCheckMiddleware` decides) is upgraded; any other
/// upgrade request gets 400 and the connection closes.
///
/// `/ws?set-cookie=NAME%3DVALUE` (repeatable) answers the upgrade with that `Set-Cookie`, as
/// `/cookies/set` does over HTTP, so clients can show they keep a cookie set on the 101.
enum WebSocketEcho {
    /// The path the echo answers.
    static let path = "/ws"
    /// The largest message echoed; a bigger one closes the connection with 1009.
    static let maximumMessageBytes = 1 << 20

    /// The HTTP/1.1 server with the WebSocket upgrade, and what it received recorded as the
    /// plain HTTP/1.1 server records it (``DemoWebSocketChannel``).
    static func server(connection: HTTP1Channel.Configuration, received: ReceivedRequests, tls: Bool, hosts: DemoHostPolicy, bound: BoundPort) -> HTTPServerBuilder {
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: connection, ws: WebSocketServerConfiguration(maxFrameSize: maximumMessageBytes))
        return HTTPServerBuilder { responder in
            DemoWebSocketChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration) { request, channel, _ in
                    // What was recorded of the connection is its upgrade request; frames are not HTTP.
                    if let tap = try? channel.pipeline.syncOperations.handler(type: ReceivedBytesTap.self) {
                        channel.pipeline.syncOperations.removeHandler(tap, promise: nil)
                    }
                    let parts = (request.path ?? "").split(separator: "?", maxSplits: 1)
                    guard parts.first.map(String.init) == Self.path, let authority = request.authority,
                          hosts.accepts(authority, port: bound.port, secure: tls) else { return .dontUpgrade }
                    var answer = HTTPFields()
                    for (name, value) in OAuth2Form.decode(parts.count > 1 ? parts[1] : "") where name == "set-cookie" {
                        answer.append(HTTPField(name: .setCookie, value: value))
                    }
                    return .upgrade(answer) { inbound, outbound, _ in
                        for try await message in inbound.messages(maxSize: maximumMessageBytes) {
                            switch message {
                            case .text(let text): try await outbound.write(.text(text))
                            case .binary(let bytes): try await outbound.write(.binary(bytes))
                            }
                        }
                    }
                },
                received: received, tls: tls)
        }
    }
}

/// Hummingbird's HTTP/1.1 channel with the WebSocket upgrade, with a ``ReceivedBytesTap`` put
/// before its HTTP decoder as the connection starts: the channel adds the application's own
/// handlers only once the first request has been read (and found not to be an upgrade), too
/// late for the tap to see its bytes. ``DemoConnectionHandler`` then shares this tap.
struct DemoWebSocketChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let received: ReceivedRequests
    let tls: Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            if let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
                try operations.addHandler(ReceivedBytesTap(received: received, pending: PendingRequestIDs(), tls: tls), position: .before(decoder))
            }
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
