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

    /// The node's tag: Yams' `Resolver.default.resolveTag(of:)`.
    static func of(_ node: Node) -> Tag.Name {
        // An implicit tag is the empty name (`Tag.Name.implicit`); a quoted scalar has `!`.
        if case .scalar(let scalar) = node, scalar.tag.rawValue.isEmpty, let first = scalar.string.utf8.first, !typedStarts.contains(first) {
            return .str
        }
        return Resolver.default.resolveTag(of: node)
    }
}
