import Yams

/// The bound on what aliases add to a YAML document.
///
/// Yams composes an alias as the node its anchor names, shared rather than copied, so a 1 KB
/// file of aliases of aliases ("billion laughs") composes at once but stands for a billion
/// nodes: any walk over it (reading a session's parameters, comparing, hashing) never ends.
/// ``check(_:in:)`` counts the nodes that aliases produce, stopping at ``limit``, before anything
/// else walks the tree. Plain documents, however large, are not limited: only nodes reached
/// through an alias count.
enum AliasLimit {
    /// The most nodes that aliases may produce in one document, counted with every alias inside
    /// an aliased node expanded.
    static let limit = 100_000

    /// Where the limit was reached, or nil when the document stays under it.
    ///
    /// - Parameters:
    ///   - root: The composed document.
    ///   - text: Its text, to find the alias (a composed alias carries its anchor's mark, not its own).
    static func check(_ root: Node, in text: String) -> (anchor: String, location: SourceLocation?)? {
        var walker = Walker()
        do {
            try walker.visit(root)
            return nil
        } catch {
            return locate(error, in: text)
        }
    }

    /// Finds the alias: the aliases met since the last node with a mark of its own are, in
    /// order, the next `*name` tokens after that mark. Each name is read from the text at its
    /// anchor's definition, since Yams holds anchors weakly and they are gone once composed.
    private static func locate(_ exceeded: Exceeded, in text: String) -> (anchor: String, location: SourceLocation?) {
        let source = SourceText(text)
        var cursor = exceeded.after.map(source.offset(of:)) ?? 0
        var found: Int?
        var name = "?"
        for definition in exceeded.aliases {
            guard let anchor = source.anchorName(at: source.offset(of: definition)) else { break }
            name = anchor
            guard let offset = source.alias(anchor, from: cursor) else { break }
            found = offset
            cursor = offset + 1
        }
        if let found { return (name, source.location(of: found)) }
        return (name, exceeded.after.map { SourceLocation(line: $0.line, column: $0.column) })
    }

    struct Exceeded: Error {
        /// The mark of the last node walked outside any alias.
        var after: Mark?
        /// The definitions of the aliases met since then, the one that reached the limit last.
        var aliases: [Mark]
    }

    /// Walks the document in order. A collection met again at a mark already walked is an
    /// alias (every collection in a document starts at its own place; only aliases repeat one).
    /// Aliased scalars are not counted: each adds one node, so their number is bounded by the
    /// file's size.
    private struct Walker {
        var walked: Set<String> = []
        var produced = 0
        var lastMark: Mark?
        var aliasesSinceMark: [Mark] = []

        mutating func visit(_ node: Node) throws(Exceeded) {
            switch node {
            case .mapping(let mapping):
                if try isAlias(node, kind: "m") { return }
                for (key, value) in mapping {
                    try visit(key)
                    try visit(value)
                }
            case .sequence(let sequence):
                if try isAlias(node, kind: "s") { return }
                for item in sequence { try visit(item) }
            case .scalar:
                if let mark = node.mark, Self.isAfter(mark, lastMark) {
                    lastMark = mark
                    aliasesSinceMark = []
                }
            case .alias:
                break
            }
        }

        /// Whether `node` is an alias; if so it has been counted.
        private mutating func isAlias(_ node: Node, kind: String) throws(Exceeded) -> Bool {
            guard let mark = node.mark else { return false }
            guard walked.insert("\(kind)\(mark.line):\(mark.column)").inserted else {
                aliasesSinceMark.append(mark)
                try expand(node)
                return true
            }
            lastMark = mark
            aliasesSinceMark = []
            return false
        }

        private static func isAfter(_ mark: Mark, _ other: Mark?) -> Bool {
            guard let other else { return true }
            return (mark.line, mark.column) > (other.line, other.column)
        }

        /// Counts every node of an aliased subtree, aliases within it included.
        mutating func expand(_ node: Node) throws(Exceeded) {
            produced += 1
            guard produced <= AliasLimit.limit else {
                throw Exceeded(after: lastMark, aliases: aliasesSinceMark)
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping {
                    try expand(key)
                    try expand(value)
                }
            case .sequence(let sequence):
                for item in sequence { try expand(item) }
            case .scalar, .alias:
                break
            }
        }
    }
}
