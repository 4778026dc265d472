import NIOCore
import NIOEmbedded
import Testing
@testable import TincanCore

/// Frames of the given payload lengths, as a server would send them, with the offsets where each ends.
private func frames(_ lengths: [Int]) -> (bytes: [UInt8], ends: Set<Int>) {
    var bytes: [UInt8] = []
    var ends: Set<Int> = []
    for (index, length) in lengths.enumerated() {
        // Length (24 bits), type DATA, no flags, stream 1.
        bytes += [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), 0, 0, 0, 0, 0, 1]
        bytes += [UInt8](repeating: UInt8(index & 0xFF), count: length)
        ends.insert(bytes.count)
    }
    return (bytes, ends)
}

@Suite("The HTTP/2 read aligner")
struct HTTP2ReadAlignerTests {
    @Test("each read is cut where its last complete frame ends, wherever the reads fall")
    func cutsAtTheLastFrameEnd() {
        // DATA frames of 16,384 bytes read 16,384 bytes at a time (a TLS record each): no frame
        // ends where a read does, which is what made the decoder's buffer grow.
        for (lengths, readSize) in [(Array(repeating: 16_384, count: 40), 16_384), ([0, 5, 16_384, 1, 0, 300, 70_000, 9], 7), ([3, 16_384, 2], 1), ([100, 200], 100_000)] {
            let (bytes, ends) = frames(lengths)
            let aligner = HTTP2ReadAligner()
            var start = 0
            while start < bytes.count {
                let end = min(start + readSize, bytes.count)
                let boundary = aligner.advance(over: ByteBuffer(bytes: bytes[start..<end]))
                let expected = ends.filter { $0 > start && $0 <= end }.max().map { $0 - start } ?? 0
                #expect(boundary == expected, "read \(start)..<\(end) of frames \(lengths.prefix(4))")
                start = end
            }
        }
    }

    @Test("a read is passed on as its complete frames, then the rest, and no byte is lost")
    func passesEveryByteOn() throws {
        let (bytes, _) = frames([16_384, 16_384, 16_384])
        let channel = EmbeddedChannel(handler: HTTP2ReadAligner())
        var received: [[UInt8]] = []
        for start in stride(from: 0, to: bytes.count, by: 16_384) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + 16_384, bytes.count)]))
            while let part = try channel.readInbound(as: ByteBuffer.self) { received.append(Array(part.readableBytesView)) }
        }
        #expect(received.flatMap { $0 } == bytes)
        // The first read holds no complete frame; the second completes the first frame 9 bytes in
        // and is cut there; the third completes the second frame 18 bytes in; the last ends on a boundary.
        #expect(received.map(\.count) == [16_384, 9, 16_375, 18, 16_366, 27])
        _ = try channel.finish()
    }
}

/// Holds back every close, as TLS does while it waits for the peer's `close_notify`.
private final class ClosingExchange: ChannelOutboundHandler {
    typealias OutboundIn = Any
    private(set) var heldCloses = 0

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        heldCloses += 1
    }
}

@Suite("The HTTP/2 connection guard")
struct HTTP2ConnectionGuardTests {
    @Test("a connection error closes the socket at once, below a TLS handler that would wait for the server's close_notify, reading all the while")
    func closesBelowTLS() throws {
        let channel = EmbeddedChannel()
        let closer = SocketCloser()
        let exchange = ClosingExchange()
        let guardHandler = HTTP2ConnectionGuard(headerListLimit: HTTP2ConnectionGuard.defaultHeaderListLimit, closer: closer)
        try channel.pipeline.syncOperations.addHandler(closer)
        try channel.pipeline.syncOperations.addHandler(exchange)
        try channel.pipeline.syncOperations.addHandler(guardHandler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        #expect(channel.isActive)

        guardHandler.serverEnded(code: 0x1, debug: Array("bye".utf8))

        #expect(!channel.isActive, "the socket is closed though the handler above it holds closes back")
        #expect(exchange.heldCloses == 0, "the close did not go through the TLS handler")
        #expect(guardHandler.failure == HTTP2ConnectionError(side: .server, code: "PROTOCOL_ERROR", detail: "bye"))
    }

    @Test("a guard whose closer is in no pipeline closes the connection through its own pipeline position")
    func closesThroughItsPipelineWithoutACloser() throws {
        let channel = EmbeddedChannel()
        let guardHandler = HTTP2ConnectionGuard(headerListLimit: HTTP2ConnectionGuard.defaultHeaderListLimit)
        try channel.pipeline.syncOperations.addHandler(guardHandler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()

        guardHandler.serverEnded(code: 0xB, debug: [])

        #expect(!channel.isActive)
    }
}
