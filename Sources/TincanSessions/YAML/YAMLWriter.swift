import Foundation
import OrderedCollections
import TincanCore
import Yams

/// A YAML document to write: Tincan writes its files itself so that the same value always gives
/// the same bytes (a stable key order, one quoting rule, block style), which keeps diffs small.
public indirect enum YAMLValue: Sendable, Equatable {
    /// A string, quoted only when a plain scalar would read back as something else.
    case string(String)
    /// A scalar written as it is: numbers, booleans, null.
    case literal(String)
    case sequence([YAMLValue])
    case mapping([(String, YAMLValue)])

    public static func == (lhs: YAMLValue, rhs: YAMLValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.literal(let a), .literal(let b)): a == b
        case (.sequence(let a), .sequence(let b)): a == b
        case (.mapping(let a), .mapping(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A parameter value: strings, numbers, booleans and null keep their type when read back.
    public init(_ value: ParameterValue) {
        switch value {
        case .string(let string): self = .string(string)
        case .integer(let integer): self = .literal(String(integer))
        case .double(let double):
            if double.isNaN {
                self = .literal(".nan")
            } else if double.isInfinite {
                self = .literal(double < 0 ? "-.inf" : ".inf")
            } else {
                self = .literal("\(double)")
            }
        case .bool(let bool): self = .literal(bool ? "true" : "false")
        case .null: self = .literal("null")
        case .array(let items): self = .sequence(items.map(YAMLValue.init))
        case .set(let items): self = .sequence(items.sorted { JSONWriter.string($0) < JSONWriter.string($1) }.map(YAMLValue.init))
        case .dictionary(let members): self = .mapping(members.map { ($0.key, YAMLValue($0.value)) })
        }
    }

    /// Whether this is a scalar (written on its key's line).
    var isScalar: Bool {
        switch self {
        case .string, .literal: true
        case .sequence(let items): items.isEmpty
        case .mapping(let pairs): pairs.isEmpty
        }
    }
}

/// Writes ``YAMLValue`` documents in block style with two-space indentation.
public enum YAMLWriter {
    /// The document's text, ending with a newline.
    public static func write(_ value: YAMLValue) -> String {
        var output = ""
        switch value {
        case .mapping(let pairs) where !pairs.isEmpty: writeMapping(pairs, indent: 0, into: &output)
        case .sequence(let items) where !items.isEmpty: writeSequence(items, indent: 0, into: &output)
        default: output = inline(value, indent: 0) + "\n"
        }
        return output
    }

    private static func writeMapping(_ pairs: [(String, YAMLValue)], indent: Int, into output: inout String) {
        let pad = String(repeating: " ", count: indent)
        for (key, value) in pairs {
            output += pad + scalar(key, flow: false) + ":"
            write(value, under: indent, into: &output)
        }
    }

    private static func writeSequence(_ items: [YAMLValue], indent: Int, into output: inout String) {
        let pad = String(repeating: " ", count: indent)
        for item in items {
            switch item {
            case .mapping(let pairs) where !pairs.isEmpty:
                // The first pair shares the dash's line; the rest line up under it.
                var nested = ""
                writeMapping(pairs, indent: indent + 2, into: &nested)
                output += pad + "- " + nested.dropFirst(indent + 2)
            case .sequence(let inner) where !inner.isEmpty:
                output += pad + "-\n"
                writeSequence(inner, indent: indent + 2, into: &output)
            default:
                output += pad + "-"
                write(item, under: indent, into: &output)
            }
        }
    }

    /// Writes a value after `key:` or `-`: on the same line when it is a scalar, else below.
    private static func write(_ value: YAMLValue, under indent: Int, into output: inout String) {
        switch value {
        case .mapping(let pairs) where !pairs.isEmpty:
            output += "\n"
            writeMapping(pairs, indent: indent + 2, into: &output)
        case .sequence(let items) where !items.isEmpty:
            if let flow = flowSequence(items) {
                output += " " + flow + "\n"
            } else {
                output += "\n"
                writeSequence(items, indent: indent + 2, into: &output)
            }
        default:
            output += " " + inline(value, indent: indent + 2) + "\n"
        }
    }

    /// A short list of plain scalars as `[a, b]`, or nil when block style reads better.
    private static func flowSequence(_ items: [YAMLValue]) -> String? {
        var parts: [String] = []
        for item in items {
            switch item {
            case .literal(let text): parts.append(text)
            case .string(let string): parts.append(scalar(string, flow: true))
            default: return nil
            }
        }
        let flow = "[" + parts.joined(separator: ", ") + "]"
        return flow.count <= 60 && !flow.contains("\n") ? flow : nil
    }

    private static func inline(_ value: YAMLValue, indent: Int) -> String {
        switch value {
        case .literal(let text): return text
        case .string(let string):
            if let block = literalBlock(string, indent: indent) { return block }
            return scalar(string, flow: false)
        case .sequence: return "[]"
        case .mapping: return "{}"
        }
    }

    /// Multi-line text as a literal block (`|`), which reads and diffs line by line.
    private static func literalBlock(_ string: String, indent: Int) -> String? {
        guard string.contains("\n"), !string.hasPrefix(" "), !string.hasPrefix("\n"),
              string.unicodeScalars.allSatisfy({ $0 == "\n" || !isSpecial($0) }),
              !string.split(separator: "\n", omittingEmptySubsequences: false).contains(where: { $0.hasSuffix(" ") || $0.hasSuffix("\t") })
        else { return nil }
        var body = string
        var chomp = "-"
        if body.hasSuffix("\n") {
            body.removeLast()
            chomp = body.hasSuffix("\n") ? "+" : ""
        }
        if chomp == "+" { return nil }
        let pad = String(repeating: " ", count: indent)
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 }
        return "|" + chomp + "\n" + lines.joined(separator: "\n")
    }

    /// A string as a plain scalar when that reads back as the same string, else double-quoted.
    public static func scalar(_ string: String, flow: Bool) -> String {
        isPlainSafe(string, flow: flow) ? string : doubleQuoted(string)
    }

    private static let indicators: Set<Character> = ["-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`"]

    static func isPlainSafe(_ string: String, flow: Bool) -> Bool {
        guard let first = string.first, let last = string.last else { return false }
        if indicators.contains(first) || first == " " || last == " " || last == ":" { return false }
        // One pass over the bytes for ": ", " #", a tab and (in a flow) the flow indicators:
        // Foundation's substring search took a quarter of a large import's time.
        var previous: UInt8 = 0
        for byte in string.utf8 {
            switch byte {
            case 0x09: return false
            case 0x20 where previous == 0x3A, 0x23 where previous == 0x20: return false
            case 0x2C, 0x5B, 0x5D, 0x7B, 0x7D: if flow { return false }
            default: break
            }
            previous = byte
        }
        if string.unicodeScalars.contains(where: isSpecial) { return false }
        return ScalarTag.ofPlain(string) == .str
    }

    /// Whether a scalar is written escaped: what YAML cannot hold as it is, and what a terminal
    /// showing the file would obey (``TerminalText``: bidi overrides too), so that a session
    /// made from someone else's collection reads as it is.
    private static func isSpecial(_ scalar: Unicode.Scalar) -> Bool {
        TerminalText.isControl(scalar) || scalar == "\u{FEFF}" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    static func doubleQuoted(_ string: String) -> String {
        var output = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            default:
                if isSpecial(scalar) {
                    output += scalar.value <= 0xFF ? "\\x" + HexText.number(scalar.value, width: 2, uppercase: true) : "\\u" + HexText.number(scalar.value, width: 4, uppercase: true)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
