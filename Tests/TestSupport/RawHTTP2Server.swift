import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A TLS server on loopback that speaks HTTP/2 by hand (ALPN `h2`): it waits for the client's
/// preface and first request, then hands the connection to a script that writes frames built
/// byte by byte, for what no well-behaved server sends (a CONTINUATION flood, an HPACK bomb, a
/// control-frame flood, a GOAWAY with an error).
///
/// The script runs on a thread of its own, so it can write without end: ``Connection/write(_:)``
/// waits for each write and returns false once the client has closed the connection, which is
/// what the tests measure.
public final class RawHTTP2Server: Sendable {
    /// What the script writes to, and what it can see of the client.
    public final class Connection: Sendable {
        private let channel: any Channel
        private let sent = Mutex(0)
        private let received: Mutex<[UInt8]>

        init(channel: any Channel, received: [UInt8]) {
            self.channel = channel
            self.received = Mutex(received)
        }

        /// Writes `bytes`; false once the connection is closed (then nothing more goes out).
        @discardableResult
        public func write(_ bytes: [UInt8]) -> Bool {
            guard channel.isActive else { return false }
            do {
                try channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).wait()
                sent.withLock { $0 += bytes.count }
                return true
            } catch {
                return false
            }
        }

        /// Closes the connection from the server's side.
        public func close() { channel.close(promise: nil) }

        /// Whether the client still has the connection open.
        public var isOpen: Bool { channel.isActive }

        /// Bytes written so far.
        public var bytesSent: Int { sent.withLock { $0 } }

        /// Everything the client sent (the preface, its frames), up to now.
        public var bytesReceived: [UInt8] { received.withLock { $0 } }

        private let arrived = DispatchSemaphore(value: 0)

        func append(_ bytes: [UInt8]) {
            received.withLock { $0 += bytes }
            arrived.signal()
        }

        /// Waits until the client has sent `count` HEADERS frames (requests) in all, for at most
        /// `seconds`; true when it has.
        public func waitForRequests(_ count: Int, seconds: Double) -> Bool {
            let deadline = DispatchTime.now() + seconds
            while RawHTTP2Frame.frames(after: RawHTTP2Frame.preface.count, in: bytesReceived).count(where: { $0.type == RawHTTP2Frame.headers }) < count {
                guard arrived.wait(timeout: deadline) == .success else { return false }
            }
            return true
        }

        /// Waits until the client closed the connection, for at most `seconds`; true when it did.
        public func waitForClose(seconds: Double) -> Bool {
            let closed = DispatchSemaphore(value: 0)
            channel.closeFuture.whenComplete { _ in closed.signal() }
            return closed.wait(timeout: .now() + seconds) == .success
        }
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let channel: any Channel
    private let connections = ConnectionList()

    /// The base URL, such as `https://127.0.0.1:40123`.
    public var baseURL: String { "https://127.0.0.1:\(port)" }

    /// The connections accepted so far.
    public var accepted: [Connection] { connections.list.withLock { $0 } }

    /// Starts listening with `certificate`.
    ///
    /// - Parameter script: Run once per connection, on a thread of its own, after the client's
    ///   preface and its first HEADERS frame have arrived (the server has answered its SETTINGS
    ///   with its own and an acknowledgement); the connection closes when it returns.
    public init(certificate: TestCertificate, script: @escaping @Sendable (Connection) -> Void) throws {
        var tls = try certificate.serverConfiguration()
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let connections = self.connections
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(Reader(script: script, connections: connections))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    /// Stops listening and closes every connection.
    public func stop() {
        try? channel.close().wait()
        for connection in accepted { connection.close() }
    }

    /// Reads the client's bytes; once a HEADERS frame has come after the preface, starts the script.
    private final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private var answeredSettings = false
        private let script: @Sendable (Connection) -> Void
        private let connections: ConnectionList
        private var bytes: [UInt8] = []
        private var connection: Connection?

        init(script: @escaping @Sendable (Connection) -> Void, connections: ConnectionList) {
            self.script = script
            self.connections = connections
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            let read = Array(buffer.readableBytesView)
            if let connection {
                connection.append(read)
                return
            }
            bytes += read
            let frames = RawHTTP2Frame.frames(after: RawHTTP2Frame.preface.count, in: bytes)
            if !answeredSettings, frames.contains(where: { $0.type == RawHTTP2Frame.settingsType }) {
                // The server's own SETTINGS and the acknowledgement of the client's: the client
                // sends no request before it has them.
                answeredSettings = true
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: RawHTTP2Frame.serverStart)), promise: nil)
            }
            guard frames.contains(where: { $0.type == RawHTTP2Frame.headers }) else { return }
            let started = Connection(channel: context.channel, received: bytes)
            connection = started
            connections.list.withLock { $0.append(started) }
            let script = self.script
            let channel = context.channel
            Thread {
                script(started)
                channel.close(promise: nil)
            }.start()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

private final class ConnectionList: Sendable {
    let list = Mutex<[RawHTTP2Server.Connection]>([])
}

/// HTTP/2 frames as bytes (RFC 9113 §4.1), for ``RawHTTP2Server``'s scripts.
public enum RawHTTP2Frame {
    public static let data: UInt8 = 0x0
    public static let headers: UInt8 = 0x1
    public static let settingsType: UInt8 = 0x4
    public static let pingType: UInt8 = 0x6
    public static let goAwayType: UInt8 = 0x7
    public static let continuation: UInt8 = 0x9

    public static let endStream: UInt8 = 0x1
    public static let ack: UInt8 = 0x1
    public static let endHeaders: UInt8 = 0x4

    /// What a client sends first.
    public static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// One frame.
    public static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = []) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
                UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
    }

    /// An empty SETTINGS frame (the server's first), and the acknowledgement of the client's,
    /// which the server writes by itself.
    public static let serverStart = frame(type: settingsType) + frame(type: settingsType, flags: ack)

    /// A PING with eight bytes of data.
    public static func ping(_ value: UInt64) -> [UInt8] {
        frame(type: pingType, payload: (0..<8).map { UInt8(value >> (56 - 8 * $0) & 0xFF) })
    }

    /// A GOAWAY naming the last stream and an error code, with debug data.
    public static func goAway(lastStream: UInt32, code: UInt32, debug: [UInt8] = []) -> [UInt8] {
        let words = [lastStream & 0x7FFF_FFFF, code].flatMap { value in (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
        return frame(type: goAwayType, payload: words + debug)
    }

    /// A header block fragment for `:status: 200` (HPACK's static table entry 8).
    public static let status200: [UInt8] = [0x88]

    /// An HPACK literal field with incremental indexing and a new name: it enters the dynamic
    /// table (as index 62), so that later one-byte references to it repeat it.
    public static func indexedLiteral(name: String, value: String) -> [UInt8] {
        [0x40] + string(name) + string(value)
    }

    /// An HPACK string, not Huffman-coded, with its length as HPACK's 7-bit-prefix integer.
    public static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var length = bytes.count
        guard length >= 127 else { return [UInt8(length)] + bytes }
        var encoded: [UInt8] = [127]
        length -= 127
        while length >= 128 {
            encoded.append(UInt8(length % 128 + 128))
            length /= 128
        }
        encoded.append(UInt8(length))
        return encoded + bytes
    }

    /// The frames in `bytes` from `offset`: their type, flags and stream, as far as they are whole.
    public static func frames(after offset: Int, in bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32)] {
        var frames: [(type: UInt8, flags: UInt8, stream: UInt32)] = []
        var index = offset
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            guard index + 9 + length <= bytes.count else { break }
            let stream = bytes[(index + 5)...(index + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            frames.append((bytes[index + 3], bytes[index + 4], stream))
            index += 9 + length
        }
        return frames
    }
}
