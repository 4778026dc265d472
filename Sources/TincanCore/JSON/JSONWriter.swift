/// Why a value cannot be written as JSON.
public struct JSONWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the key path of the offending value.
    public var reason: String
    public var description: String { reason }
}

/// Writes ``ParameterValue`` trees as JSON text: compact by default, or indented.
public enum JSONWriter {
    /// Whether a value can be a JSON document body: the rule of `NSJSONSerialization.isValidJSONObject`.
    ///
    /// The top level must be an object or an array, and nothing inside may be a set or a
    /// non-finite number. Returns the reason when it cannot, naming the key path.
    public static func invalidityReason(_ value: ParameterValue) -> String? {
        switch value {
        case .dictionary, .array: return firstUnrepresentable(value, path: "")
        default: return "the top level is \(value.kindName); a JSON body must be an object or an array"
        }
    }

    private static func firstUnrepresentable(_ value: ParameterValue, path: String) -> String? {
        switch value {
        case .set: return "\(path.isEmpty ? "the value" : path) is a set, which JSON cannot represent"
        case .double(let double) where !double.isFinite:
            return "\(path.isEmpty ? "the value" : path) is \(double), which JSON cannot represent"
        case .array(let array):
            for (offset, element) in array.enumerated() {
                if let reason = firstUnrepresentable(element, path: "\(path)[\(offset)]") { return reason }
            }
            return nil
        case .dictionary(let dictionary):
            for (key, element) in dictionary {
                if let reason = firstUnrepresentable(element, path: path.isEmpty ? key : "\(path).\(key)") { return reason }
            }
            return nil
        default: return nil
        }
    }

    /// Writes `value` as UTF-8 JSON.
    ///
    /// - Parameters:
    ///   - value: The value; sets are written as sorted arrays and non-finite numbers as null,
    ///     so check ``invalidityReason(_:)`` first where that matters.
    ///   - indent: Spaces per level, or nil for the compact form.
    public static func bytes(_ value: ParameterValue, indent: Int? = nil) -> [UInt8] {
        var output: [UInt8] = []
        write(value, indent: indent, level: 0, to: &output)
        return output
    }

    /// Writes `value` as a JSON string.
    public static func string(_ value: ParameterValue, indent: Int? = nil) -> String {
        String(decoding: bytes(value, indent: indent), as: UTF8.self)
    }

    /// Appends `string` as a quoted JSON string literal.
    public static func appendQuoted(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        appendEscaped(string.utf8, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes escaped for the inside of a JSON string literal, without the quotes.
    ///
    /// The version other modules get for an array: the generic one below is not specialized
    /// across modules, and escaped a 50 MB request body at 14 MB/s.
    public static func appendEscaped(_ bytes: [UInt8], to output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { appendEscaped($0, to: &output) }
    }

    /// Appends UTF-8 text escaped for the inside of a JSON string literal, without the quotes.
    public static func appendEscaped<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `value` at nesting `level` (``JSONDocument`` writes its values through this).
    static func write(_ value: ParameterValue, indent: Int?, level: Int, to output: inout [UInt8]) {
        switch value {
        case .string(let string): appendQuoted(string, to: &output)
        case .integer(let integer): output.append(contentsOf: String(integer).utf8)
        case .double(let double):
            output.append(contentsOf: (double.isFinite ? ParameterValue.format(double) : "null").utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .array(let array): writeArray(array, indent: indent, level: level, to: &output)
        case .set(let set): writeArray(QueryString.sortedMembers(set), indent: indent, level: level, to: &output)
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (offset, (key, element)) in dictionary.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent: indent, level: level + 1, to: &output)
                appendQuoted(key, to: &output)
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                write(element, indent: indent, level: level + 1, to: &output)
            }
            newline(indent: indent, level: level, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeArray(_ array: [ParameterValue], indent: Int?, level: Int, to output: inout [UInt8]) {
        guard !array.isEmpty else {
            output.append(contentsOf: "[]".utf8)
            return
        }
        output.append(UInt8(ascii: "["))
        for (offset, element) in array.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            newline(indent: indent, level: level + 1, to: &output)
            write(element, indent: indent, level: level + 1, to: &output)
        }
        newline(indent: indent, level: level, to: &output)
        output.append(UInt8(ascii: "]"))
    }

    static func newline(indent: Int?, level: Int, to output: inout [UInt8]) {
        guard let indent else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }
}
