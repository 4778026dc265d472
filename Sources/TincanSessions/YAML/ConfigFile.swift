import Foundation
import TincanCore
import Yams

/// Reading the YAML files Tincan is configured with and saves sessions in, with positions for every error.
public struct ConfigFile {
    public let path: String
    public let root: Node.Mapping
    /// The text the document was parsed from, to place what node marks do not point at.
    let text: String

    /// The largest file read: the YAML tree of a file takes several times its size.
    public static let maximumFileBytes = 64 << 20

    /// Reads and parses a file whose top level must be a mapping (an empty file is an empty one),
    /// of at most `limit` bytes.
    public static func load(path: String, limit: Int = maximumFileBytes) throws -> ConfigFile {
        try parse(String(decoding: readText(path: path, limit: limit), as: UTF8.self), path: path)
    }

    /// The UTF-8 text of a file of at most `limit` bytes, without a leading byte-order mark.
    ///
    /// - Throws: ``ConfigFileError`` when it cannot be read, or at the first byte that is not UTF-8.
    static func readText(path: String, limit: Int) throws(ConfigFileError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.readText(path, limit: limit)
        } catch .unreadable {
            throw ConfigFileError(file: path, line: nil, column: nil, reason: .unreadable)
        } catch {
            throw ConfigFileError(file: path, line: nil, column: nil, message: error.description)
        }
        if let offset = Self.firstInvalidUTF8(bytes) {
            let line = bytes[..<offset].lazy.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            // Columns count characters as YAML marks do: every byte that does not continue one.
            let column = bytes[lineStart..<offset].lazy.filter { $0 & 0xC0 != 0x80 }.count + 1
            throw ConfigFileError(file: path, line: line, column: column, reason: .notUTF8(byte: bytes[offset], offset: offset))
        }
        return bytes
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

    /// Parses YAML text, naming `path` in errors; a leading byte-order mark is skipped.
    public static func parse(_ text: String, path: String) throws -> ConfigFile {
        let text = BoundedFile.droppingByteOrderMark(text)
        if let location = FlowDepth.firstTooDeep(in: text) {
            throw ConfigFileError(file: path, line: location.line, column: location.column,
                                  reason: .malformedYAML("flow collections ([ or {) nested deeper than \(FlowDepth.maximum) levels, the most YAML is read to"))
        }
        // An alias is written `*name`: a text without an asterisk holds none, so neither scan
        // for them can find anything (they were a sixth of a 1,000-request session's load).
        let mayHoldAliases = text.utf8.contains(UInt8(ascii: "*"))
        if mayHoldAliases, let (name, location) = AliasKeyScan.firstAliasKey(in: text) {
            throw ConfigFileError(file: path, line: location.line, column: location.column, reason: .aliasInKey(name))
        }
        let node: Node?
        do {
            // Composed with no tag rules: every plain scalar stays text until a reader asks for
            // its YAML type (`SessionReader.parameter` resolves it then). The default rules are
            // regular expressions that Yams would run on every scalar, and again on every key
            // as it hashes the keys to find duplicates: a third of a large session's load time.
            // Keys are text either way, so `1:` and `"1":` in one mapping are the same key.
            node = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw Self.error(error, path: path)
        }
        guard let node else { return ConfigFile(path: path, root: Node.Mapping([]), text: text) }
        if mayHoldAliases, let (anchor, location) = AliasLimit.check(node, in: text) {
            throw ConfigFileError(file: path, line: location?.line, column: location?.column, reason: .tooManyAliasNodes(anchor: anchor))
        }
        guard let mapping = node.mapping else {
            throw ConfigFileError(file: path, line: node.mark?.line, column: node.mark?.column, reason: .topLevelNotAMapping)
        }
        return ConfigFile(path: path, root: mapping, text: text)
    }

    private static func error(_ error: YamlError, path: String) -> ConfigFileError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return ConfigFileError(file: path, line: mark.line, column: mark.column, reason: .malformedYAML(problem))
        case let .duplicatedKeysInMapping(duplicates, context):
            return ConfigFileError(file: path, line: context.mark.line, column: context.mark.column, reason: .duplicateKeys(duplicates))
        default:
            return ConfigFileError(file: path, line: nil, column: nil, reason: .malformedYAML("\(error)"))
        }
    }

    /// An error at a node, in the reader's words.
    public func error(at node: Node, _ message: String) -> ConfigFileError {
        error(at: node, .invalid(message))
    }

    /// An error at a node.
    public func error(at node: Node, _ reason: ConfigFileError.Reason) -> ConfigFileError {
        ConfigFileError(file: path, line: node.mark?.line, column: node.mark?.column, reason: reason)
    }

    /// A node's mapping, or an error in `context` that lists the keys it may hold.
    public func mapping(_ node: Node, keys: @autoclosure () -> [String], in context: String) throws(ConfigFileError) -> Node.Mapping {
        // The keys are listed only in the error: most nodes are mappings.
        guard let mapping = node.mapping else { throw error(at: node, .expectedMapping(context: context, keys: keys())) }
        return mapping
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
        // Each key by its raw value, not by a search through every case: a session file's
        // requests name several keys each, and their reading is part of every replay.
        // Labelled as the result is, so that the array is returned as it is, not cast element by element.
        var entries: [(key: Key, keyNode: Node, value: Node)] = []
        entries.reserveCapacity(mapping.count)
        for (keyNode, value) in mapping {
            guard let text = keyNode.scalar?.string else { throw error(at: keyNode, .keyNotText(context: context)) }
            guard let key = Key(rawValue: text) else {
                throw error(at: keyNode, .unknownKey(text, context: context, expected: Key.allCases.map(\.rawValue)))
            }
            entries.append((key, keyNode, value))
        }
        return entries
    }

    /// The entries of a mapping whose keys are `keys`, each written as `name(key)`.
    public func entries<Key>(of mapping: Node.Mapping, keys: [Key], named name: (Key) -> String, in context: String) throws -> [(key: Key, keyNode: Node, value: Node)] {
        var entries: [(key: Key, keyNode: Node, value: Node)] = []
        entries.reserveCapacity(mapping.count)
        for (keyNode, value) in mapping {
            guard let text = keyNode.scalar?.string else { throw error(at: keyNode, .keyNotText(context: context)) }
            guard let key = keys.first(where: { name($0) == text }) else {
                throw error(at: keyNode, .unknownKey(text, context: context, expected: keys.map(name)))
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
