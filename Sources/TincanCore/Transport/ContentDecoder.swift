import CZlib
import Foundation
import NIOCore

/// How far a compressed response body may grow when it is decoded.
///
/// A few megabytes of gzip can inflate to gigabytes (a "zip bomb"); both limits stop that before
/// memory or disk fills, whatever the body is decoded into.
public struct DecompressionLimits: Sendable, Hashable {
    /// The most decoded bytes for every encoded byte, checked once the decoded body passes
    /// ``ratioFloor`` (small bodies of repeated text can legitimately shrink more).
    public var ratio: Int
    /// The most decoded bytes in all, or nil for no limit.
    public var maximumBytes: Int64?

    /// Decoded bodies smaller than this are never refused for their ratio.
    public static let ratioFloor: Int64 = 8 << 20

    /// The defaults: 200 decoded bytes per encoded byte, 4 GiB at the most.
    public static let standard = DecompressionLimits(ratio: 200, maximumBytes: 4 << 30)

    /// Creates limits.
    public init(ratio: Int, maximumBytes: Int64?) {
        self.ratio = ratio
        self.maximumBytes = maximumBytes
    }
}

/// Decodes a gzip or deflate response body as its chunks arrive, within ``DecompressionLimits``.
///
/// AsyncHTTPClient's own decompression takes one limit (a ratio or a size, not both) and counts
/// decoded bytes against the compressed length in its progress; decoding here keeps both limits
/// and lets progress count the bytes on the wire. Used on one event loop only.
final class ContentDecoder {
    private var stream = z_stream()
    private let limits: DecompressionLimits
    /// Whether the body is a raw deflate stream (some servers send `deflate` without zlib's header).
    private var raw = false
    /// Whether the coding is gzip, whose members may follow one another.
    private let isGzip: Bool
    /// The stream ended; anything after it is not part of the body.
    private var ended = false
    /// The last byte taken in ended a stream (a gzip member), so the body may end here.
    private var atStreamEnd = false
    private var started = false
    /// Encoded bytes taken in.
    private(set) var encoded: Int64 = 0
    /// Decoded bytes given out.
    private(set) var decoded: Int64 = 0

    /// Whether a body with this `Content-Encoding` is decoded (gzip or deflate).
    static func decodes(_ contentEncoding: String?) -> Bool {
        guard let coding = contentEncoding?.trimmingWhitespace().lowercased() else { return false }
        return ["gzip", "x-gzip", "deflate"].contains(coding)
    }

    /// A decoder for `contentEncoding`, or nil when the body is not gzip or deflate (identity,
    /// or a coding Tincan does not ask for, whose bytes are kept as they came).
    init?(contentEncoding: String?, limits: DecompressionLimits) {
        guard Self.decodes(contentEncoding) else { return nil }
        self.limits = limits
        self.isGzip = contentEncoding?.trimmingWhitespace().lowercased() != "deflate"
        // 15 + 32: zlib detects the gzip or zlib header by itself.
        guard czlib_inflate_init(&stream, 15 + 32) == Z_OK else { return nil }
    }

    deinit { inflateEnd(&stream) }

    /// Decodes one chunk, handing the decoded bytes to `emit` in pieces of up to 64 KiB.
    ///
    /// - Throws: ``TransportError`` when the bytes are not valid for their coding or a limit is passed.
    func decode(_ input: ByteBuffer, emit: (ByteBuffer) throws -> Void) throws {
        // Counted as zlib takes the bytes in, not per chunk: one large read would otherwise raise
        // the ratio limit by its whole size before a byte of it had been decoded.
        let encodedBefore = encoded
        guard !ended else { return }
        // zlib never writes through next_in, so the buffer is read in place, not copied.
        try input.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress.map({ UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }) else { return }
            stream.next_in = base
            stream.avail_in = uInt(bytes.count)
            while stream.avail_in > 0 {
                atStreamEnd = false
                var output = ByteBufferAllocator().buffer(capacity: 64 * 1024)
                var status: Int32 = Z_OK
                output.writeWithUnsafeMutableBytes(minimumWritableBytes: 64 * 1024) { out in
                    stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(out.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                if status == Z_DATA_ERROR, !started, !raw, !isGzip, encodedBefore == 0 {
                    // Not a zlib stream: try raw deflate from the first byte.
                    raw = true
                    inflateEnd(&stream)
                    stream = z_stream()
                    guard czlib_inflate_init(&stream, -15) == Z_OK else { throw Self.invalid("deflate") }
                    stream.next_in = base
                    stream.avail_in = uInt(bytes.count)
                    continue
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw Self.invalid(stream.msg.map { String(cString: $0) } ?? "status \(status)")
                }
                if output.readableBytes > 0 {
                    started = true
                    decoded += Int64(output.readableBytes)
                    encoded = encodedBefore + Int64(bytes.count - Int(stream.avail_in))
                    try check()
                    try emit(output)
                }
                if status == Z_STREAM_END {
                    // gzip allows several members one after another, in this chunk or the next;
                    // after a zlib or raw deflate stream, nothing more belongs to the body.
                    atStreamEnd = true
                    guard isGzip, inflateReset(&stream) == Z_OK else {
                        ended = true
                        break
                    }
                } else if status == Z_BUF_ERROR, output.readableBytes == 0 {
                    break
                }
            }
            encoded = encodedBefore + Int64(bytes.count - Int(stream.avail_in))
        }
    }

    /// Checks that the body ended where its compressed stream did.
    ///
    /// - Throws: ``TransportError`` for a body cut inside its stream, which would otherwise pass
    ///   as a shorter body.
    func finish() throws {
        guard encoded > 0, !ended, !atStreamEnd else { return }
        throw Self.invalid("the body ended inside its compressed stream (truncated after \(RequestPreview.byteCount(encoded)))")
    }

    private func check() throws {
        if let maximum = limits.maximumBytes, decoded > maximum {
            throw TransportError(.limitExceeded("the compressed body decodes to more than \(RequestPreview.byteCount(maximum)), the decompression limit"))
        }
        if decoded > DecompressionLimits.ratioFloor, decoded / max(encoded, 1) > Int64(limits.ratio) {
            throw TransportError(.limitExceeded("the compressed body decodes to more than \(limits.ratio) times its size (\(RequestPreview.byteCount(encoded)) became over \(RequestPreview.byteCount(decoded))), the decompression ratio limit"))
        }
    }

    private static func invalid(_ detail: String) -> TransportError {
        TransportError(.badResponse("the compressed body cannot be decoded: \(detail)"))
    }
}
