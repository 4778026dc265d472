import Foundation
import OrderedCollections
import TincanCore

/// `{{name}}` references in session text, and the values they expand to.
///
/// Besides the session's variables, environments, `--var` values and captures, these built-ins
/// are known: `{{$uuid}}`, `{{$timestamp}}` (Unix seconds), `{{$env.NAME}}` (a process
/// environment variable, so that secrets need not be saved in the file), and the addresses of
/// Tincan's own in-process demo servers (``DemoAddresses``: `{{$demo}}` and its TLS kin), which
/// every command that opens a session starts when the session uses them.
///
/// A variable's own value may hold references (`url: "{{host}}/v1"`, `auth: "Bearer
/// {{$env.TOKEN}}"`): they are expanded when the variable is used, against the same layered
/// variables, so an environment or `--var` that changes `host` changes `url` too. A cycle is an
/// error naming it (`a → b → a`). Captured values are taken as they came from the response and
/// never expanded. `{{'text'}}` is `text` itself, so `{{'{{'}}` writes a literal `{{`.
public struct Template: Sendable {
    /// The variables, by name: the file's, the environment's and `--var`'s, layered. Their
    /// values are expanded when used.
    public var variables: [String: ParameterValue]
    /// The names given on the command line (`--var`): a request's own variables do not replace them.
    public var overridden: Set<String> = []
    /// Values captured from responses: they win over ``variables`` and are used as they are.
    public var captured: [String: ParameterValue] = [:]
    /// The process environment for `{{$env.NAME}}`.
    public var environment: [String: String]
    /// The demo servers this command started for `{{$demo}}` and its kin, if any.
    public var demo: DemoAddresses?
    /// Names left as `{{name}}` when they have no value: captures, when a session is exported
    /// without being run.
    public var passthrough: Set<String> = []
    /// The value of a name nothing defines (built-ins included), instead of an error: an
    /// import's check that its requests can be built gives every variable a value this way,
    /// and learns the names it gave one.
    var fallback: (@Sendable (String) -> ParameterValue)?
    /// Whether `{{$timestamp}}` reads the clock. A replay that builds a request ahead of its turn
    /// turns it off, and builds a request that needs the time again at its turn.
    var readsClock = true

    /// The most references one expansion may follow, variables within variables included:
    /// `a: "{{b}}{{b}}"`, `b: "{{c}}{{c}}"`… doubles at each step, as YAML's billion laughs do.
    public static let expansionLimit = 100_000

    /// Creates a template context.
    public init(variables: [String: ParameterValue] = [:], environment: [String: String] = ProcessEnvironment.values) {
        self.variables = variables
        self.environment = environment
    }

    /// `text` with every reference replaced by its value's text.
    ///
    /// - Throws: ``MissingVariableError`` naming the first reference with no value, or a cycle.
    public func expand(_ text: String) throws(MissingVariableError) -> String {
        var budget = Self.expansionLimit
        return try expand(text, through: [], budget: &budget)
    }

    /// A value with its strings expanded. A string that is exactly one reference becomes the
    /// variable's value with its type, so `count: "{{n}}"` sends the number a capture took.
    ///
    /// - Throws: ``MissingVariableError`` naming the first reference with no value, or a cycle.
    public func expand(_ value: ParameterValue) throws(MissingVariableError) -> ParameterValue {
        var budget = Self.expansionLimit
        return try expand(value, through: [], budget: &budget)
    }

    /// The value of one name, its own references expanded.
    ///
    /// - Throws: ``MissingVariableError`` when the name, or one its value refers to, has no value.
    public func value(of name: String) throws(MissingVariableError) -> ParameterValue {
        var budget = Self.expansionLimit
        return try value(of: name, through: [], budget: &budget)
    }

    // MARK: - Expansion

    /// `chain` holds the variables being expanded, outermost first, to find cycles.
    private func expand(_ text: String, through chain: [String], budget: inout Int) throws(MissingVariableError) -> String {
        try Self.replacingReferences(in: text) { name throws(MissingVariableError) in
            Self.text(try value(of: name, through: chain, budget: &budget))
        }
    }

    /// `text` with each `{{name}}` replaced by what `replacement` makes of its name (trimmed):
    /// the one scan of the reference syntax, for expanding, for listing names, and for imports
    /// that rewrite another client's references.
    static func replacingReferences<Failure: Error>(in text: String, _ replacement: (String) throws(Failure) -> String) throws(Failure) -> String {
        guard mayHoldReferences(text) else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            result += rest[..<open.lowerBound]
            result += try replacement(rest[open.upperBound..<close.lowerBound].trimmingWhitespace())
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    private func expand(_ value: ParameterValue, through chain: [String], budget: inout Int) throws(MissingVariableError) -> ParameterValue {
        switch value {
        case .string(let string):
            if let name = Self.soleReference(string) { return try self.value(of: name, through: chain, budget: &budget) }
            return .string(try expand(string, through: chain, budget: &budget))
        case .array(let items):
            var expanded: [ParameterValue] = []
            for item in items { expanded.append(try expand(item, through: chain, budget: &budget)) }
            return .array(expanded)
        case .dictionary(let members):
            var expanded: OrderedDictionary<String, ParameterValue> = [:]
            for (key, member) in members {
                expanded[try expand(key, through: chain, budget: &budget)] = try expand(member, through: chain, budget: &budget)
            }
            return .dictionary(expanded)
        default:
            return value
        }
    }

    private func value(of name: String, through chain: [String], budget: inout Int) throws(MissingVariableError) -> ParameterValue {
        budget -= 1
        guard budget >= 0 else {
            throw MissingVariableError(name: chain.first ?? name, .tooManyReferences)
        }
        if let literal = Self.quotedLiteral(name) { return .string(literal) }
        if let value = captured[name] { return value }
        if let value = variables[name] {
            if let start = chain.firstIndex(of: name) {
                let cycle = chain[start...] + [name]
                throw MissingVariableError(name: name, .cycle(Array(cycle)))
            }
            return try expand(value, through: chain + [name], budget: &budget)
        }
        if passthrough.contains(name) { return .string("{{\(name)}}") }
        if name.hasPrefix(ImportedPaths.placeholderPrefix) { throw MissingVariableError(name: name, .fileNotChosen) }
        if let fallback { return fallback(name) }
        switch name {
        case "$uuid", "$guid": return .string(UUID().uuidString.lowercased())
        case "$timestamp":
            guard readsClock else { throw MissingVariableError(name: name, .clockNotRead) }
            return .integer(Int64(Date().timeIntervalSince1970))
        default: break
        }
        if let builtin = DemoAddresses.Name(rawValue: name) {
            guard let address = demo?[builtin] else { throw MissingVariableError(name: name, .demoServerNotStarted) }
            return .string(address)
        }
        if name.hasPrefix("$env.") {
            let key = String(name.dropFirst(5))
            if let value = environment[key] { return .string(value) }
            throw MissingVariableError(name: name, .environmentVariableNotSet(key))
        }
        throw MissingVariableError(name: name, .undefined(known: Set(variables.keys).union(captured.keys).sorted()))
    }

    /// Whether `name` is one of the built-ins (`$uuid`, `$guid`, `$timestamp`, `$env.NAME`).
    static func isBuiltin(_ name: String) -> Bool {
        ["$uuid", "$guid", "$timestamp"].contains(name) || name.hasPrefix("$env.")
    }

    /// The text of `{{'text'}}`: a quoted name is itself, which is how a literal `{{` is written.
    static func quotedLiteral(_ name: String) -> String? {
        guard name.count >= 2, name.hasPrefix("'"), name.hasSuffix("'") else { return nil }
        return String(name.dropFirst().dropLast())
    }

    /// The names referred to in `text`, in order (quoted literals left out).
    /// Whether `text` holds `{{`, looked for byte by byte: every value of every request is asked,
    /// and Foundation's `contains` takes thousands of instructions to answer.
    public static func mayHoldReferences(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{"), previous == byte { return true }
            previous = byte
        }
        return false
    }

    static func references(in text: String) -> [String] {
        var names: [String] = []
        _ = replacingReferences(in: text) { name in
            if quotedLiteral(name) == nil { names.append(name) }
            return ""
        }
        return names
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
        return inner.trimmingWhitespace()
    }
}
