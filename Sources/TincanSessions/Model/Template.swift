import Foundation
import OrderedCollections
import TincanCore

/// `{{name}}` references in session text, and the values they expand to.
///
/// Besides the session's variables, environments, `--var` values and captures, three built-ins
/// are known: `{{$uuid}}`, `{{$timestamp}}` (Unix seconds) and `{{$env.NAME}}` (a process
/// environment variable, so that secrets need not be saved in the file).
public struct Template: Sendable {
    /// The variables, by name.
    public var variables: [String: ParameterValue]
    /// The process environment for `{{$env.NAME}}`.
    public var environment: [String: String]
    /// Names left as `{{name}}` when they have no value: captures, when a session is exported
    /// without being run.
    public var passthrough: Set<String> = []

    /// Creates a template context.
    public init(variables: [String: ParameterValue] = [:], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
        self.environment = environment
    }

    /// `text` with every reference replaced by its value's text.
    ///
    /// - Throws: ``MissingVariableError`` naming the first reference with no value.
    public func expand(_ text: String) throws(MissingVariableError) -> String {
        guard text.contains("{{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            result += rest[..<open.lowerBound]
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            result += Self.text(try value(of: name))
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// A value with its strings expanded. A string that is exactly one reference becomes the
    /// variable's value with its type, so `count: "{{n}}"` sends the number a capture took.
    public func expand(_ value: ParameterValue) throws(MissingVariableError) -> ParameterValue {
        switch value {
        case .string(let string):
            if let name = Self.soleReference(string) { return try self.value(of: name) }
            return .string(try expand(string))
        case .array(let items):
            var expanded: [ParameterValue] = []
            for item in items { expanded.append(try expand(item)) }
            return .array(expanded)
        case .dictionary(let members):
            var expanded: OrderedDictionary<String, ParameterValue> = [:]
            for (key, member) in members { expanded[try expand(key)] = try expand(member) }
            return .dictionary(expanded)
        default:
            return value
        }
    }

    /// The value of one name.
    public func value(of name: String) throws(MissingVariableError) -> ParameterValue {
        if let value = variables[name] { return value }
        if passthrough.contains(name) { return .string("{{\(name)}}") }
        switch name {
        case "$uuid", "$guid": return .string(UUID().uuidString.lowercased())
        case "$timestamp": return .integer(Int64(Date().timeIntervalSince1970))
        default: break
        }
        if name.hasPrefix("$env.") {
            let key = String(name.dropFirst(5))
            if let value = environment[key] { return .string(value) }
            throw MissingVariableError(name: name, known: [], detail: "the environment variable \(key) is not set")
        }
        throw MissingVariableError(name: name, known: variables.keys.sorted())
    }

    /// A value's text in a URL, header, body or check: scalars as themselves, collections as JSON.
    static func text(_ value: ParameterValue) -> String {
        switch value {
        case .bool(let bool): bool ? "true" : "false"
        case .null: "null"
        default: value.scalarText ?? JSONWriter.string(value)
        }
    }

    /// The name when `text` is one reference and nothing else.
    static func soleReference(_ text: String) -> String? {
        guard text.hasPrefix("{{"), text.hasSuffix("}}"), text.count > 4 else { return nil }
        let inner = text.dropFirst(2).dropLast(2)
        guard !inner.contains("{{"), !inner.contains("}}") else { return nil }
        return inner.trimmingCharacters(in: .whitespaces)
    }
}

extension Session {
    /// Where a session's relative file paths are read from: the session file's directory.
    public static func directory(of path: String) -> String {
        sessionDirectory(of: path)
    }
}

/// Where a session's relative file paths are read from: the session file's directory.
func sessionDirectory(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return directory.isEmpty ? FileManager.default.currentDirectoryPath : directory
}

/// A file path from a session, with `~` expanded and a relative path taken from `directory`.
func resolveSessionPath(_ path: String, in directory: String) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    return expanded.hasPrefix("/") ? expanded : (directory as NSString).appendingPathComponent(expanded)
}

/// A `{{name}}` with no value.
public struct MissingVariableError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name referred to.
    public var name: String
    /// The names that are defined, to spot a typo.
    public var known: [String]
    /// A more specific reason, when there is one.
    public var detail: String?

    public init(name: String, known: [String], detail: String? = nil) {
        self.name = name
        self.known = known
        self.detail = detail
    }

    public var description: String {
        if let detail { return "{{\(name)}}: \(detail)" }
        let defined = known.isEmpty ? "no variables are defined" : "defined: \(known.joined(separator: ", "))"
        return "the variable {{\(name)}} is not defined (\(defined)); give it with --var \(name)=VALUE, in variables:, or capture it in an earlier request"
    }
}
