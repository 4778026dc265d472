/// Percent-escaping of query-string fields and values, with AFNetworking's rules.
///
/// RFC 3986 section 3.4 lets `?` and `/` stand unescaped in a query, so they stay; every other
/// reserved character (`:#[]@` and `!$&'()*+,;=`) is escaped, as is everything outside the
/// unreserved set. Bytes are escaped as `%XX` with upper-case hex digits of the UTF-8 encoding.
public enum PercentEscaping {
    /// How many composed characters one batch holds, as in AFNetworking.
    public static let batchSize = 50

    /// Escapes `string` for use as a query-string field or value.
    ///
    /// Non-ASCII text is escaped in batches of ``batchSize`` composed characters, and a batch
    /// always ends on a character boundary, so an emoji with a skin tone, a flag or a letter with
    /// combining marks is never split between two batches (AFNetworking batches because Apple's
    /// escaper failed on long strings; here the batches also give the explain view its units).
    public static func escape(_ string: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        append(string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the escaped form of `string` to `output`.
    public static func append(_ string: String, to output: inout [UInt8]) {
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            appendEscaped(string.utf8, to: &output)
            return
        }
        var start = string.startIndex
        while start < string.endIndex {
            let end = string.index(start, offsetBy: batchSize, limitedBy: string.endIndex) ?? string.endIndex
            appendEscaped(string.utf8[start..<end], to: &output)
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

    private static func appendEscaped<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) {
        for byte in bytes {
            if allowed[Int(byte)] {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
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
