import Foundation
import NIOCore
import NIOPosix

/// Says what a proxy answered when it refused a tunnel.
///
/// AsyncHTTPClient reports every refusal of `CONNECT` other than 407 as one error, without the
/// status. After such a refusal, the diagnosis asks the proxy once more for the same tunnel and
/// reads the status line of its answer (nothing reaches the target: the proxy refused).
enum ProxyDiagnosis {
    /// The longest the second request may take.
    static let timeLimit = TimeAmount.seconds(5)

    /// The status line (`403 Access denied`) `proxy` answers a `CONNECT` to `target` with, or nil
    /// when it gives none in time.
    static func refusal(by proxy: ProxyServer, target: String, eventLoop: any EventLoop, limit: TimeAmount = timeLimit) async -> String? {
        var head = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let credential = proxy.credential {
            head += "Proxy-Authorization: Basic \(Data("\(credential.user):\(credential.password)".utf8).base64EncodedString())\r\n"
        }
        head += "\r\n"
        let promise = eventLoop.makePromise(of: String?.self)
        do {
            let channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(limit)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(StatusLineReader(promise: promise))
                    }
                }
                .connect(host: proxy.host, port: proxy.port).get()
            let timeout = eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
            channel.writeAndFlush(ByteBuffer(string: head), promise: nil)
            let line = try? await promise.futureResult.get()
            timeout.cancel()
            channel.close(promise: nil)
            return line ?? nil
        } catch {
            promise.succeed(nil)
            return nil
        }
    }

    /// Collects the first line of the answer, then stops.
    private final class StatusLineReader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private var bytes: [UInt8] = []
        private let promise: EventLoopPromise<String?>

        init(promise: EventLoopPromise<String?>) {
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
            guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? (bytes.count > 1024 ? bytes.endIndex : nil) else { return }
            let line = String(decoding: bytes[..<end], as: UTF8.self).trimmingWhitespaceAndNewlines()
            // `HTTP/1.0 403 Access denied` → `403 Access denied`.
            let status = line.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
            promise.succeed(status)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.succeed(nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.succeed(nil)
            context.close(promise: nil)
        }
    }
}
