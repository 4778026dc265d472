import Foundation
import TincanCore

/// Splitting and quoting POSIX shell words, for curl commands.
public enum ShellWords {
    /// Splits a command line as a POSIX shell would: quotes, backslashes, `$'…'`, line continuations.
    ///
    /// - Throws: ``InterchangeError`` for an unterminated quote.
    public static func split(_ text: String) throws(InterchangeError) -> [String] {
        try splitBytes(text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Splits as ``split(_:)`` does, keeping each word's bytes: `$'\xff'` need not be UTF-8.
    public static func splitBytes(_ text: String) throws(InterchangeError) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        var inWord = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case " ", "\t", "\n", "\r":
                if inWord { words.append(current) }
                current = []
                inWord = false
            case "\\":
                guard let next = characters.popFirst() else { break }
                if next == "\n" || next == "\r" {
                    if next == "\r", characters.first == "\n" { characters.removeFirst() }
                    continue
                }
                current += Array(String(next).utf8)
                inWord = true
            case "'":
                inWord = true
                guard let end = characters.firstIndex(of: "'") else { throw InterchangeError(.unclosedQuote(.single)) }
                current += Array(String(characters[..<end]).utf8)
                characters = characters[(end + 1)...]
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\", let escaped = characters.first, "$`\"\\\n".contains(escaped) {
                        characters.removeFirst()
                        if escaped != "\n" { current += Array(String(escaped).utf8) }
                    } else {
                        current += Array(String(next).utf8)
                    }
                }
                guard closed else { throw InterchangeError(.unclosedQuote(.double)) }
            case "$" where characters.first == "'":
                characters.removeFirst()
                inWord = true
                current += try ansiC(&characters)
            default:
                current += Array(String(character).utf8)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Reads a `$'…'` string's body (after the opening quote) and its closing quote.
    private static func ansiC(_ characters: inout ArraySlice<Character>) throws(InterchangeError) -> [UInt8] {
        var bytes: [UInt8] = []
        while let character = characters.popFirst() {
            if character == "'" { return bytes }
            guard character == "\\", let escape = characters.popFirst() else {
                bytes += Array(String(character).utf8)
                continue
            }
            switch escape {
            case "n": bytes.append(0x0A)
            case "t": bytes.append(0x09)
            case "r": bytes.append(0x0D)
            case "0": bytes.append(0)
            case "e", "E": bytes.append(0x1B)
            case "x":
                var digits = ""
                while digits.count < 2, let next = characters.first, next.isHexDigit { digits.append(characters.removeFirst()) }
                bytes.append(UInt8(digits, radix: 16) ?? 0)
            case "u", "U":
                var digits = ""
                while digits.count < (escape == "u" ? 4 : 8), let next = characters.first, next.isHexDigit { digits.append(characters.removeFirst()) }
                if let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) { bytes += Array(String(scalar).utf8) }
            default: bytes += Array(String(escape).utf8)
            }
        }
        throw InterchangeError(.unclosedQuote(.ansiC))
    }

    /// A word quoted for a POSIX shell: bare when safe, else in single quotes; a word with a
    /// control character (an escape, a carriage return, a C1 control or a bidi override:
    /// ``TerminalText/isControl(_:)``, line feeds and tabs aside) as a `$'…'` word with those
    /// characters escaped, so that the command shown is the command that runs: a raw carriage
    /// return could hide part of it on screen, an escape could drive the terminal.
    public static func quote(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_./:=@,+%".unicodeScalars.contains($0) }
        if safe { return word }
        if word.unicodeScalars.contains(where: { TerminalText.isControl($0) && $0 != "\n" && $0 != "\t" }) {
            return ansiQuote(text: word)
        }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Text as a `$'…'` word (bash, zsh, ksh): control characters as `\xNN` escapes of their
    /// UTF-8 bytes (line feed and tab as `\n` and `\t`), other text as it is.
    public static func ansiQuote(text: String) -> String {
        var output = "$'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": output += "\\'"
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            default:
                if TerminalText.isControl(scalar) {
                    for byte in String(scalar).utf8 { output += "\\x" + HexText.number(byte, width: 2) }
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "'"
    }

    /// Bytes as a `$'…'` word (bash, zsh, ksh), for bodies that are not text.
    public static func ansiQuote(_ bytes: [UInt8]) -> String {
        var output = "$'"
        for byte in bytes {
            switch byte {
            case 0x27: output += "\\'"
            case 0x5C: output += "\\\\"
            case 0x20...0x7E: output.unicodeScalars.append(Unicode.Scalar(byte))
            default: output += "\\x" + HexText.number(byte, width: 2)
            }
        }
        return output + "'"
    }
}
