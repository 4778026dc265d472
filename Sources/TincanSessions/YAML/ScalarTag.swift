import Yams

/// The tag of a YAML node, as Yams' default resolver gives it, without its cost for most text.
///
/// The resolver tries up to seven regular expressions (Foundation's `NSRegularExpression`) on
/// every plain scalar, about 35,000 instructions each: reading a session spent most of its time
/// there. Every one of those expressions starts with a character from a short list (digits,
/// signs, `.`, `~`, `<`, `=`, and the first letters of the booleans and of `null`), or matches
/// only the empty string; a scalar that starts with anything else is text, and is known to be
/// without them. The rest go to the resolver as before.
enum ScalarTag {
    /// The first bytes that a typed plain scalar can start with.
    private static let typedStarts: Set<UInt8> = Set("+-.0123456789<=~yYnNtTfFoO".utf8)

    /// The words Yams' bool and null rules match exactly (the bool rule is tried first).
    private static let words: [String: Tag.Name] = [
        "yes": .bool, "Yes": .bool, "YES": .bool, "no": .bool, "No": .bool, "NO": .bool,
        "true": .bool, "True": .bool, "TRUE": .bool, "false": .bool, "False": .bool, "FALSE": .bool,
        "on": .bool, "On": .bool, "ON": .bool, "off": .bool, "Off": .bool, "OFF": .bool,
        "~": .null, "null": .null, "Null": .null, "NULL": .null,
    ]

    /// The node's tag: Yams' `Resolver.default.resolveTag(of:)`.
    static func of(_ node: Node) -> Tag.Name {
        // The resolver's rules are for plain scalars only: other nodes, and scalars with a tag of
        // their own, get what `resolveTag` gives them without the rules, which `Resolver.default`
        // compiles (ICU, about a millisecond) when first used.
        guard case .scalar(let scalar) = node else { return Resolver.basic.resolveTag(of: node) }
        // An implicit tag is the empty name (`Tag.Name.implicit`); the resolver returns any other as it is.
        guard scalar.tag.rawValue.isEmpty else { return Tag.Name(rawValue: scalar.tag.rawValue) }
        // The null rule matches the empty text, and no rule before it does.
        guard let first = scalar.string.utf8.first else { return .null }
        if !typedStarts.contains(first) { return .str }
        if let word = words[scalar.string] { return word }
        if isDecimal(scalar.string.utf8) { return .int }
        return Resolver.default.resolveTag(of: node)
    }

    /// The tag of `text` written as a plain scalar: ``of(_:)`` for a plain node of that text,
    /// without making the node (a Yams `Node` builds its tag's tables each time) unless a rule
    /// past the first byte, the words and decimals has to decide.
    static func ofPlain(_ text: String) -> Tag.Name {
        guard let first = text.utf8.first else { return .null }
        if !typedStarts.contains(first) { return .str }
        if let word = words[text] { return word }
        if isDecimal(text.utf8) { return .int }
        return of(Node(text))
    }

    /// The value of a plain scalar whose text is a decimal integer as `isDecimal` says, as Yams
    /// reads it (nil past 64 bits, as there), without Yams' reading of bases, underscores and
    /// sexagesimal through Foundation's string search. Nil for any other text, such as `010`,
    /// which YAML 1.1 reads as octal, and for a quoted scalar, which Yams' constructor refuses.
    static func decimalValue(_ scalar: Node.Scalar) -> Int64? {
        guard scalar.style == .plain || scalar.style == .any, isDecimal(scalar.string.utf8) else { return nil }
        return Int64(scalar.string)
    }

    /// Whether the text is a decimal integer as the int rule's `[-+]?(?:0|[1-9][0-9_]*)` writes
    /// it, without underscores: no rule before it matches such text.
    private static func isDecimal(_ text: String.UTF8View) -> Bool {
        var digits = text[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard let lead = digits.first, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        return lead != UInt8(ascii: "0") || digits.count == 1
    }
}
