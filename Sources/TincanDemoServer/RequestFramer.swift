import Foundation
import TincanCore

/// Finds where each HTTP/1.1 request starts and ends in a connection's bytes (RFC 9112 §6:
/// Transfer-Encoding chunked, else Content-Length, else no body), wherever reads split them, so
/// the bytes a client sent can be told apart request by request (keep-alive, pipelining).
///
/// It only frames: the HTTP decoder after it still judges the requests. Framing it cannot read
/// (a bad Content-Length, a coding other than chunked, a head past ``headLimit``) makes the rest
/// of the connection the current request's body, as the decoder will refuse the request and
/// close the connection.
struct RequestFramer {
    /// What the bytes fed so far showed.
    enum Event {
        /// A request's head is complete: these bytes, line ends and the empty line included.
        case head([UInt8])
        /// Bytes of the current request's body, as they arrived (chunk framing included).
        case body(Slice<UnsafeRawBufferPointer>)
        /// The current request ended.
        case end
    }

    private enum State {
        /// Between requests: empty lines before a request line are skipped (RFC 9112 §2.2).
        case idle
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case unframed
    }

    /// The longest head read; NIO's decoder refuses far shorter ones (80 KiB of fields).
    static let headLimit = 256 * 1024
    /// The longest chunk-size or trailer line read.
    static let lineLimit = 16 * 1024

    private var state = State.idle
    private var headBytes: [UInt8] = []
    /// The bytes of the chunk-size or trailer line read so far (without its LF).
    private var line: [UInt8] = []

    /// Reads `bytes`, reporting heads, body bytes and ends in order.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ report: (Event) -> Void) {
        var index = 0
        while index < bytes.count {
            switch state {
            case .idle:
                if bytes[index] == 0x0D || bytes[index] == 0x0A {
                    index += 1
                } else {
                    state = .head
                }
            case .head:
                let byte = bytes[index]
                index += 1
                headBytes.append(byte)
                if byte == 0x0A, headEndsHere {
                    let head = headBytes
                    headBytes = []
                    report(.head(head))
                    state = Self.bodyState(for: head)
                    if case .idle = state { report(.end) }
                } else if headBytes.count > Self.headLimit {
                    let head = headBytes
                    headBytes = []
                    report(.head(head))
                    state = .unframed
                }
            case .fixedBody(let remaining):
                let count = min(remaining, bytes.count - index)
                report(.body(bytes[index..<(index + count)]))
                index += count
                if remaining == count {
                    state = .idle
                    report(.end)
                } else {
                    state = .fixedBody(remaining: remaining - count)
                }
            case .chunkData(let remaining):
                let count = min(remaining, bytes.count - index)
                report(.body(bytes[index..<(index + count)]))
                index += count
                state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
            case .chunkSize, .chunkDataEnd, .trailers:
                // Line by line: up to the next LF in this read.
                let start = index
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                let endsLine = index < bytes.count
                if endsLine { index += 1 }
                report(.body(bytes[start..<index]))
                line.append(contentsOf: bytes[start..<(endsLine ? index - 1 : index)])
                if endsLine {
                    lineEnded()
                    if case .idle = state { report(.end) }
                } else if line.count > Self.lineLimit {
                    state = .unframed
                }
            case .unframed:
                report(.body(bytes[index...]))
                index = bytes.count
            }
        }
    }

    /// Whether the head just read ends with an empty line (CRLF CRLF, or bare LFs).
    private var headEndsHere: Bool {
        let count = headBytes.count
        if count >= 2, headBytes[count - 2] == 0x0A { return true }
        return count >= 3 && headBytes[count - 2] == 0x0D && headBytes[count - 3] == 0x0A
    }

    private mutating func lineEnded() {
        if line.last == 0x0D { line.removeLast() }
        defer { line = [] }
        switch state {
        case .chunkSize:
            guard let size = ChunkedFraming.size(ofLine: line) else { state = .unframed; return }
            state = size == 0 ? .trailers : .chunkData(remaining: size)
        case .chunkDataEnd:
            state = line.isEmpty ? .chunkSize : .unframed
        case .trailers:
            if line.isEmpty { state = .idle }
        default:
            break
        }
    }

    /// How the body after `head` is framed (RFC 9112 §6.3): chunked when Transfer-Encoding ends
    /// with it, else Content-Length, else none.
    private static func bodyState(for head: [UInt8]) -> State {
        var transferEncoding: [String] = []
        var lengths: [String] = []
        for line in String(decoding: head, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...]
            let items = value.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
            if name == "transfer-encoding" { transferEncoding += items }
            if name == "content-length" { lengths += items }
        }
        if !transferEncoding.isEmpty { return transferEncoding.last == "chunked" ? .chunkSize : .unframed }
        guard let first = lengths.first else { return .idle }
        guard lengths.allSatisfy({ $0 == first }), first.allSatisfy(\.isASCIIDigit), let length = Int(first) else { return .unframed }
        return length == 0 ? .idle : .fixedBody(remaining: length)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
