import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

extension TLSDiagnosis {
    /// Why a TLS server closed the connection without answering, when it said so in a TLS alert;
    /// nil when a second look shows no alert.
    ///
    /// A TLS 1.3 server checks the client's certificate after the client has finished its side
    /// of the handshake, and refuses a missing or untrusted one with an alert. Over HTTP/1.1 the
    /// alert reaches the request; over HTTP/2 AsyncHTTPClient reports only that the connection
    /// closed. So the diagnosis connects once more with the same configuration (the same client
    /// certificate and protocols, without checking the server's certificate, which the first
    /// handshake already accepted), sends nothing, and reads what the server sends before it
    /// closes. Such a refusal follows the client's last handshake message at once, so the look
    /// ends ``alertGrace`` after its handshake completes: a server that simply waits for a
    /// request costs that much, not the whole limit.
    ///
    /// - Parameter configuration: The TLS configuration of the refused connection.
    /// - Returns: The error the alert raised, for the caller to put in words.
    static func alert(host: String, port: Int, configuration: TLSConfiguration, eventLoop: any EventLoop, limit: TimeAmount = timeLimit) async -> (any Error)? {
        guard limit > .zero else { return nil }
        guard !Task.isCancelled else { return nil }
        let received = FirstError()
        var configuration = configuration
        configuration.certificateVerification = .none
        do {
            let context = try NIOSSLContext(configuration: configuration)
            let serverName = host.isIPAddress ? nil : host
            let channel = try await connect(host: host, port: port, eventLoop: eventLoop, limit: limit) { channel in
                try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: serverName))
                try channel.pipeline.syncOperations.addHandler(received)
            }
            try await withTaskCancellationHandler {
                try await channel.closeFuture.get()
            } onCancel: {
                channel.close(promise: Optional<EventLoopPromise<Void>>.none)
            }
        } catch {
            return nil
        }
        return received.error
    }

    /// How long the look waits for an alert once its handshake has completed.
    static let alertGrace = TimeAmount.milliseconds(300)

    /// Keeps the first error the pipeline raises, and closes the channel on it.
    private final class FirstError: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let first = Mutex<(any Error)?>(nil)

        /// The first error raised, if any.
        var error: (any Error)? { first.withLock { $0 } }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted? = event as? TLSUserEvent {
                let channel = context.channel
                channel.eventLoop.scheduleTask(in: TLSDiagnosis.alertGrace) { channel.close(promise: Optional<EventLoopPromise<Void>>.none) }
            }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            first.withLock { $0 = $0 ?? error }
            context.close(promise: nil)
        }
    }
}
