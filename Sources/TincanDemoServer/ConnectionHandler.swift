import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import TincanCore

/// The connection rules Hummingbird leaves to the application, as curl and httpbin expect them.
///
/// - **`Expect: 100-continue`**: the interim `100 Continue` goes out as soon as the head is read,
///   so a client that waits for it (curl does, for a second, before any upload) sends at once.
/// - **`Connection: close` in a response** closes the connection once that response is written
///   (Hummingbird honours it only in the request). With `closesEveryConnection`, every response
///   says so: the demo server then behaves like servers that never keep a connection alive.
/// - **What was received**: over HTTP/1 it puts a ``ReceivedBytesTap`` before the HTTP decoder,
///   which records each request's bytes; over HTTP/2 (a stream's channel) it records the decoded
///   head and body itself. Each response then names its request in `X-Tincan-Request-Id`.
final class DemoConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let closesEveryConnection: Bool
    private var closeAfterResponse = false
    private let received: ReceivedRequests
    private let tls: Bool
    private var pending = PendingRequestIDs()
    /// The HTTP/2 request being received, when it is recorded.
    private var http2Request: Int?
    /// Whether the handler serves an HTTP/2 stream (a channel with no HTTP/1 decoder) rather
    /// than an HTTP/1 connection. (Both channels have a parent: the stream's connection, or the
    /// listening socket.)
    private var isHTTP2Stream = false

    init(closesEveryConnection: Bool, received: ReceivedRequests, tls: Bool) {
        self.closesEveryConnection = closesEveryConnection
        self.received = received
        self.tls = tls
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // An HTTP/2 stream has no HTTP/1 decoder: its requests are recorded as decoded parts.
        let operations = context.pipeline.syncOperations
        guard let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) else {
            isHTTP2Stream = true
            return
        }
        // The WebSocket-upgrading channel put its tap there as the connection started (``DemoWebSocketChannel``).
        if let tap = try? operations.handler(type: ReceivedBytesTap.self) {
            pending = tap.pending
            return
        }
        try? operations.addHandler(ReceivedBytesTap(received: received, pending: pending, tls: tls), position: .before(decoder))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head(let head) = part, head.headerFields[.expect]?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPTypes.HTTPResponse(status: .continue))), promise: nil)
        }
        if isHTTP2Stream { recordHTTP2(part, context: context) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let http2Request { received.finish(http2Request, complete: false) }
        http2Request = nil
        context.fireChannelInactive()
    }

    /// Records an HTTP/2 request's parts: the head as `name: value` lines, pseudo-header fields
    /// first (HPACK leaves no HTTP/1.1 text to record), then the DATA bytes.
    private func recordHTTP2(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            var lines = [":method: \(head.method.rawValue)"]
            if let scheme = head.scheme { lines.append(":scheme: \(scheme)") }
            if let authority = head.authority { lines.append(":authority: \(authority)") }
            if let path = head.path { lines.append(":path: \(path)") }
            lines += head.headerFields.map { "\($0.name.rawName): \($0.value)" }
            let text = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
            http2Request = ReceivedRoutes.isReadingRoute(target: head.path ?? "")
                ? nil
                : received.begin(head: text, remote: ReceivedBytesTap.remote(context.channel), source: .http2Decoded, tls: tls)
            pending.ids.append(http2Request)
        case .body(let buffer):
            if let http2Request { buffer.withUnsafeReadableBytes { received.append($0, to: http2Request) } }
        case .end:
            if let http2Request { received.finish(http2Request, complete: true) }
            http2Request = nil
        }
    }

    /// `head` with the number of the request it answers, when that request is recorded.
    private func numbered(_ head: HTTPTypes.HTTPResponse) -> HTTPTypes.HTTPResponse {
        guard !pending.ids.isEmpty else { return head }
        var head = head
        if let id = pending.ids.removeFirst(), let name = HTTPField.Name(ReceivedRequest.idHeader) {
            head.headerFields[name] = String(id)
        }
        return head
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        // An HTTP/2 stream (a child of the connection's channel) sends no Connection header,
        // which HTTP/2 forbids (a route's `Connection: close` is dropped), and has no connection
        // of its own to close.
        case .head(let head) where isHTTP2Stream:
            var head = head.status.kind == .informational ? head : numbered(head)
            head.headerFields[.connection] = nil
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head(let head) where head.status.kind != .informational:
            var head = numbered(head)
            if closesEveryConnection { head.headerFields[.connection] = "close" }
            closeAfterResponse = head.headerFields[.connection]?.lowercased() == "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closeAfterResponse:
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        default:
            context.write(data, promise: promise)
        }
    }
}
