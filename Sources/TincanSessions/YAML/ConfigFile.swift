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

    /// Reads and parses a file whose top level must be a mapping (an empty file is an empty one).
    public static func load(path: String) throws -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigFileError(file: path, line: nil, column: nil, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigFileError(file: path, line: nil, column: nil, message: "is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses YAML text, naming `path` in errors.
    public static func parse(_ text: String, path: String) throws -> ConfigFile {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.error(error, path: path)
        }
        guard let node else { return ConfigFile(path: path, root: Node.Mapping([])) }
        guard let mapping = node.mapping else {
            throw ConfigFileError(file: path, line: node.mark?.line, column: node.mark?.column, message: "expected a mapping of keys to values at the top level")
        }
        return ConfigFile(path: path, root: mapping)
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
        var entries: [(String, Node, Node)] = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else { throw error(at: keyNode, "expected a text key in \(context)") }
            guard allowed.contains(key) else {
                throw error(at: keyNode, "unknown key '\(key)' in \(context); expected one of: \(allowed.joined(separator: ", "))")
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
