/// Trimming with the sets of Foundation's `CharacterSet.whitespaces`, `.newlines` and
/// `.whitespacesAndNewlines`, by Unicode scalar as `trimmingCharacters(in:)` trims, but in Swift:
/// on Linux Foundation's version bridges each string through `NSString`, and its first call alone
/// cost a third of a millisecond of dynamic-cast lookups at every command's start-up.
extension StringProtocol {
    /// The text without leading and trailing tabs and Unicode space separators.
    public func trimmingWhitespace() -> String {
        trimmingScalars { $0.isHorizontalSpace }
    }

    /// The text without leading and trailing line breaks: U+000A to U+000D, U+0085, U+2028, U+2029.
    public func trimmingNewlines() -> String {
        trimmingScalars { $0.isLineBreak }
    }

    /// The text without leading and trailing whitespace and line breaks.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars { $0.isHorizontalSpace || $0.isLineBreak }
    }

    /// The text without the leading and trailing scalars `trimmed` accepts.
    public func trimmingScalars(where trimmed: (Unicode.Scalar) -> Bool) -> String {
        let text = self[...]
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }) else { return "" }
        // `first` exists, so a scalar that is not trimmed does too.
        let last = scalars.lastIndex(where: { !trimmed($0) })!
        // Scalar boundaries, as Foundation trims: a mark left alone by a trimmed space stays.
        return String(text[first..<scalars.index(after: last)])
    }
}

extension Unicode.Scalar {
    /// A scalar of Foundation's `CharacterSet.whitespaces`: the tab, the space separators
    /// (category Zs) and, as Foundation keeps it, U+200B ZERO WIDTH SPACE.
    var isHorizontalSpace: Bool {
        switch value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// A line break: Foundation's `CharacterSet.newlines`.
    var isLineBreak: Bool {
        (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}
