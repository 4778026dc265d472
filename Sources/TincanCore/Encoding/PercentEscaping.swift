/// Percent-escaping of query-string fields and values, with AFNetworking's rules.
///
/// RFC 3986 section 3.4 lets `?` and `/` stand unescaped in a query, so they stay; every other
/// reserved character (`:#[]@` and `!$&'()*+,;=`) is escaped, as is everything outside the
/// unreserved set. Bytes are escaped as `%XX` with upper-case hex digits of the UTF-8 encoding.
public enum PercentEscaping {
    /// The most UTF-8 bytes one batch holds, unless a single composed character is longer.
    public static let batchSize = 4096

    /// Escapes `string` for use as a query-string field or value.
    ///
    /// Long text is escaped in batches (see ``batches(of:)``) that always end on a composed
    /// character boundary, so an emoji with a skin tone, a flag or a letter with combining marks is
    /// never split between two batches. AFNetworking batches because Apple's escaper failed on long
    /// strings; here the byte-wise escaper could not split a character, and the batches are the
    /// units the explain view shows.
    public static func escape(_ string: String) -> String {
        var output: [UInt8] = []
        append(string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the escaped form of `string` to `output`.
    public static func append(_ string: String, to output: inout [UInt8]) {
        var string = string
        guard string.utf8.count > batchSize else {
            string.withUTF8 { appendEscaped($0, to: &output) }
            return
        }
        var offsets: [Range<Int>] = []
        forEachBatch(of: string) { batch in
            offsets.append(string.utf8.distance(from: string.startIndex, to: batch.lowerBound)
                ..< string.utf8.distance(from: string.startIndex, to: batch.upperBound))
        }
        string.withUTF8 { bytes in
            for range in offsets {
                appendEscaped(UnsafeBufferPointer(rebasing: bytes[range]), to: &output)
            }
        }
    }

    /// The batches `string` is escaped in: ranges of at most ``batchSize`` UTF-8 bytes, each ending
    /// on a composed-character boundary, that together cover the whole string.
    public static func batches(of string: String) -> [Range<String.Index>] {
        var result: [Range<String.Index>] = []
        forEachBatch(of: string) { result.append($0) }
        return result
    }

    /// Walks the batches without building a list: a batch ends `batchSize` bytes on, rounded down
    /// to the start of the composed character there (rounded up when one character is longer).
    private static func forEachBatch(of string: String, _ body: (Range<String.Index>) -> Void) {
        let utf8 = string.utf8
        var start = string.startIndex
        while start < string.endIndex {
            guard let candidate = utf8.index(start, offsetBy: batchSize, limitedBy: string.endIndex), candidate < string.endIndex else {
                body(start..<string.endIndex)
                return
            }
            // index(before:) rounds a position inside a character down to its start and steps back
            // one character; index(after:) then lands on the boundary at or before `candidate`.
            var end = string.index(after: string.index(before: candidate))
            if end <= start { end = string.index(after: start) }
            body(start..<end)
            start = end
        }
    }

    /// Whether `byte` may stand unescaped in a query-string field or value.
    @inlinable
    public static func isAllowed(_ byte: UInt8) -> Bool {
        allowed[Int(byte)]
    }

    /// The escaped form of each composed character that escaping changes, in order of first use.
    ///
    /// For teaching: it answers "which characters were escaped, and into what".
    public static func escapedCharacters(in string: String) -> [(character: Character, escaped: String)] {
        var seen = Set<Character>()
        var result: [(Character, String)] = []
        for character in string where !seen.contains(character) {
            let text = String(character)
            let escaped = escape(text)
            if escaped != text {
                seen.insert(character)
                result.append((character, escaped))
            }
        }
        return result
    }

    /// Escapes `bytes` onto the end of `output`, writing through a buffer sized for the worst case.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: bytes.count * 3))
        var written = start
        output.withUnsafeMutableBufferPointer { out in
            allowed.withUnsafeBufferPointer { allowed in
                hexDigits.withUnsafeBufferPointer { hex in
                    for byte in bytes {
                        if allowed[Int(byte)] {
                            out[written] = byte
                            written += 1
                        } else {
                            out[written] = UInt8(ascii: "%")
                            out[written + 1] = hex[Int(byte >> 4)]
                            out[written + 2] = hex[Int(byte & 0x0F)]
                            written += 3
                        }
                    }
                }
            }
        }
        output.removeSubrange(written...)
    }

    @usableFromInline
    static let allowed: [Bool] = (0...255).map { (byte: Int) -> Bool in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
