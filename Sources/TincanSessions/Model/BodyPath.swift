import Foundation
import OrderedCollections
import TincanCore

/// A path into a decoded body: `$` is the whole body, `.name` or `["name"]` an object's member,
/// `[2]` an array's element (`[-1]` the last). `json.name` is short for `$.json.name`.
///
/// JSONPath's selectors that pick several values make the path multi-valued: wildcards (`[*]`,
/// `.*`), slices (`[1:3]`, `[-2:]`, `[::2]`), recursive descent (`..name`) and filters
/// (`[?(@.price < 10)]`). A multi-valued path's value is the list of what it selected, in
/// document order, possibly empty; a plain path's is one value or none.
public struct BodyPath: Sendable, Hashable, CustomStringConvertible {
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
        /// `[*]` or `.*`: every element of an array, every member value of an object.
        case wildcard
        /// `[start:end:step]` of an array, as Python and RFC 9535 slice.
        case slice(start: Int?, end: Int?, step: Int?)
        /// `..`: the node and every node below it, before the step that follows.
        case descendants
        /// `[?(…)]`: the elements (or member values) for which the expression holds.
        case filter(BodyPathFilter)

        /// Whether the step picks at most one value.
        public var isSingular: Bool {
            switch self {
            case .key, .index: true
            case .wildcard, .slice, .descendants, .filter: false
            }
        }
    }

    /// The path as written.
    public let text: String
    /// The steps from the root.
    public let steps: [Step]

    /// Parses a path.
    ///
    /// - Throws: ``BodyPathError`` saying where the path went wrong and what was expected.
    public init(parsing text: String) throws(BodyPathError) {
        self.text = text
        var parser = BodyPathParser(text)
        steps = try parser.parse()
    }

    /// Whether the path selects at most one value (no wildcard, slice, descent or filter).
    public var isSingular: Bool { steps.allSatisfy(\.isSingular) }

    public var description: String { text }

    /// The path with `steps` as captures and assertions write it: `$`, `$.items[2].name`,
    /// `$["odd key"]`. It reads back to the same steps.
    public static func text(_ steps: [Step]) -> String {
        var text = "$"
        for (position, step) in steps.enumerated() {
            let written = stepText(step)
            let afterDescent = position > 0 && steps[position - 1] == .descendants
            text += afterDescent && written.hasPrefix(".") && step != .descendants ? String(written.dropFirst()) : written
        }
        return text
    }

    /// One step as written: `.name` for a name made of letters, digits and `_` that does not
    /// start with a digit, `["…"]` for any other name (a backslash before `"` and `\`), `[2]`
    /// for an index. The TUI's copy-path writes its paths with it too.
    public static func stepText(_ step: Step) -> String {
        switch step {
        case .wildcard:
            return "[*]"
        case .slice(let start, let end, let step):
            return "[\(start.map(String.init) ?? ""):\(end.map(String.init) ?? "")\(step.map { ":\($0)" } ?? "")]"
        case .descendants:
            return ".."
        case .filter(let filter):
            return "[?\(filter.text)]"
        case .index(let index):
            return "[\(index)]"
        case .key(let name):
            let scalars = name.unicodeScalars
            let isIdentifier = scalars.first.map { !("0"..."9").contains($0) } ?? false
                && scalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
            if isIdentifier { return ".\(name)" }
            var quoted = "[\""
            for character in name {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\"]"
        }
    }

    /// The value at this path: for a plain path, the value or nil when a step is missing; for a
    /// multi-valued one, the array of what it selected.
    public func value(in root: ParameterValue) -> ParameterValue? {
        guard let plainSteps else { return .array(select(in: root)) }
        return JSONDocument(root).value(at: plainSteps)
    }

    /// The value at this path in a JSON document: a plain path reads its one value without
    /// decoding the rest; a multi-valued one decodes the document and selects in it.
    public func value(in document: JSONDocument) -> ParameterValue? {
        guard let plainSteps else { return value(in: document.value) }
        return document.value(at: plainSteps)
    }

    /// The steps as a JSON document takes them, or nil when the path is multi-valued.
    private var plainSteps: [JSONDocument.Step]? {
        var plain: [JSONDocument.Step] = []
        for step in steps {
            switch step {
            case .key(let key): plain.append(.key(key))
            case .index(let index): plain.append(.index(index))
            case .wildcard, .slice, .descendants, .filter: return nil
            }
        }
        return plain
    }

    /// `root` with the value at this path removed (used to ignore volatile fields when comparing).
    public func removing(from root: ParameterValue) -> ParameterValue {
        Self.remove(steps[...], from: root, root: root)
    }

    /// `value` without what `steps` select under it; `root` is the whole body, which `$` in a filter names.
    static func remove(_ steps: ArraySlice<Step>, from value: ParameterValue, root: ParameterValue) -> ParameterValue {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        if !step.isSingular { return removeSelected(step, rest, from: value, root: root) }
        switch (step, value) {
        case (.key(let key), .dictionary(var dictionary)):
            if rest.isEmpty {
                dictionary.removeValue(forKey: key)
            } else if let child = dictionary[key] {
                dictionary[key] = remove(rest, from: child, root: root)
            }
            return .dictionary(dictionary)
        case (.index(let index), .array(var array)):
            let position = index < 0 ? array.count + index : index
            guard array.indices.contains(position) else { return value }
            if rest.isEmpty { array.remove(at: position) } else { array[position] = remove(rest, from: array[position], root: root) }
            return .array(array)
        default:
            return value
        }
    }
}

/// A body path that could not be parsed: the path, and where it went wrong.
public struct BodyPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was expected.
    public enum Reason: Sendable, Equatable {
        /// A `.` with no name after it.
        case expectedMemberName
        /// A quoted name (`["a.b"]`) whose quote, then `]`, never comes.
        case unclosedQuotedName(Character)
        /// `[…]` holding neither a whole number nor a quoted name.
        case expectedIndex
        /// Text where a `.` or `[` should start the next step (the rest of the path).
        case unexpected(String)
        /// Something else was expected at this column (1-based) of the path: the selectors of
        /// multi-valued paths and their filters.
        case expected(String, column: Int)
    }

    /// The path as written.
    public var path: String
    /// What was expected.
    public var reason: Reason

    /// Creates an error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let expected = switch reason {
        case .expectedMemberName: "a member name after '.'"
        case .unclosedQuotedName(let quote): "\(quote)] to close the quoted member name"
        case .expectedIndex: "an index such as [0] or [-1], or a quoted name such as [\"a.b\"]"
        case .unexpected(let rest): "'.' or '[' at '\(rest)'"
        case .expected(let what, let column): "\(what) at column \(column)"
        }
        return "bad body path '\(path)': expected \(expected)"
    }
}
