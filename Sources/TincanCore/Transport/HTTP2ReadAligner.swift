import NIOCore
import NIOSSL

/// Splits each read of an HTTP/2 connection at its last frame boundary, so that the frame
/// decoder of swift-nio-http2 empties its buffer once per read.
///
/// That decoder (1.46) appends every read to one buffer and starts the buffer afresh only when a
/// frame ends exactly where the bytes read so far end; it never drops the bytes it has parsed.
/// A server whose DATA frames (16,393 bytes with their header) straddle its TLS records (16,384
/// bytes) leaves part of a frame at the end of nearly every read, and the buffer then grows with
/// the download: 1 GiB over HTTP/2 from the demo server peaked at 197 MiB. Given the complete
/// frames of a read first and the partial frame after them, the decoder finds its buffer
/// drained after the first part and starts it afresh.
///
/// Nothing is held back or copied: a read is passed on whole, or as two slices of itself. A
/// handler that starts counting in the middle of a frame only splits reads where no frame ends,
/// which the decoder takes as it takes any read.
final class HTTP2ReadAligner: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The length of a frame header (RFC 9113 §4.1).
    static let headerLength = 9

    /// Bytes of the current frame's payload still to come.
    private var payloadLeft = 0
    /// How many bytes of the next frame's header have been seen, while it straddles reads.
    private var headerSeen = 0
    /// The payload length read from those bytes so far (the header's first three bytes).
    private var partialLength = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let boundary = advance(over: buffer)
        if boundary > 0, boundary < buffer.readableBytes, let complete = buffer.readSlice(length: boundary) {
            context.fireChannelRead(wrapInboundOut(complete))
        }
        context.fireChannelRead(wrapInboundOut(buffer))
    }

    /// Follows the frames through `buffer` and returns the offset, within its readable bytes, of
    /// the last place a frame ends (0 when none ends in it).
    func advance(over buffer: ByteBuffer) -> Int {
        let count = buffer.readableBytes
        var offset = 0
        var boundary = 0
        while offset < count {
            if payloadLeft > 0 {
                let taken = min(payloadLeft, count - offset)
                payloadLeft -= taken
                offset += taken
                if payloadLeft == 0 { boundary = offset }
                continue
            }
            // A header, perhaps begun in an earlier read; its first three bytes are the length.
            while headerSeen < Self.headerLength, offset < count {
                if headerSeen < 3, let byte = buffer.getInteger(at: buffer.readerIndex + offset, as: UInt8.self) {
                    partialLength = partialLength << 8 | Int(byte)
                }
                headerSeen += 1
                offset += 1
            }
            guard headerSeen == Self.headerLength else { break }
            payloadLeft = partialLength
            headerSeen = 0
            partialLength = 0
            if payloadLeft == 0 { boundary = offset }
        }
        return boundary
    }
}

extension HTTP2ReadAligner {
    /// Puts an aligner between the TLS handler and the HTTP/2 handler of a new connection:
    /// AsyncHTTPClient calls this once the connection's settings are exchanged, before any
    /// request uses it.
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            // AsyncHTTPClient speaks HTTP/2 over TLS only; without a TLS handler there is nothing to align.
            guard let tls = try? pipeline.handler(type: NIOSSLClientHandler.self) else { return }
            try pipeline.addHandler(HTTP2ReadAligner(), position: .after(tls))
        }
    }
}
