import TincanCore

/// String and byte literals for each language, exact for any value: quotes, backslashes, line
/// breaks, controls, `$` and non-ASCII text are escaped so the program holds the bytes Tincan
/// sends, and no character outside printable ASCII is written as it is (a bidi override in a
/// header could otherwise make the code read as something it is not).
enum CodeLiteral {
    /// A C-family string literal: `quote` around `text`, with `\\`, the quote, `\n`, `\r`, `\t`
    /// escaped, other controls and non-ASCII written by `scalarEscape`, and `extra` characters
    /// (such as `$` where it starts interpolation) escaped with a backslash.
    static func quoted(_ text: String, quote: Character, extra: Set<Character> = [], scalarEscape: (UInt32) -> String) -> String {
        var result = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let character = Character(scalar)
                if character == quote || extra.contains(character) {
                    result += "\\" + String(character)
                } else if scalar.value >= 0x20, scalar.value < 0x7F {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += scalarEscape(scalar.value)
                }
            }
        }
        result.append(quote)
        return result
    }

    /// `value` in upper-case hexadecimal, at least `digits` long.
    static func hex(_ value: UInt32, digits: Int) -> String {
        HexText.number(value, width: digits, uppercase: true)
    }

    /// Bytes as a C-family literal whose non-printable bytes are `\xNN` (Python `b'…'`, Go).
    static func byteEscaped(_ bytes: [UInt8], quote: Character) -> String {
        var result = String(quote)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): result += "\\\\"
            case UInt8(ascii: "\n"): result += "\\n"
            case UInt8(ascii: "\r"): result += "\\r"
            case UInt8(ascii: "\t"): result += "\\t"
            case _ where byte == quote.asciiValue: result += "\\" + String(quote)
            case 0x20..<0x7F: result.unicodeScalars.append(Unicode.Scalar(byte))
            default: result += "\\x" + hex(UInt32(byte), digits: 2)
            }
        }
        result.append(quote)
        return result
    }

    /// Bytes as a comma-separated list of `0xNN`, wrapped every 16.
    static func byteList(_ bytes: [UInt8], indent: String) -> String {
        stride(from: 0, to: bytes.count, by: 16).map { start in
            indent + bytes[start..<min(start + 16, bytes.count)].map { "0x" + hex(UInt32($0), digits: 2) }.joined(separator: ", ")
        }.joined(separator: ",\n")
    }

    // MARK: - By language

    /// A Python `str` literal.
    static func python(_ text: String) -> String {
        quoted(text, quote: "'") { $0 <= 0xFF ? "\\x" + hex($0, digits: 2) : $0 <= 0xFFFF ? "\\u" + hex($0, digits: 4) : "\\U" + hex($0, digits: 8) }
    }

    /// A Python `bytes` literal.
    static func pythonBytes(_ bytes: [UInt8]) -> String { "b" + byteEscaped(bytes, quote: "'") }

    /// A JavaScript string literal (`${` cannot start anything in single quotes).
    static func javaScript(_ text: String) -> String {
        quoted(text, quote: "'") { $0 <= 0xFF ? "\\x" + hex($0, digits: 2) : "\\u{" + hex($0, digits: 4) + "}" }
    }

    /// A Go interpreted string literal.
    static func go(_ text: String) -> String {
        quoted(text, quote: "\"") { $0 <= 0x7F ? "\\x" + hex($0, digits: 2) : $0 <= 0xFFFF ? "\\u" + hex($0, digits: 4) : "\\U" + hex($0, digits: 8) }
    }

    /// A Go string literal of any bytes (`\xNN` in a Go string is that byte).
    static func goBytes(_ bytes: [UInt8]) -> String { byteEscaped(bytes, quote: "\"") }

    /// A Swift string literal.
    static func swift(_ text: String) -> String {
        quoted(text, quote: "\"") { "\\u{" + hex($0, digits: 2) + "}" }
    }
}
