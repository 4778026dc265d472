import TincanCore

/// A session, theme, keymap or config file that could not be used: which file, where, and what
/// was expected.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong at that place.
    public enum Reason: Sendable, Equatable {
        /// The file cannot be read at all.
        case unreadable
        /// The byte at `offset` does not start or continue a UTF-8 character.
        case notUTF8(byte: UInt8, offset: Int)
        /// An alias (`*name`) is used as a mapping key.
        case aliasInKey(String)
        /// The alias `*anchor` takes the nodes aliases produce past ``AliasLimit/limit``.
        case tooManyAliasNodes(anchor: String)
        /// The YAML does not parse (libyaml's words).
        case malformedYAML(String)
        /// A mapping names these keys twice.
        case duplicateKeys([String])
        /// The document is not a mapping.
        case topLevelNotAMapping
        /// A value where a mapping of `keys` belongs, in `context` (`auth`, `properties`).
        case expectedMapping(context: String, keys: [String])
        /// A key that is not text, in `context`.
        case keyNotText(context: String)
        /// A key that the mapping in `context` does not have; `expected` are the ones it has.
        case unknownKey(String, context: String, expected: [String])
        /// A value the file's reader refuses, in the reader's words.
        case invalid(String)
    }

    public var file: String
    public var line: Int?
    public var column: Int?
    /// What is wrong.
    public var reason: Reason

    /// Creates an error.
    public init(file: String, line: Int?, column: Int?, reason: Reason) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// Creates an error in a reader's own words (``Reason/invalid(_:)``).
    public init(file: String, line: Int?, column: Int?, message: String) {
        self.init(file: file, line: line, column: column, reason: .invalid(message))
    }

    /// What is wrong, without the place.
    public var message: String {
        switch reason {
        case .unreadable:
            "cannot be read"
        case .notUTF8(let byte, let offset):
            "is not UTF-8 text: the byte 0x\(HexText.number(byte, width: 2, uppercase: true)) at byte offset \(offset) does not start or continue a character"
        case .aliasInKey(let name):
            "the alias *\(name) is used in a key; keys are text, so write the key out"
        case .tooManyAliasNodes(let anchor):
            "the alias *\(anchor) takes the nodes that aliases produce past \(AliasLimit.limit) "
                + "(aliases inside aliased values multiply); write the values out or use fewer aliases"
        case .malformedYAML(let problem):
            "malformed YAML: \(problem)"
        case .duplicateKeys(let keys):
            "duplicate keys: \(keys.joined(separator: ", "))"
        case .topLevelNotAMapping:
            "expected a mapping of keys to values at the top level"
        case .expectedMapping(let context, let keys):
            "expected a mapping in \(context), with keys from: \(keys.joined(separator: ", "))"
        case .keyNotText(let context):
            "expected a text key in \(context)"
        case .unknownKey(let key, let context, let expected):
            "unknown key '\(key)' in \(context); expected one of: \(expected.joined(separator: ", "))"
        case .invalid(let message):
            message
        }
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
