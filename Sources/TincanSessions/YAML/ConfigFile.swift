import Foundation
import Yams

/// A session, theme, keymap or config file that could not be used: which file, where, and what was expected.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, column: Int?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}

/// Reading the YAML files Tincan is configured with and saves sessions in, with positions for every error.
public struct ConfigFile {
    public let path: String
    public let root: Node.Mapping
    /// The text the document was parsed from, to place what node marks do not point at.
    let text: String

    /// Reads and parses a file whose top level must be a mapping (an empty file is an empty one).
    public static func load(path: String) throws -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigFileError(file: path, line: nil, column: nil, message: "cannot be read")
        }
        let bytes = [UInt8](data)
        if let offset = Self.firstInvalidUTF8(bytes) {
            let line = bytes[..<offset].lazy.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            // Columns count characters as YAML marks do: every byte that does not continue one.
            let column = bytes[lineStart..<offset].lazy.filter { $0 & 0xC0 != 0x80 }.count + 1
            let byte = String(bytes[offset], radix: 16, uppercase: true)
            throw ConfigFileError(file: path, line: line, column: column,
                                  message: "is not UTF-8 text: the byte 0x\(byte.count == 1 ? "0" + byte : byte) at byte offset \(offset) does not start or continue a character")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// The offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629:
    /// no overlong forms, no surrogates, nothing past U+10FFFF), or nil when all are.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0..<0x80:
                index += 1
                continue
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for next in bytes[(index + 1)..<(index + length)] {
                guard next & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            switch length {
            case 3 where scalar < 0x800 || (0xD800...0xDFFF).contains(scalar): return index
            case 4 where scalar < 0x10000 || scalar > 0x10FFFF: return index
            default: break
            }
            index += length
        }
        return nil
    }

    /// Parses YAML text, naming `path` in errors.
    public static func parse(_ text: String, path: String) throws -> ConfigFile {
        if let (name, location) = AliasKeyScan.firstAliasKey(in: text) {
            throw ConfigFileError(file: path, line: location.line, column: location.column,
                                  message: "the alias *\(name) is used in a key; keys are text, so write the key out")
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.error(error, path: path)
        }
        guard let node else { return ConfigFile(path: path, root: Node.Mapping([]), text: text) }
        if let (anchor, location) = AliasLimit.check(node, in: text) {
            throw ConfigFileError(file: path, line: location?.line, column: location?.column,
                                  message: "the alias *\(anchor) takes the nodes that aliases produce past \(AliasLimit.limit) "
                                      + "(aliases inside aliased values multiply); write the values out or use fewer aliases")
        }
        guard let mapping = node.mapping else {
            throw ConfigFileError(file: path, line: node.mark?.line, column: node.mark?.column, message: "expected a mapping of keys to values at the top level")
        }
        return ConfigFile(path: path, root: mapping, text: text)
    }

    private static func error(_ error: YamlError, path: String) -> ConfigFileError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return ConfigFileError(file: path, line: mark.line, column: mark.column, message: "malformed YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ConfigFileError(file: path, line: context.mark.line, column: context.mark.column, message: "duplicate keys: \(duplicates.joined(separator: ", "))")
        default:
            return ConfigFileError(file: path, line: nil, column: nil, message: "malformed YAML: \(error)")
        }
    }

    /// An error at a node.
    public func error(at node: Node, _ message: String) -> ConfigFileError {
        ConfigFileError(file: path, line: node.mark?.line, column: node.mark?.column, message: message)
    }

    /// The entries of a mapping, refusing keys outside `allowed`.
    public func entries(of mapping: Node.Mapping, allowed: [String], in context: String) throws -> [(key: String, keyNode: Node, value: Node)] {
        try entries(of: mapping, keys: allowed, named: { $0 }, in: context)
    }

    /// The entries of a mapping with their keys as `Key`s, refusing any other key with the
    /// expected ones in `Key`'s order, so a reader can switch over them exhaustively.
    public func entries<Key: RawRepresentable<String> & CaseIterable>(
        of mapping: Node.Mapping, _ keys: Key.Type, in context: String
    ) throws -> [(key: Key, keyNode: Node, value: Node)] {
        try entries(of: mapping, keys: Array(Key.allCases), named: \.rawValue, in: context)
    }

    /// The entries of a mapping whose keys are `keys`, each written as `name(key)`.
    public func entries<Key>(of mapping: Node.Mapping, keys: [Key], named name: (Key) -> String, in context: String) throws -> [(key: Key, keyNode: Node, value: Node)] {
        var entries: [(Key, Node, Node)] = []
        for (keyNode, value) in mapping {
            guard let text = keyNode.scalar?.string else { throw error(at: keyNode, "expected a text key in \(context)") }
            guard let key = keys.first(where: { name($0) == text }) else {
                throw error(at: keyNode, "unknown key '\(text)' in \(context); expected one of: \(keys.map(name).joined(separator: ", "))")
            }
            entries.append((key, keyNode, value))
        }
        return entries
    }

    /// A scalar's text, or an error naming what was expected.
    public func string(_ node: Node, expected: String) throws -> String {
        guard let scalar = node.scalar else { throw error(at: node, "expected \(expected)") }
        return scalar.string
    }
}
