import OrderedCollections

/// Why a JSON text could not be read, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the parser expected or found.
    public var reason: String
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column (in characters) of the offending byte.
    public var column: Int

    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// What ``JSONParser`` builds values with: ``ParameterValue`` trees, or a reader's own nodes
/// that keep where each value starts (an import's, whose errors name a line and column).
///
/// Offsets are byte offsets into the parsed text, of a value's first byte.
public protocol JSONValueBuilder {
    /// A value of the tree built.
    associatedtype Value
    /// An object's members while they are read.
    associatedtype Members

    /// A string.
    mutating func string(_ text: String, at offset: Int) -> Value
    /// A number: `.integer` when it is an integer that fits in 64 bits, else `.double`; `literal`
    /// is its text as written.
    mutating func number(_ value: ParameterValue, literal: ArraySlice<UInt8>, at offset: Int) -> Value
    /// `true` or `false`.
    mutating func bool(_ value: Bool, at offset: Int) -> Value
    /// `null`.
    mutating func null(at offset: Int) -> Value
    /// An array of the values read, in order.
    mutating func array(_ items: [Value], at offset: Int) -> Value
    /// An object's members before the first is read.
    mutating func members() -> Members
    /// Adds a member, in the order read; a key met again is the builder's to keep or replace.
    mutating func add(_ key: String, at keyOffset: Int, _ value: Value, to members: inout Members)
    /// An object of the members read.
    mutating func object(_ members: Members, at offset: Int) -> Value
}

/// Builds ``ParameterValue`` trees: a key met again replaces the earlier value in place, as
/// JSON parsers keep the last.
public struct ParameterValueBuilder: JSONValueBuilder {
    public init() {}
    public func string(_ text: String, at offset: Int) -> ParameterValue { .string(text) }
    public func number(_ value: ParameterValue, literal: ArraySlice<UInt8>, at offset: Int) -> ParameterValue { value }
    public func bool(_ value: Bool, at offset: Int) -> ParameterValue { .bool(value) }
    public func null(at offset: Int) -> ParameterValue { .null }
    public func array(_ items: [ParameterValue], at offset: Int) -> ParameterValue { .array(items) }
    public func members() -> OrderedDictionary<String, ParameterValue> { [:] }
    public func add(_ key: String, at keyOffset: Int, _ value: ParameterValue, to members: inout OrderedDictionary<String, ParameterValue>) {
        members[key] = value
    }
    public func object(_ members: OrderedDictionary<String, ParameterValue>, at offset: Int) -> ParameterValue { .dictionary(members) }
}

/// A strict RFC 8259 JSON reader that produces ``ParameterValue`` trees, or any other tree
/// through a ``JSONValueBuilder``.
///
/// Object keys keep their order, integers that fit in 64 bits stay integers, surrogate pairs
/// are one character, and every error names the line and column, so a user who typed
/// `--params-json` by hand can find the mistake.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    /// Parses `text` as one JSON value, allowing scalars at the top level.
    ///
    /// - Throws: ``JSONParseError`` naming the line and column of the first problem.
    public static func parse(_ text: String) throws(JSONParseError) -> ParameterValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses UTF-8 `bytes` as one JSON value.
    public static func parse(bytes: [UInt8]) throws(JSONParseError) -> ParameterValue {
        var builder = ParameterValueBuilder()
        return try parse(bytes: bytes, builder: &builder)
    }

    /// Parses UTF-8 `bytes` as one JSON value built by `builder`.
    ///
    /// - Throws: ``JSONParseError`` naming the line and column of the first problem.
    public static func parse<Builder: JSONValueBuilder>(bytes: [UInt8], builder: inout Builder) throws(JSONParseError) -> Builder.Value {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(&builder)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    /// Reads the one value that starts at `offset` of `bytes` (whitespace before it skipped),
    /// leaving what follows it unread: how ``JSONDocument`` decodes a value it has found.
    static func parseValue(in bytes: [UInt8], at offset: Int) throws(JSONParseError) -> ParameterValue {
        var parser = JSONParser(bytes: bytes)
        parser.index = offset
        parser.skipWhitespace()
        var builder = ParameterValueBuilder()
        return try parser.parseValue(&builder)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: - Values

    private mutating func parseValue<Builder: JSONValueBuilder>(_ builder: inout Builder) throws(JSONParseError) -> Builder.Value {
        guard index < bytes.count else { throw error("expected a value, found the end of the text") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(&builder)
        case UInt8(ascii: "["): return try parseArray(&builder)
        case UInt8(ascii: "\""): return builder.string(try parseString(), at: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return builder.bool(true, at: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return builder.bool(false, at: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return builder.null(at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try parseNumber()
            return builder.number(number, literal: bytes[start..<index], at: start)
        case UInt8(ascii: "'"): throw error("strings take double quotes (\"), not single quotes")
        default: throw error("expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject<Builder: JSONValueBuilder>(_ builder: inout Builder) throws(JSONParseError) -> Builder.Value {
        let start = index
        try enter()
        index += 1
        var object = builder.members()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return builder.object(object, at: start)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a key in double quotes") }
            let keyStart = index
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue(&builder)
            builder.add(key, at: keyStart, value, to: &object)
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) { throw error("trailing comma before '}'") }
                continue
            }
            if peek(UInt8(ascii: "}")) {
                index += 1
                depth -= 1
                return builder.object(object, at: start)
            }
            throw error("expected ',' or '}' in the object")
        }
    }

    private mutating func parseArray<Builder: JSONValueBuilder>(_ builder: inout Builder) throws(JSONParseError) -> Builder.Value {
        let start = index
        try enter()
        index += 1
        var array: [Builder.Value] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return builder.array(array, at: start)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue(&builder))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'") }
                continue
            }
            if peek(UInt8(ascii: "]")) {
                index += 1
                depth -= 1
                return builder.array(array, at: start)
            }
            throw error("expected ',' or ']' in the array")
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
    }

    // MARK: - Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string; escape it (\\n, \\t, \\u00XX)") }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw error("control character in a string; escape it (\\n, \\t, \\u00XX)")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("a high surrogate must be followed by a low surrogate (\\uDC00-\\uDFFF)") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("expected a low surrogate (\\uDC00-\\uDFFF)") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a low surrogate without a high surrogate before it")
            }
            buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            index -= 1
            throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: - Numbers and literals

    private mutating func parseNumber() throws(JSONParseError) -> ParameterValue {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("numbers cannot have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw error("number out of range") }
        return .double(double)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = literal.withUTF8Buffer { Array($0) }
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("expected a value (object, array, string, number, true, false or null)")
        }
        index += expected.count
    }

    // MARK: - Helpers

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    @inline(__always)
    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func error(_ reason: String) -> JSONParseError {
        let place = Self.place(of: index, in: bytes)
        return JSONParseError(reason: reason, line: place.line, column: place.column)
    }

    /// The 1-based line and column (in characters) of the byte at `offset`: where an error
    /// about a value that starts there points.
    public static func place(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(max(offset, 0), bytes.count)
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return (line, column)
    }
}
