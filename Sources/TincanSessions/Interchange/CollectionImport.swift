import Foundation
import OrderedCollections
import TincanCore
import Yams

/// A collection imported from another client's format (OpenAPI, Postman, Insomnia): the
/// session, and what it could not carry over, item by item.
public struct ImportedCollection: Sendable {
    /// The requests, variables and environments.
    public var session: Session
    /// What was not carried over, one line per item, naming the item.
    public var notCarried: [String]

    /// Creates an import.
    public init(session: Session, notCarried: [String]) {
        self.session = session
        self.notCarried = notCarried
    }
}

/// The formats `tincan import` reads besides curl and `.http`.
public enum CollectionFormat: String, Sendable, CaseIterable {
    case openapi
    case postman
    case insomnia

    /// The largest file an import reads (a spec of thousands of operations is a few MiB).
    public static let maximumFileBytes = 64 << 20

    /// Reads and imports a file.
    ///
    /// - Throws: ``ConfigFileError`` naming the file, line and column, and what was expected.
    public func load(path: String) throws -> ImportedCollection {
        try run { try ConfigFile.load(path: path, limit: Self.maximumFileBytes) }
    }

    /// Imports text; `path` names the file in errors.
    ///
    /// - Throws: ``ConfigFileError`` naming the file, line and column, and what was expected.
    public func parse(_ text: String, path: String) throws -> ImportedCollection {
        try run { try ConfigFile.parse(text, path: path) }
    }

    /// What the format's files start with, for a file that is not one.
    var expected: String {
        switch self {
        case .openapi: "an OpenAPI 3.x document (an `openapi: 3.x` key)"
        case .postman: "a Postman v2.1 collection (`info.schema` naming collection/v2.1.0)"
        case .insomnia: "an Insomnia v4 export (`_type: export` and `__export_format: 4`)"
        }
    }

    private func run(_ parse: () throws -> ConfigFile) throws -> ImportedCollection {
        let file: ConfigFile
        do {
            file = try parse()
        } catch let error as ConfigFileError where error.reason == .topLevelNotAMapping {
            throw ConfigFileError(file: error.file, line: error.line, column: error.column, message: "expected \(expected)")
        }
        let document = ImportDocument(file: file)
        switch self {
        case .openapi:
            var importer = OpenAPIImporter(document: document)
            return try importer.run()
        case .postman:
            var importer = PostmanImporter(document: document)
            return try importer.run()
        case .insomnia:
            var importer = InsomniaImporter(document: document)
            return try importer.run()
        }
    }
}

/// A parsed JSON or YAML document with the helpers the importers share: members by key,
/// text, typed values and errors at a node's line and column.
struct ImportDocument {
    let file: ConfigFile

    var path: String { file.path }
    var root: Node { .mapping(file.root) }

    /// An error at a node (or at the top of the file).
    func error(at node: Node?, _ message: String) -> ConfigFileError {
        guard let node else { return ConfigFileError(file: path, line: 1, column: 1, message: message) }
        return file.error(at: node, message)
    }

    /// A node's text, or an error naming what was expected.
    func text(_ node: Node, _ expected: String) throws -> String {
        guard let scalar = node.scalar else { throw error(at: node, "expected \(expected)") }
        return scalar.string
    }

    /// A list, or an error naming what was expected.
    func list(_ node: Node, _ expected: String) throws -> [Node] {
        guard let sequence = node.sequence else { throw error(at: node, "expected \(expected)") }
        return Array(sequence)
    }
}

extension Node {
    /// The value under `key` in a mapping (the last, as JSON parsers keep), or nil.
    func member(_ key: String) -> Node? {
        guard let mapping else { return nil }
        var found: Node?
        for (name, value) in mapping where name.scalar?.string == key { found = value }
        return found
    }

    /// A scalar's text, or nil for collections.
    var text: String? { scalar?.string }

    /// The mapping's members as text keys and values, in order.
    var members: [(key: String, value: Node)] {
        guard let mapping else { return [] }
        return mapping.compactMap { key, value in key.scalar.map { (key: $0.string, value: value) } }
    }

    /// Whether the value is `true` (a YAML or JSON boolean).
    var isTrue: Bool { parameterValue == .bool(true) }

    /// The value as a parameter tree: plain scalars take their YAML (and so JSON) type, quoted ones stay text.
    var parameterValue: ParameterValue {
        switch self {
        case .scalar(let scalar):
            switch ScalarTag.of(self) {
            case .int: return (ScalarTag.decimalValue(scalar) ?? int.map(Int64.init)).map(ParameterValue.integer) ?? .string(scalar.string)
            case .float: return float.map(ParameterValue.double) ?? .string(scalar.string)
            case .bool: return .bool(bool ?? false)
            case .null: return .null
            default: return .string(scalar.string)
            }
        case .sequence(let sequence): return .array(sequence.map(\.parameterValue))
        case .mapping(let mapping):
            var members: OrderedDictionary<String, ParameterValue> = [:]
            for (key, value) in mapping { members[key.scalar?.string ?? ""] = value.parameterValue }
            return .dictionary(members)
        case .alias: return .null
        }
    }
}

extension ParameterValue {
    /// The value as text for a query field, header or variable: a scalar's text (booleans as
    /// `true` and `false`), a list's items joined by commas, anything else as JSON.
    var importedText: String {
        if case .array(let items) = self, !items.contains(where: \.isCollection) { return items.map(\.importedText).joined(separator: ",") }
        return self == .null ? "" : Template.text(self)
    }
}

/// A folder path for ``SavedRequest/group``: names joined by `/`, a `/` inside a name
/// written as `-`, empty names left out.
func groupPath(_ names: [String]) -> String? {
    let cleaned = names.map { $0.replacingOccurrences(of: "/", with: "-").trimmingWhitespace() }.filter { !$0.isEmpty }
    return cleaned.isEmpty ? nil : cleaned.joined(separator: "/")
}

/// The lines Postman's and Insomnia's imports share for what they do not carry over.
enum NotCarried {
    /// A query or form field turned off, which a session cannot keep turned off.
    static func disabledField(_ place: String, _ kind: String, _ name: String) -> String {
        "\(place): the disabled \(kind) field \(name) is not carried over (a session's \(kind) fields cannot be turned off)"
    }

    /// An auth type the session has no equivalent for.
    static func auth(_ place: String, _ type: String) -> String {
        "\(place): \(type) auth is not carried over"
    }

    /// A form's file field without a file.
    static func fileWithoutPath(_ place: String, _ name: String) -> String {
        "\(place): the file field \(name) names no file, so it is not carried over"
    }

    /// Adds a collection's, folder's or environment's variable; one already set to another
    /// value keeps that value (a session's variables are not per folder), and the line saying
    /// so is returned.
    static func add(_ key: String, _ value: ParameterValue, to variables: inout OrderedDictionary<String, ParameterValue>, place: String) -> String? {
        if let existing = variables[key], existing != value {
            return "\(place): the variable \(key) = \(value.importedText) is not carried over; the session's variables are shared, and \(key) is already \(existing.importedText)"
        }
        variables[key] = value
        return nil
    }
}
