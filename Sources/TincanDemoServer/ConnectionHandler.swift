import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// The connection rules Hummingbird leaves to the application, as curl and httpbin expect them.
///
/// - **`Expect: 100-continue`**: the interim `100 Continue` goes out as soon as the head is read,
///   so a client that waits for it (curl does, for a second, before any upload) sends at once.
/// - **`Connection: close` in a response** closes the connection once that response is written
///   (Hummingbird honours it only in the request). With `closesEveryConnection`, every response
///   says so: the demo server then behaves like servers that never keep a connection alive.
final class DemoConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let closesEveryConnection: Bool
    private var closeAfterResponse = false

    init(closesEveryConnection: Bool) {
        self.closesEveryConnection = closesEveryConnection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), head.headerFields[.expect]?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        // An HTTP/2 stream (a child of the connection's channel) sends no Connection header,
        // which HTTP/2 forbids (a route's `Connection: close` is dropped), and has no connection
        // of its own to close.
        case .head(var head) where context.channel.parent != nil:
            head.headerFields[.connection] = nil
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head(var head) where head.status.kind != .informational:
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
