import OrderedCollections
import TincanCore

/// A filter selector, `[?(@.price < 10)]`: the expression, and its text as written.
public struct BodyPathFilter: Sendable, Hashable {
    /// A comparison's operator.
    public enum Comparison: String, Sendable, CaseIterable {
        // Longer operators first, so that `<=` is not read as `<`.
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
    }

    /// A side of a comparison.
    public enum Operand: Sendable, Hashable {
        /// `@.a.b` (relative to the element tested) or `$.a` (from the body's root); plain steps only.
        case path(relative: Bool, [BodyPath.Step])
        case literal(ParameterValue)
    }

    public indirect enum Expression: Sendable, Hashable {
        case or(Expression, Expression)
        case and(Expression, Expression)
        case not(Expression)
        /// `@.isbn`: the path has a value.
        case exists(Operand)
        case compare(Operand, Comparison, Operand)
    }

    /// The expression as written, after `?`: `(@.price < 10)`.
    public var text: String
    public var expression: Expression

    /// Whether the expression holds for `node` (the `@`), in a body whose root is `root`.
    func holds(for node: ParameterValue, root: ParameterValue) -> Bool {
        Self.holds(expression, node, root)
    }

    private static func holds(_ expression: Expression, _ node: ParameterValue, _ root: ParameterValue) -> Bool {
        switch expression {
        case .or(let left, let right): holds(left, node, root) || holds(right, node, root)
        case .and(let left, let right): holds(left, node, root) && holds(right, node, root)
        case .not(let inner): !holds(inner, node, root)
        case .exists(let operand): value(operand, node, root) != nil
        case .compare(let left, let comparison, let right): compare(value(left, node, root), comparison, value(right, node, root))
        }
    }

    private static func value(_ operand: Operand, _ node: ParameterValue, _ root: ParameterValue) -> ParameterValue? {
        switch operand {
        case .literal(let value): value
        case .path(let relative, let steps): BodyPath.follow(steps, from: relative ? node : root)
        }
    }

    /// RFC 9535's comparisons: nothing equals only nothing; numbers compare as numbers, text
    /// by its characters' code points; other kinds are only equal or not.
    private static func compare(_ left: ParameterValue?, _ comparison: Comparison, _ right: ParameterValue?) -> Bool {
        switch comparison {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .lessOrEqual: return less(left, right) || (equal(left, right) && orderable(left))
        case .greaterOrEqual: return less(right, left) || (equal(left, right) && orderable(left))
        case .less: return less(left, right)
        case .greater: return less(right, left)
        }
    }

    private static func equal(_ left: ParameterValue?, _ right: ParameterValue?) -> Bool {
        guard let left, let right else { return left == nil && right == nil }
        if let a = number(left), let b = number(right) { return a == b }
        switch (left, right) {
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.dictionary(let a), .dictionary(let b)): return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        default: return left == right
        }
    }

    private static func less(_ left: ParameterValue?, _ right: ParameterValue?) -> Bool {
        guard let left, let right else { return false }
        if let a = number(left), let b = number(right) { return a < b }
        if case .string(let a) = left, case .string(let b) = right { return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) }
        return false
    }

    private static func orderable(_ value: ParameterValue?) -> Bool {
        switch value {
        case .integer?, .double?, .string?: true
        default: false
        }
    }

    private static func number(_ value: ParameterValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }
}

extension BodyPath {
    /// What the path selects in `root`, in document order: one value or none for a plain path.
    /// Stops once more than ``selectionLimit`` values are selected, so that memory stays bounded
    /// (`$..*..*..*` on a deep body grows fast); ``tooMany(_:)`` then says so.
    public func select(in root: ParameterValue) -> [ParameterValue] {
        select(from: root, root: root)
    }

    /// What the path selects in `root`, each with the plain path that reaches it
    /// (`$.items[2].price`), in document order; bounded as ``select(in:)`` is.
    public func locate(in root: ParameterValue) -> [BodyPathMatch] {
        select(from: BodyPathMatch(steps: [], value: root), root: root)
    }

    private func select<Node: PathNode>(from start: Node, root: ParameterValue) -> [Node] {
        var nodes = [start]
        for step in steps {
            var next: [Node] = []
            for node in nodes {
                Self.apply(step, to: node, root: root, into: &next)
                if next.count > Self.selectionLimit { return Array(next.prefix(Self.selectionLimit + 1)) }
            }
            nodes = next
        }
        return nodes
    }

    /// The most values a multi-valued path may select.
    public static let selectionLimit = 1_000_000

    /// Why a value this path gave cannot be checked or captured: it selected more than
    /// ``selectionLimit`` values. Nil for any other value.
    public func tooMany(_ value: ParameterValue?) -> String? {
        guard !isSingular, case .array(let items)? = value, items.count > Self.selectionLimit else { return nil }
        return "\(text) selects more than \(Self.selectionLimit) values"
    }

    /// The value at plain steps from `value`, or nil when one is missing.
    static func follow(_ steps: [Step], from value: ParameterValue) -> ParameterValue? {
        var current = value
        for step in steps {
            var next: [ParameterValue] = []
            apply(step, to: current, root: value, into: &next)
            guard next.count == 1, let only = next.first else { return nil }
            current = only
        }
        return current
    }

    private static func apply<Node: PathNode>(_ step: Step, to node: Node, root: ParameterValue, into result: inout [Node]) {
        switch (step, node.pathValue) {
        case (.key(let key), .dictionary(let members)):
            if let value = members[key] { result.append(node.pathChild(.key(key), value)) }
        case (.index(let index), .array(let items)):
            let position = index < 0 ? items.count + index : index
            if items.indices.contains(position) { result.append(node.pathChild(.index(position), items[position])) }
        case (.wildcard, _):
            result += children(of: node)
        case (.slice, .array(let items)):
            result += positions(step, count: items.count).map { node.pathChild(.index($0), items[$0]) }
        case (.descendants, _):
            // Every node below, but no more than a selection may hold: the walk stops there
            // rather than gathering a large body's millions of nodes first.
            var stack = [node]
            while let next = stack.popLast(), result.count <= selectionLimit {
                result.append(next)
                stack += children(of: next).reversed()
            }
        case (.filter(let filter), _):
            result += children(of: node).filter { filter.holds(for: $0.pathValue, root: root) }
        default:
            break
        }
    }

    private static func children<Node: PathNode>(of node: Node) -> [Node] {
        switch node.pathValue {
        case .array(let items): items.enumerated().map { node.pathChild(.index($0.offset), $0.element) }
        case .dictionary(let members): members.map { node.pathChild(.key($0.key), $0.value) }
        default: []
        }
    }

    /// The indices a slice selects in an array of `count` elements, in the slice's order (RFC 9535 §2.3.4).
    static func positions(_ step: Step, count: Int) -> [Int] {
        guard case .slice(let start, let end, let stride) = step else { return [] }
        let increment = stride ?? 1
        guard increment != 0, count > 0 else { return [] }
        func normalized(_ bound: Int) -> Int { bound >= 0 ? bound : count + bound }
        // Forwards from the lower bound up to the end, or backwards from the start down to the end.
        var position: Int
        let continues: (Int) -> Bool
        if increment > 0 {
            let upper = min(max(normalized(end ?? count), 0), count)
            position = min(max(normalized(start ?? 0), 0), count)
            continues = { $0 < upper }
        } else {
            let lower = min(max(end.map(normalized) ?? -1, -1), count - 1)
            position = min(max(normalized(start ?? count - 1), -1), count - 1)
            continues = { lower < $0 }
        }
        var positions: [Int] = []
        while continues(position) {
            positions.append(position)
            let (next, overflow) = position.addingReportingOverflow(increment)
            if overflow { break }
            position = next
        }
        return positions
    }

    /// `value` without what `step` then `rest` select under it.
    static func removeSelected(_ step: Step, _ rest: ArraySlice<Step>, from value: ParameterValue, root: ParameterValue) -> ParameterValue {
        if step == .descendants {
            // The steps after `..` apply here and at every level below.
            var removed = rest.isEmpty ? value : remove(rest, from: value, root: root)
            switch removed {
            case .array(var items):
                for index in items.indices { items[index] = removeSelected(.descendants, rest, from: items[index], root: root) }
                removed = .array(items)
            case .dictionary(var members):
                for key in members.keys { members[key] = members[key].map { removeSelected(.descendants, rest, from: $0, root: root) } }
                removed = .dictionary(members)
            default: break
            }
            return removed
        }
        func selected(_ child: ParameterValue) -> Bool {
            if case .filter(let filter) = step { return filter.holds(for: child, root: root) }
            return true
        }
        switch value {
        case .array(var items):
            let chosen: [Int] = if case .slice = step { positions(step, count: items.count) } else { items.indices.filter { selected(items[$0]) } }
            if rest.isEmpty {
                for index in Set(chosen).sorted(by: >) { items.remove(at: index) }
            } else {
                for index in Set(chosen) { items[index] = remove(rest, from: items[index], root: root) }
            }
            return .array(items)
        case .dictionary(var members):
            guard step == .wildcard || { if case .filter = step { true } else { false } }() else { return value }
            for (key, child) in members where selected(child) {
                if rest.isEmpty { members.removeValue(forKey: key) } else { members[key] = remove(rest, from: child, root: root) }
            }
            return .dictionary(members)
        default:
            return value
        }
    }
}

/// A value a body path selected, and the plain path that reaches it from the body's root.
public struct BodyPathMatch: Sendable, Hashable {
    /// The way from the root, shared with every match below the same node: a copied array of
    /// steps per node made `$..*` on a deep body cost its depth for each of its nodes (gigabytes
    /// from a body of a few hundred kilobytes).
    let trail: PathTrail?
    public var value: ParameterValue

    /// A match at `steps` from the root.
    public init(steps: [BodyPath.Step], value: ParameterValue) {
        self.init(trail: steps.reduce(nil) { PathTrail(parent: $0, step: $1) }, value: value)
    }

    init(trail: PathTrail?, value: ParameterValue) {
        self.trail = trail
        self.value = value
    }

    /// Keys and indices from the root (an index counted from the start, never negative).
    public var steps: [BodyPath.Step] { trail?.steps ?? [] }

    /// The path as captures and assertions write it: `$.items[2].price`.
    public var path: String { BodyPath.text(steps) }

    public static func == (lhs: BodyPathMatch, rhs: BodyPathMatch) -> Bool { lhs.steps == rhs.steps && lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(steps)
        hasher.combine(value)
    }
}

/// One step of a match's path and the node it was taken from.
final class PathTrail: Sendable {
    let parent: PathTrail?
    let step: BodyPath.Step

    init(parent: PathTrail?, step: BodyPath.Step) {
        self.parent = parent
        self.step = step
    }

    /// The steps from the root to here.
    var steps: [BodyPath.Step] {
        var steps: [BodyPath.Step] = []
        var node: PathTrail? = self
        while let current = node {
            steps.append(current.step)
            node = current.parent
        }
        return steps.reversed()
    }
}

/// What a selection walks: a bare value (checks and captures), or a value with its path (the
/// TUI's filter), so both share one walk.
protocol PathNode {
    var pathValue: ParameterValue { get }
    /// The child reached from this node by `step`.
    func pathChild(_ step: BodyPath.Step, _ value: ParameterValue) -> Self
}

extension ParameterValue: PathNode {
    var pathValue: ParameterValue { self }
    func pathChild(_ step: BodyPath.Step, _ value: ParameterValue) -> ParameterValue { value }
}

extension BodyPathMatch: PathNode {
    var pathValue: ParameterValue { value }
    func pathChild(_ step: BodyPath.Step, _ value: ParameterValue) -> BodyPathMatch { BodyPathMatch(trail: PathTrail(parent: trail, step: step), value: value) }
}
