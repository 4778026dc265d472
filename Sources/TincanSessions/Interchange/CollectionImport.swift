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

/// The formats `tincan import` reads besides curl, `.http` and HAR.
public enum CollectionFormat: String, Sendable, CaseIterable {
    case openapi
    case postman
    case insomnia
    case bruno

    /// The largest file an import reads (a spec of thousands of operations is a few MiB).
    public static let maximumFileBytes = 64 << 20

    /// Reads and imports a file (a folder for Bruno); local files the collection names are
    /// confined to the file's folder (``ImportedPaths``).
    ///
    /// - Parameter progress: Told where the import stands, as it goes.
    /// - Throws: ``ConfigFileError`` naming the file, line and column, and what was expected.
    public func load(path: String, progress: ImportProgress? = nil) throws -> ImportedCollection {
        if self == .bruno { return try BrunoImporter.load(path: path, progress: progress) }
        var imported = try run(ImportDocument.load(path: path, limit: Self.maximumFileBytes, expected: expected, progress: progress), progress: progress)
        imported.finish(folder: Session.directory(of: path), progress: progress)
        return imported
    }

    /// Imports text; `path` names the file in errors, and its folder is where the collection's
    /// relative file paths are read from.
    ///
    /// - Throws: ``ConfigFileError`` naming the file, line and column, and what was expected.
    public func parse(_ text: String, path: String) throws -> ImportedCollection {
        if self == .bruno { return try BrunoImporter.parse(files: [(path, text)], root: Session.directory(of: path)) }
        var imported = try run(ImportDocument.parse(Array(text.utf8), path: path, expected: expected), progress: nil)
        imported.finish(folder: Session.directory(of: path))
        return imported
    }

    /// What the format's files start with, for a file that is not one.
    var expected: String {
        switch self {
        case .openapi: "an OpenAPI 3.x document (an `openapi: 3.x` key) or a Swagger 2.0 one (`swagger: \"2.0\"`)"
        case .postman: "a Postman collection (`info.schema` naming collection/v2.1.0 or v2.0.0)"
        case .insomnia: "an Insomnia export: v4 (`_type: export`, `__export_format: 4`) or v5 (`type: collection.insomnia.rest/5.0`)"
        case .bruno: "a Bruno collection: a folder with bruno.json and .bru files"
        }
    }

    private func run(_ document: ImportDocument, progress: ImportProgress?) throws -> ImportedCollection {
        switch self {
        case .openapi:
            var importer = OpenAPIImporter(document: document)
            importer.progress = progress
            return try importer.run()
        case .postman:
            var importer = PostmanImporter(document: document)
            importer.progress = progress
            return try importer.run()
        case .insomnia:
            var importer = InsomniaImporter(document: document)
            importer.progress = progress
            return try importer.run()
        case .bruno:
            throw document.error(at: nil, "expected \(expected)")
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

/// A URL with `http://` before it when it names no scheme (`localhost:4010/x`), as Postman's
/// and Insomnia's clients send it; one that starts with a variable or a tag is left as it is.
func withDefaultScheme(_ url: String) -> String {
    guard !url.isEmpty, !url.contains("://"), !url.hasPrefix("{{"), !url.hasPrefix("{%"), !url.hasPrefix("/") else { return url }
    return "http://" + url
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
