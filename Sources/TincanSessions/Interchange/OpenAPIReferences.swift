import Foundation

/// `$ref`s inside one document (`#/components/schemas/Pet`, `#/definitions/Pet`), found in
/// constant time once the mappings they pass through are indexed, with cycles and external
/// references told apart.
struct OpenAPIReferences {
    let document: ImportDocument
    /// The members of every mapping a reference has passed through, by its JSON pointer.
    private var indexed: [String: [String: ImportNode]] = [:]
    /// Each reference's target, once found: a schema used by a thousand operations is looked
    /// up once.
    private var targets: [String: ImportNode] = [:]

    init(document: ImportDocument) {
        self.document = document
    }

    /// What a node is once its `$ref`s are followed.
    enum Target {
        /// The node itself, or what its references lead to; `reference` is the last `$ref`
        /// followed (nil when the node was not one).
        case node(ImportNode, reference: String?)
        /// A reference to another file or URL, which an import cannot read.
        case external(String)
    }

    /// The `$ref` a node holds, or nil.
    static func reference(of node: ImportNode) -> String? {
        node.member("$ref")?.text
    }

    /// Follows `$ref`s from `node` until a node that is not one.
    ///
    /// - Throws: ``ConfigFileError`` at the reference for a cycle (naming the chain) or a
    ///   pointer that names nothing in the document.
    mutating func resolve(_ node: ImportNode) throws -> Target {
        var current = node
        var chain: [String] = []
        while let reference = Self.reference(of: current) {
            guard reference.hasPrefix("#") else { return .external(reference) }
            if chain.contains(reference) {
                throw document.error(at: current, "the $ref chain \((chain + [reference]).joined(separator: " → ")) is a cycle; a reference must lead to a value")
            }
            chain.append(reference)
            if let known = targets[reference] {
                current = known
            } else {
                current = try target(of: reference, at: current)
                targets[reference] = current
            }
        }
        return .node(current, reference: chain.last)
    }

    /// The node a local JSON pointer (`#/components/schemas/Pet`) names.
    private mutating func target(of reference: String, at place: ImportNode) throws -> ImportNode {
        var node = document.root
        var pointer = "#"
        let tokens = reference.dropFirst().split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard reference.hasPrefix("#/") || reference == "#" else {
            throw document.error(at: place, "$ref '\(reference)' is not a JSON pointer; expected one such as #/components/schemas/Pet")
        }
        for raw in tokens {
            let token = (String(raw).removingPercentEncoding ?? String(raw)).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            var next: ImportNode?
            if node.isMapping {
                if indexed[pointer] == nil {
                    var members: [String: ImportNode] = [:]
                    for member in node.members { members[member.key] = member.value }
                    indexed[pointer] = members
                }
                next = indexed[pointer]?[token]
            } else if let sequence = node.sequence, let index = Int(token), sequence.indices.contains(index) {
                next = sequence[index]
            }
            guard let next else {
                throw document.error(at: place, "$ref '\(reference)' names nothing in the document: \(pointer) has no '\(token)'")
            }
            node = next
            pointer += "/" + raw
        }
        return node
    }
}
