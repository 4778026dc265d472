import Foundation
import TincanCore
import Yams

/// A collection file, read as JSON when it is JSON and as YAML otherwise, with the helpers the
/// importers share: text, lists and errors at a value's line and column.
///
/// A file named `*.json` is JSON. Any other file whose first character is `{` or `[` is read as
/// JSON first and as YAML when that fails (YAML's flow style starts so too), and a file neither
/// reads is refused with the JSON error, which is where such a file most likely went wrong.
/// JSON goes through ``JSONParser``: YAML 1.1 has no surrogate pairs (`"\ud83d\udc4d"`, which
/// Python's `json.dumps` writes for every emoji), nor JSON's numbers (`1e5`).
struct ImportDocument {
    /// Which syntax a file was read in.
    enum Syntax: Sendable {
        case json
        case yaml
    }

    let path: String
    let root: ImportNode
    let syntax: Syntax
    /// The JSON text, to turn an offset into a line and column when an error names one.
    private let bytes: [UInt8]

    /// Reads and parses a file of at most `limit` bytes; a byte-order mark before it is skipped.
    ///
    /// - Parameter expected: What the top level must be, for the error when it is not a mapping.
    /// - Throws: ``ConfigFileError`` naming the file, line and column.
    static func load(path: String, limit: Int, expected: String, progress: ImportProgress? = nil) throws -> ImportDocument {
        let bytes = try ConfigFile.readText(path: path, limit: limit)
        progress?(.parsing(bytes: bytes.count))
        return try parse(bytes, path: path, expected: expected)
    }

    /// Parses the UTF-8 text of a file; `path` names it in errors (and says, by its extension,
    /// whether it is JSON).
    ///
    /// - Throws: ``ConfigFileError`` naming the file, line and column.
    static func parse(_ bytes: [UInt8], path: String, expected: String) throws -> ImportDocument {
        let bytes = BoundedFile.startsWithByteOrderMark(bytes) ? Array(bytes.dropFirst(BoundedFile.byteOrderMark.count)) : bytes
        let first = bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        let namedJSON = path.lowercased().hasSuffix(".json")
        if namedJSON || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            var builder = ImportNodeBuilder()
            do {
                let root = try JSONParser.parse(bytes: bytes, builder: &builder)
                guard root.isMapping else {
                    let place = JSONParser.place(of: root.place.offset ?? 0, in: bytes)
                    throw ConfigFileError(file: path, line: place.line, column: place.column, message: "expected \(expected)")
                }
                return ImportDocument(path: path, root: root, syntax: .json, bytes: bytes)
            } catch let error as JSONParseError {
                let failure = ConfigFileError(file: path, line: error.line, column: error.column, message: "malformed JSON: \(error.reason)")
                if namedJSON { throw failure }
                guard let document = try? yaml(String(decoding: bytes, as: UTF8.self), path: path, expected: expected) else { throw failure }
                return document
            }
        }
        return try yaml(String(decoding: bytes, as: UTF8.self), path: path, expected: expected)
    }

    private static func yaml(_ text: String, path: String, expected: String) throws -> ImportDocument {
        let file: ConfigFile
        do {
            file = try ConfigFile.parse(text, path: path)
        } catch let error as ConfigFileError where error.reason == .topLevelNotAMapping {
            throw ConfigFileError(file: error.file, line: error.line, column: error.column, message: "expected \(expected)")
        }
        return ImportDocument(path: path, root: ImportNode(.mapping(file.root)), syntax: .yaml, bytes: [])
    }

    /// An error at a node (or at the top of the file).
    func error(at node: ImportNode?, _ message: String) -> ConfigFileError {
        let (line, column) = place(of: node)
        return ConfigFileError(file: path, line: line, column: column, message: message)
    }

    /// The line and column where a node starts (the top of the file for none).
    func place(of node: ImportNode?) -> (line: Int?, column: Int?) {
        switch node?.place {
        case .offset(let offset)?:
            let place = JSONParser.place(of: offset, in: bytes)
            return (place.line, place.column)
        case .mark(let line, let column)?: return (line, column)
        case .unknown?: return (nil, nil)
        case nil: return (1, 1)
        }
    }

    /// A node's text, or an error naming what was expected.
    func text(_ node: ImportNode, _ expected: String) throws -> String {
        guard let text = node.text else { throw error(at: node, "expected \(expected)") }
        return text
    }

    /// A list, or an error naming what was expected.
    func list(_ node: ImportNode, _ expected: String) throws -> [ImportNode] {
        guard let items = node.sequence else { throw error(at: node, "expected \(expected)") }
        return items
    }
}

extension ImportPlace {
    /// The byte offset, for a JSON value.
    var offset: Int? {
        if case .offset(let offset) = self { return offset }
        return nil
    }
}
