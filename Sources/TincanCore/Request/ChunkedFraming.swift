/// HTTP/1.1's chunked transfer coding (RFC 9112 §7.1), read from bytes as they arrived: the one
/// owner of its rules for the demo server's framer and the TUI's Received view.
public enum ChunkedFraming {
    /// The size a chunk-size line gives (hex digits, then optional `;` extensions or
    /// whitespace; the line without its CRLF), or nil when it is not one or overflows.
    public static func size(ofLine line: some Collection<UInt8>) -> Int? {
        var size = 0
        var digits = 0
        for byte in line {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            case UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t"):
                return digits > 0 ? size : nil
            default:
                return nil
            }
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            guard !overflow else { return nil }
            size = shifted + digit
            digits += 1
        }
        return digits > 0 ? size : nil
    }

    /// A whole chunked body's data and its number of chunks (the last, empty one not counted),
    /// or nil when the framing does not read or the body ends early.
    public static func decode(_ bytes: [UInt8]) -> (data: [UInt8], chunks: Int)? {
        var data: [UInt8] = []
        var index = 0
        var chunks = 0
        while let lineEnd = bytes[index...].firstIndex(of: 0x0A) {
            let line = bytes[index..<lineEnd]
            guard let size = Self.size(ofLine: line.last == 0x0D ? line.dropLast() : line) else { return nil }
            index = lineEnd + 1
            if size == 0 { return (data, chunks) }
            guard bytes.count - index >= size else { return nil }
            data += bytes[index..<(index + size)]
            chunks += 1
            index += size
            // The CRLF after the data.
            guard let end = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            index = end + 1
        }
        return nil
    }
}
