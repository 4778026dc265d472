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
///
/// On the way out it follows the frames the HTTP/2 handler writes (each write starts a frame or
/// goes on with one) and tells the connection's ``HTTP2ConnectionGuard`` when one is a GOAWAY
/// with an error code: the handler has met a connection error, which it reports next. Once the
/// guard has ended the connection, nothing more is read into the HTTP/2 handler.
///
/// No upstream issue is known for the decoder's buffer (swift-nio-http2 #444 discards read bytes
/// only while CONTINUATION frames accumulate); swift-nio-http2 is pinned to 1.46.0 in
/// Package.swift, so an upgrade re-checks this first.
final class HTTP2ReadAligner: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The connection's guard, or nil (the aligner alone, in tests).
    private let connectionGuard: HTTP2ConnectionGuard?

    /// Payload bytes of the frame being written that are still to come.
    private var outboundLeft = 0
    /// The header of the frame being written, while its bytes come.
    private var outboundHeader: [UInt8] = []
    /// A GOAWAY's first eight payload bytes (last stream, error code), while they come.
    private var goAwayPayload: [UInt8]?

    init(connectionGuard: HTTP2ConnectionGuard? = nil) {
        self.connectionGuard = connectionGuard
    }

    /// The length of a frame header (RFC 9113 §4.1).
    static let headerLength = 9

    /// Bytes of the current frame's payload still to come.
    private var payloadLeft = 0
    /// How many bytes of the next frame's header have been seen, while it straddles reads.
    private var headerSeen = 0
    /// The payload length read from those bytes so far (the header's first three bytes).
    private var partialLength = 0
    /// The frame type, once the header's fourth byte has been seen.
    private var partialType: UInt8 = 0
    /// The stream identifier's bytes ORed together: zero for the connection's own frames.
    private var partialStream: UInt8 = 0
    /// The start of a GOAWAY frame's payload while it passes, and how much of it is kept.
    private var goAwayBytes: [UInt8]?
    private var goAwayLength = 0
    /// A GOAWAY's payload start (last stream, error code, debug data), once it has passed.
    private var receivedGoAway: [UInt8]?
    /// The most debug data of a GOAWAY kept for the message.
    static let goAwayDebugLimit = 256

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A connection that met a connection error is closing: what the server still sends is dropped.
        if connectionGuard?.failure != nil { return }
        var buffer = unwrapInboundIn(data)
        let boundary = advance(over: buffer)
        if let goAway = receivedGoAway {
            receivedGoAway = nil
            let code = goAway[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if code != 0, let connectionGuard {
                // Every request fails with the server's reason before the HTTP/2 handler reads
                // the GOAWAY and closes their streams with a reason of its own.
                connectionGuard.serverEnded(code: code, debug: Array(goAway.dropFirst(8)))
                return
            }
        }
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
                if var kept = goAwayBytes {
                    let wanted = min(taken, goAwayLength - kept.count)
                    kept += buffer.getBytes(at: buffer.readerIndex + offset, length: wanted) ?? []
                    if kept.count == goAwayLength {
                        receivedGoAway = kept
                        goAwayBytes = nil
                    } else {
                        goAwayBytes = kept
                    }
                }
                payloadLeft -= taken
                offset += taken
                if payloadLeft == 0 { boundary = offset }
                continue
            }
            // A header, perhaps begun in an earlier read; its first three bytes are the length,
            // the fourth the type, the last four the stream.
            while headerSeen < Self.headerLength, offset < count {
                if let byte = buffer.getInteger(at: buffer.readerIndex + offset, as: UInt8.self) {
                    if headerSeen < 3 { partialLength = partialLength << 8 | Int(byte) }
                    if headerSeen == 3 { partialType = byte }
                    if headerSeen > 4 { partialStream |= byte }
                }
                headerSeen += 1
                offset += 1
            }
            guard headerSeen == Self.headerLength else { break }
            payloadLeft = partialLength
            // A GOAWAY (type 0x7, on stream 0, with its last stream and error code at least):
            // its start is kept as it passes, for the connection's guard.
            if connectionGuard != nil, partialType == 0x7, partialStream == 0, partialLength >= 8 {
                goAwayBytes = []
                goAwayLength = min(partialLength, 8 + Self.goAwayDebugLimit)
            }
            headerSeen = 0
            partialLength = 0
            partialType = 0
            partialStream = 0
            if payloadLeft == 0 { boundary = offset }
        }
        return boundary
    }
}

// MARK: - Frames going out

extension HTTP2ReadAligner {
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if connectionGuard != nil, case .byteBuffer(let buffer) = unwrapOutboundIn(data) { follow(outbound: buffer) }
        context.write(data, promise: promise)
    }

    /// Follows the frames through one write: a DATA frame's payload is passed over by its length,
    /// so the cost is a subtraction per write.
    private func follow(outbound buffer: ByteBuffer) {
        var bytes = buffer.readableBytesView[...]
        while !bytes.isEmpty {
            if outboundLeft > 0 {
                let taken = min(outboundLeft, bytes.count)
                if var payload = goAwayPayload {
                    payload += bytes.prefix(min(taken, 8 - payload.count))
                    goAwayPayload = payload
                    if payload.count == 8 {
                        let code = payload[4...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                        if code != 0 { connectionGuard?.goAwaySent = code }
                        goAwayPayload = nil
                    }
                }
                bytes = bytes.dropFirst(taken)
                outboundLeft -= taken
                continue
            }
            let needed = Self.headerLength - outboundHeader.count
            outboundHeader += bytes.prefix(needed)
            bytes = bytes.dropFirst(needed)
            guard outboundHeader.count == Self.headerLength else { break }
            outboundLeft = Int(outboundHeader[0]) << 16 | Int(outboundHeader[1]) << 8 | Int(outboundHeader[2])
            // Frame type 0x7 is GOAWAY (RFC 9113 §6.8).
            goAwayPayload = outboundHeader[3] == 0x7 && outboundLeft >= 8 ? [] : nil
            outboundHeader.removeAll(keepingCapacity: true)
        }
    }
}
