import TincanCore

/// A GraphQL schema as introspection gives it: the root types, and each type's fields with their
/// types, for the TUI's schema list and the field names it completes in a GraphQL body.
struct GraphQLSchema: Sendable, Equatable {
    /// A field (or an input field): its name and its type as written in GraphQL (`[Book!]!`).
    struct Field: Sendable, Equatable {
        var name: String
        /// The type as written in GraphQL.
        var type: String
        /// The named type inside the lists and non-nulls, which a selection on it selects from.
        var namedType: String
    }

    /// A named type: its kind (`OBJECT`, `INPUT_OBJECT`, `ENUM`, `SCALAR`…) and fields.
    struct NamedType: Sendable, Equatable {
        var name: String
        var kind: String
        var fields: [Field]
    }

    /// The query asked: the root types' names, and every type with its fields and their types.
    static let introspectionQuery = """
        query IntrospectionQuery { __schema { queryType { name } mutationType { name } types { kind name \
        fields(includeDeprecated: true) { name type { ...TypeRef } } inputFields { name type { ...TypeRef } } } } } \
        fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
        """

    var queryType: String?
    var mutationType: String?
    /// The schema's own types, in its order (introspection's `__` types left out).
    var types: [NamedType]

    /// The schema in an introspection response's JSON (`{"data": {"__schema": …}}`), or nil
    /// when it holds none.
    init?(response: ParameterValue) {
        guard case .dictionary(let root)? = Self.member("__schema", of: Self.member("data", of: response)) else { return nil }
        queryType = Self.text(Self.member("name", of: root["queryType"]))
        mutationType = Self.text(Self.member("name", of: root["mutationType"]))
        guard case .array(let list)? = root["types"] else { return nil }
        types = list.compactMap { node -> NamedType? in
            guard let name = Self.text(Self.member("name", of: node)), !name.hasPrefix("__") else { return nil }
            var fields: [Field] = []
            for key in ["fields", "inputFields"] {
                guard case .array(let members)? = Self.member(key, of: node) else { continue }
                fields += members.compactMap { member in
                    guard let name = Self.text(Self.member("name", of: member)), let type = Self.member("type", of: member) else { return nil }
                    return Field(name: name, type: Self.written(type), namedType: Self.named(type))
                }
            }
            return NamedType(name: name, kind: Self.text(Self.member("kind", of: node)) ?? "", fields: fields)
        }
    }

    /// The type named `name`.
    func type(named name: String?) -> NamedType? {
        name.flatMap { name in types.first { $0.name == name } }
    }

    /// The fields of the query type.
    var queries: [Field] { type(named: queryType)?.fields ?? [] }
    /// The fields of the mutation type.
    var mutations: [Field] { type(named: mutationType)?.fields ?? [] }

    /// The schema as the TUI lists it: queries, mutations, then the other types with their fields.
    var listing: [String] {
        var lines = ["Queries (\(queryType ?? "none"))"]
        lines += queries.map { "  \($0.name): \($0.type)" }
        if mutationType != nil {
            lines += ["", "Mutations (\(mutationType!))"] + mutations.map { "  \($0.name): \($0.type)" }
        }
        lines += ["", "Types"]
        for type in types where type.name != queryType && type.name != mutationType {
            lines.append("  \(type.name) (\(type.kind.lowercased()))")
            lines += type.fields.map { "    \($0.name): \($0.type)" }
        }
        return lines
    }

    // MARK: - Completion

    /// The field names that complete the word before the end of `text` (the query up to the
    /// cursor): the fields of the type whose selection set the cursor is in, that start with
    /// the word typed so far. Returns that word and the names, in the schema's order.
    func completions(before text: Substring) -> (word: String, names: [String]) {
        let word = String(text.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
        guard let typeName = selectionType(of: text.dropLast(word.count)), let type = type(named: typeName) else { return (word, []) }
        return (word, type.fields.map(\.name).filter { $0.hasPrefix(word) && $0 != word })
    }

    /// The type of the selection set open at the end of `text`, walked from the operation's
    /// root: each `{` opens the type of the field before it; arguments, strings, comments,
    /// aliases and fragment spreads are stepped over.
    func selectionType(of text: Substring) -> String? {
        var stack: [String?] = []
        var root = queryType
        var lastField: String?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "#" {
                index = text[index...].firstIndex(of: "\n") ?? text.endIndex
                continue
            }
            if character == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"" {
                    if text[index] == "\\" { index = text.index(after: index) }
                    if index < text.endIndex { index = text.index(after: index) }
                }
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            if character == "(" {
                var depth = 0
                while index < text.endIndex {
                    if text[index] == "(" { depth += 1 }
                    if text[index] == ")" { depth -= 1; if depth == 0 { break } }
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            if character == "{" {
                if stack.isEmpty {
                    stack.append(root)
                } else {
                    let parent = type(named: stack.last ?? nil)
                    stack.append(parent?.fields.first { $0.name == lastField }?.namedType)
                }
                lastField = nil
            } else if character == "}" {
                _ = stack.popLast()
                lastField = nil
            } else if character.isLetter || character == "_" {
                let end = text[index...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? text.endIndex
                let name = String(text[index..<end])
                if stack.isEmpty {
                    if name == "mutation" { root = mutationType } else if name == "query" { root = queryType }
                } else if !(text[..<index].hasSuffix("...") || text[..<index].hasSuffix("... ")) && name != "on" {
                    // An alias (`alias: field`) is replaced by the field after its colon.
                    lastField = name
                }
                index = end
                continue
            }
            index = text.index(after: index)
        }
        return stack.last ?? nil
    }

    // MARK: - Reading

    private static func member(_ key: String, of value: ParameterValue?) -> ParameterValue? {
        guard case .dictionary(let members)? = value else { return nil }
        return members[key]
    }

    private static func text(_ value: ParameterValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// A type reference as GraphQL writes it: `[Book!]!`.
    private static func written(_ type: ParameterValue) -> String {
        let inner = member("ofType", of: type).map(written) ?? "?"
        switch text(member("kind", of: type)) {
        case "NON_NULL": return inner + "!"
        case "LIST": return "[\(inner)]"
        default: return text(member("name", of: type)) ?? "?"
        }
    }

    /// The named type inside a reference's lists and non-nulls.
    private static func named(_ type: ParameterValue) -> String {
        if let name = text(member("name", of: type)) { return name }
        return member("ofType", of: type).map(named) ?? "?"
    }
}
