import OrderedCollections
import TincanCore

/// Example values for parameters and bodies: the spec's own (`example`, `examples`,
/// `default`), else one built from the schema, within bounds.
extension OpenAPIImporter {
    /// The deepest an example built from a schema nests; deeper members are left out.
    static let exampleDepth = 16
    /// The most values one example built from a schema holds. A schema whose every level
    /// refers to the next twice (no cycle, so nothing repeats) doubles at each level: 40 levels
    /// would be a trillion values, so the example is cut here and the cut is named.
    static let exampleValues = 2_000
    /// The most values all the examples of one document built from schemas hold together
    /// before each further one is kept short (``shortExampleValues``): what an import of any
    /// size writes, and holds in memory, stays bounded by its requests, not its schemas.
    static let documentExampleValues = 100_000
    /// The most values of an example built once the document's are spent.
    static let shortExampleValues = 50

    /// Where building an example stands: the values it may still hold, and where it was first cut.
    struct ExampleBudget {
        var valuesLeft = OpenAPIImporter.exampleValues
        /// The path of the first value left out, and why.
        var cut: (path: String, reason: String)?
    }

    /// The example of a parameter or media type: `example`, the first of `examples`, else the
    /// schema's.
    ///
    /// - Parameter place: The item, for what is not carried over (`request 'addPet'`).
    mutating func example(of holder: ImportNode, place: String) throws -> ParameterValue? {
        if let example = holder.member("example") { return example.parameterValue }
        if let examples = holder.member("examples"), let first = examples.members.first {
            switch try references.resolve(first.value) {
            case .external(let reference):
                notCarried.append("\(place): the example '\(first.key)' is not carried over: it is in \(reference), which an import cannot read")
            case .node(let example, _):
                if let value = example.member("value") { return value.parameterValue }
                if let external = example.member("externalValue")?.nonNullText {
                    notCarried.append("\(place): the example '\(first.key)' is not carried over: it is in \(external), which an import cannot read")
                }
            }
        }
        guard let schema = holder.member("schema") else { return nil }
        return try example(ofSchema: schema, place: place)
    }

    /// A value that fits the schema, built within ``exampleDepth`` and ``exampleValues``; a cut
    /// is named with the path where it was made.
    mutating func example(ofSchema node: ImportNode, place: String) throws -> ParameterValue? {
        let allowed = documentValuesLeft >= Self.exampleValues ? Self.exampleValues : max(documentValuesLeft, Self.shortExampleValues)
        var budget = ExampleBudget(valuesLeft: allowed)
        let value = try example(ofSchema: node, place: place, expanding: [], path: "$", depth: 0, budget: &budget)
        documentValuesLeft = max(0, documentValuesLeft - (allowed - budget.valuesLeft))
        if let cut = budget.cut {
            if allowed < Self.exampleValues, cut.reason.hasPrefix("after") {
                shortenedExamples += 1
            } else {
                notCarried.append("\(place): the example built from the schema is cut at \(cut.path) (\(cut.reason)); fill in the rest by hand")
            }
        }
        return value
    }

    /// The line naming the examples kept short once the document's were spent, if any.
    var shortenedExamplesNote: String? {
        guard shortenedExamples > 0 else { return nil }
        return "the examples of \(shortenedExamples) request\(shortenedExamples == 1 ? "" : "s") are cut short (\(Self.shortExampleValues) values at most): the document's examples reached \(RequestPreview.grouped(Int64(Self.documentExampleValues))) values, the most an import writes; fill them in by hand"
    }

    /// A value that fits the schema: its example, default, first enum value or constant, else
    /// one built from its type and format.
    ///
    /// - Parameters:
    ///   - expanding: The `$ref`s being expanded around this schema: one met again is a
    ///     recursive schema, whose example stops there (nil).
    ///   - path: Where the value goes in the example (`$.owner.name`), to name a cut.
    mutating func example(ofSchema node: ImportNode, place: String, expanding: [String], path: String, depth: Int, budget: inout ExampleBudget) throws -> ParameterValue? {
        guard depth <= Self.exampleDepth else {
            if budget.cut == nil { budget.cut = (path, "\(Self.exampleDepth) levels deep; the schema nests deeper") }
            return nil
        }
        guard budget.valuesLeft > 0 else {
            if budget.cut == nil { budget.cut = (path, "after \(RequestPreview.grouped(Int64(Self.exampleValues))) values; the schema's example would be larger") }
            return nil
        }
        budget.valuesLeft -= 1
        var expanding = expanding
        let schema: ImportNode
        switch try references.resolve(node) {
        case .external(let reference):
            notCarried.append("\(place): the schema \(reference) is in another file, which an import cannot read; its example is left out")
            return nil
        case .node(let target, let reference):
            if let reference {
                if expanding.contains(reference) {
                    if reportedRecursion.insert(reference).inserted {
                        notCarried.append("\(place): the schema \(reference) contains itself (\((expanding + [reference]).joined(separator: " → "))); its example stops where it repeats")
                    }
                    return nil
                }
                expanding.append(reference)
            }
            schema = target
        }
        if let example = schema.member("example") { return example.parameterValue }
        if let examples = schema.member("examples")?.sequence, let first = examples.first { return first.parameterValue }
        if let value = schema.member("default") ?? schema.member("const") { return value.parameterValue }
        if let first = schema.member("enum")?.sequence?.first { return first.parameterValue }
        if let all = schema.member("allOf")?.sequence {
            var merged: OrderedDictionary<String, ParameterValue> = [:]
            var other: ParameterValue?
            for part in all {
                switch try example(ofSchema: part, place: place, expanding: expanding, path: path, depth: depth, budget: &budget) {
                case .dictionary(let members)?: merged.merge(members) { _, new in new }
                case let value?: other = value
                case nil: break
                }
            }
            return merged.isEmpty ? other : .dictionary(merged)
        }
        if let first = (schema.member("oneOf") ?? schema.member("anyOf"))?.sequence?.first {
            return try example(ofSchema: first, place: place, expanding: expanding, path: path, depth: depth, budget: &budget)
        }
        switch Self.schemaType(schema) {
        case "object":
            var members: OrderedDictionary<String, ParameterValue> = [:]
            for member in schema.member("properties")?.members ?? [] {
                let memberPath = path + (Self.isPlainName(member.key) ? ".\(member.key)" : "[\"\(member.key)\"]")
                if let value = try example(ofSchema: member.value, place: place, expanding: expanding, path: memberPath, depth: depth + 1, budget: &budget) {
                    members[member.key] = value
                }
            }
            return .dictionary(members)
        case "array":
            guard let items = schema.member("items") else { return .array([]) }
            return .array(try example(ofSchema: items, place: place, expanding: expanding, path: path + "[0]", depth: depth + 1, budget: &budget).map { [$0] } ?? [])
        case "integer", "number":
            if let minimum = schema.member("minimum")?.parameterValue, minimum.scalarText != nil { return minimum }
            return .integer(0)
        case "boolean": return .bool(true)
        case "null": return .null
        case "string": return .string(Self.sample(format: schema.member("format")?.nonNullText))
        case "file": return nil
        default: return .string("")
        }
    }

    /// Whether a member name can follow a dot in a path.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    /// The schema's type: `type` (the first that is not null in a 3.1 list), else what its
    /// keys imply.
    static func schemaType(_ schema: ImportNode) -> String? {
        if let type = schema.member("type") {
            if let text = type.nonNullText { return text }
            let types = type.sequence?.compactMap(\.nonNullText) ?? []
            return types.first { $0 != "null" } ?? types.first
        }
        if schema.member("properties") != nil || schema.member("additionalProperties") != nil { return "object" }
        if schema.member("items") != nil { return "array" }
        return nil
    }

    /// Whether a schema is a file's bytes (`format: binary`, a 3.1 `contentMediaType`, or
    /// Swagger 2.0's `type: file`).
    mutating func isBinary(_ node: ImportNode) throws -> Bool {
        guard case .node(let schema, _) = try references.resolve(node) else { return false }
        if schema.member("format")?.nonNullText == "binary" || schema.member("contentMediaType") != nil || schema.member("type")?.nonNullText == "file" { return true }
        if Self.schemaType(schema) == "array", let items = schema.member("items") { return try isBinary(items) }
        return false
    }

    /// A plausible string for a format.
    static func sample(format: String?) -> String {
        switch format {
        case "date-time": "2024-01-01T00:00:00Z"
        case "date": "2024-01-01"
        case "time": "00:00:00Z"
        case "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case "email": "user@example.com"
        case "uri", "url", "uri-reference", "iri": "https://example.com"
        case "hostname", "idn-hostname": "example.com"
        case "ipv4": "192.0.2.1"
        case "ipv6": "2001:db8::1"
        case "byte": "ZXhhbXBsZQ=="
        case "password": "password"
        case "idn-email": "user@example.com"
        case "duration": "P1D"
        default: "string"
        }
    }
}
