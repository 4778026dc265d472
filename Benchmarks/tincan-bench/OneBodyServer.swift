import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A loopback HTTP/1.1 server that answers every request with one body, for a bench that needs a
/// response of a size and type the demo server has no route for.
final class OneBodyServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let responses: ResponseCount

    /// How many responses it has sent.
    var served: Int { responses.value.load(ordering: .acquiring) }

    private init(port: Int, channel: any Channel, responses: ResponseCount) {
        self.port = port
        self.channel = channel
        self.responses = responses
    }

    /// Starts it on 127.0.0.1 and a free port.
    static func start(body: [UInt8], contentType: String) async throws -> OneBodyServer {
        let buffer = ByteBuffer(bytes: body)
        let responses = ResponseCount()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Responder(body: buffer, contentType: contentType, responses: responses))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return OneBodyServer(port: channel.localAddress?.port ?? 0, channel: channel, responses: responses)
    }

    /// Closes the listening socket.
    func stop() {
        channel.close(promise: nil)
    }

    private final class ResponseCount: Sendable {
        let value = Atomic<Int>(0)
    }

    private final class Responder: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let body: ByteBuffer
        let contentType: String
        let responses: ResponseCount

        init(body: ByteBuffer, contentType: String, responses: ResponseCount) {
            self.body = body
            self.contentType = contentType
            self.responses = responses
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            var head = HTTPResponseHead(version: .http1_1, status: .ok)
            head.headers.add(name: "Content-Type", value: contentType)
            head.headers.add(name: "Content-Length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            responses.value.add(1, ordering: .releasing)
        }
    }
}
