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
