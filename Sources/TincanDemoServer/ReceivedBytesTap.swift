import NIOCore
import TincanCore

/// The numbers of a connection's requests whose responses are not written yet, in order; nil
/// for a request that is not recorded (the `/__received` routes). HTTP/1.1 answers in order,
/// so each response takes the first.
final class PendingRequestIDs {
    var ids: [Int?] = []
}

/// Sits before the HTTP/1 decoder (after TLS, when there is one) and records each request's
/// bytes as they arrived into ``ReceivedRequests``, split into requests by ``RequestFramer``.
final class ReceivedBytesTap: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let received: ReceivedRequests
    /// The numbers of the requests read, which ``DemoConnectionHandler`` writes into their responses.
    let pending: PendingRequestIDs
    private let tls: Bool
    private var framer = RequestFramer()
    /// The request being received, when it is recorded.
    private var current: Int?

    init(received: ReceivedRequests, pending: PendingRequestIDs, tls: Bool) {
        self.received = received
        self.pending = pending
        self.tls = tls
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { bytes in
            framer.feed(bytes) { event in
                switch event {
                case .head(let head):
                    if ReceivedRoutes.isReadingRoute(head: head) {
                        current = nil
                    } else {
                        current = received.begin(head: head, remote: Self.remote(context.channel), source: .wire, tls: tls)
                    }
                    pending.ids.append(current)
                case .body(let bytes):
                    if let current { received.append(bytes, to: current) }
                case .end:
                    if let current { received.finish(current, complete: true) }
                    current = nil
                }
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let current { received.finish(current, complete: false) }
        current = nil
        context.fireChannelInactive()
    }

    /// The peer as `address:port` (`[address]:port` for IPv6).
    static func remote(_ channel: any Channel) -> String {
        guard let address = channel.remoteAddress, let ip = address.ipAddress else { return "unknown" }
        let port = address.port.map { ":\($0)" } ?? ""
        return ip.contains(":") ? "[\(ip)]\(port)" : ip + port
    }
}
