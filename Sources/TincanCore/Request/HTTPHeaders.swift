/// An ordered list of header fields with case-insensitive names.
///
/// Order matters: it is the order on the wire. Setting a field replaces the first field of that
/// name in place (and drops any later duplicates); it never appends a second copy.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as written.
    public struct Field: Sendable, Hashable {
        /// The name, with the case it was given.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in wire order.
    public private(set) var fields: [Field] = []

    /// Creates an empty list.
    public init() {}

    /// Creates a list from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)]) {
        for (name, value) in pairs { add(name: name, value: value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field named `name` (case-insensitively), or nil.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            if let newValue { set(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// The values of every field named `name` (case-insensitively), in order.
    public func values(named name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// Sets `name` to `value`, replacing the first field of that name where it stands, or appending.
    public mutating func set(name: String, value: String) {
        guard let index = fields.firstIndex(where: { Self.same($0.name, name) }) else {
            fields.append(Field(name: name, value: value))
            return
        }
        fields[index] = Field(name: name, value: value)
        var later = index + 1
        while later < fields.count {
            if Self.same(fields[later].name, name) { fields.remove(at: later) } else { later += 1 }
        }
    }

    /// Appends a field even if one of that name exists.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Compares header names as HTTP does: ASCII case-insensitively.
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8) { lowercase($0) == lowercase($1) }
    }

    @inline(__always)
    private static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// Whether `name` is a valid field name (an RFC 9110 token).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTokenByte)
    }

    /// Whether `value` is a valid field value: no control characters but horizontal tab.
    public static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension HTTPHeaders {
    /// A parameter of a field value such as `multipart/form-data; boundary=x`, `text/plain;
    /// charset="utf-8"` or `form-data; name="doc"; filename="a;b.txt"`: its value with the quotes
    /// (and quoted-pair backslashes) taken off, or nil. Names compare case-insensitively; a `;`
    /// inside quotes does not end a parameter.
    public static func parameter(_ name: String, in value: String) -> String? {
        var rest = Substring(value)
        // Past the first `;`: the type or disposition before it is not a parameter.
        guard let first = rest.firstIndex(of: ";") else { return nil }
        rest = rest[rest.index(after: first)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let key = rest.prefix { $0 != "=" && $0 != ";" }
            rest = rest[key.endIndex...]
            var text = ""
            if rest.first == "=" {
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    while let character = rest.popFirst(), character != "\"" {
                        text.append(character == "\\" ? rest.popFirst() ?? character : character)
                    }
                    rest = rest.drop { $0 != ";" }
                } else {
                    let token = rest.prefix { $0 != ";" }
                    text = String(trimmed(token))
                    rest = rest[token.endIndex...]
                }
            }
            if same(String(trimmed(key)), name) { return text }
            rest = rest.dropFirst()
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        let start = text.drop(while: isBlank)
        return start[..<(start.lastIndex { !isBlank($0) }.map(start.index(after:)) ?? start.startIndex)]
    }
}
