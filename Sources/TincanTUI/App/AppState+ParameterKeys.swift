import TerminalUI
import TincanCore

/// Adding a parameter: the key may be a path (`user[address][city]`, `tags[]`), read by the
/// command line's ``ParameterPath``, and the value's type is chosen at once.
extension AppState {
    /// The types the add dialog offers, in the tree's order.
    static let parameterTypes = TreeValueType.allCases.map(\.rawValue)

    /// Answers the key prompt: checks the key where it would go, then asks for the type.
    mutating func answerParameterKey(_ key: String) -> String? {
        if key.isEmpty, addsToAnArray {
            do {
                try parameters.add(key: "")
            } catch {
                return "\(error)"
            }
            mode = .modal(.prompt(Prompt(.editValue, title: "New element", question: "Value (typed as \(parameters.selectedNode.value.type.rawValue); t changes the type)")))
            return nil
        }
        var trial = parameters
        do {
            try trial.add(keyPath: key, value: .null)
        } catch {
            return "\(error)"
        }
        mode = .modal(.picker(Picker(.parameterType(key: key), title: "Type of \(key)", options: Self.parameterTypes, selected: TreeValueType.string.rawValue)))
        return nil
    }

    /// Adds the parameter with the chosen type; a scalar's value is asked for next.
    mutating func addParameter(key: String, type option: String) {
        let type = TreeValueType(rawValue: option) ?? .string
        let value: TreeValue = switch type {
        case .string: .string("")
        case .number: .number("0")
        case .bool: .bool(true)
        case .null: .null
        case .array: .array
        case .object: .object
        }
        do {
            try parameters.add(keyPath: key, value: value)
        } catch {
            status = StatusMessage("\(error)", .error)
            return
        }
        if !value.isContainer, type != .null {
            mode = .modal(.prompt(Prompt(.editValue, title: "Value of \(key)", question: "Value (\(type.rawValue))", text: Self.editableText(value))))
        }
    }
}

/// Why a key path cannot be added where the tree is.
struct ParameterKeyError: Error, CustomStringConvertible {
    var description: String
}

extension TreeEditor {
    /// Adds a node at a key path, creating the objects and arrays on the way (expanded), and
    /// selects it. A bracketed path (`user[roles]`) names its place from the root, as the command
    /// line and the session file read it, whatever row is selected (issue 34 §6); a plain key is
    /// added as ``add(key:value:)`` adds it (inside a selected container, after a selected leaf).
    ///
    /// - Throws: ``ParameterKeyError`` or ``TreeEditError`` when the path runs through a value
    ///   of another kind, or its last key is taken.
    mutating func add(keyPath text: String, value: TreeValue) throws {
        let path: ParameterPath
        do {
            path = try ParameterPath(parsing: text)
        } catch {
            throw ParameterKeyError(description: error.reason)
        }
        guard path.components.count > 1 else {
            try add(key: text, value: value)
            return
        }
        let parentPath: [Int] = []
        guard root.value == .object else { throw TreeEditError.arrayElementsHaveNoNames }
        var tree = root
        let added = try Self.insert(value, at: path.components[...], into: &tree[parentPath], walked: "")
        replaceRoot(tree)
        select(path: parentPath + added)
    }

    /// Inserts `value` at `steps` below `node`, returning the child indices walked.
    private static func insert(_ value: TreeValue, at steps: ArraySlice<ParameterPath.Component>, into node: inout TreeNode, walked: String) throws -> [Int] {
        guard let step = steps.first else { return [] }
        let rest = steps.dropFirst()
        // What a new node on the way holds: an object for a key, an array for [] or [n].
        let made: TreeValue
        switch rest.first {
        case nil: made = value
        case .key?: made = .object
        case .append?, .index?: made = .array
        }
        let index: Int
        switch step {
        case .key(let key):
            let here = walked.isEmpty ? key : "\(walked)[\(key)]"
            guard node.value == .object else { throw ParameterKeyError(description: "'\(walked)' is an array, not an object; give an index, such as \(walked)[0]") }
            if let existing = node.children.firstIndex(where: { $0.key == key }) {
                guard !rest.isEmpty else { throw TreeEditError.duplicateKey(here) }
                index = existing
            } else {
                node.children.append(TreeNode(key: key, value: made))
                index = node.children.count - 1
            }
            node.isExpanded = true
            return [index] + (try descend(value, rest, into: &node.children[index], walked: here))
        case .append, .index:
            guard node.value == .array else { throw ParameterKeyError(description: "'\(walked)' is \(node.value.type == .object ? "an object" : "a \(node.value.type.rawValue)"), not an array") }
            var position = node.children.count
            if case .index(let wanted) = step { position = wanted }
            while node.children.count < position { node.children.append(TreeNode(key: String(node.children.count), value: .null)) }
            if position < node.children.count, rest.isEmpty {
                node.children[position] = TreeNode(key: String(position), value: made)
            } else if position == node.children.count {
                node.children.append(TreeNode(key: String(position), value: made))
            }
            node.isExpanded = true
            return [position] + (try descend(value, rest, into: &node.children[position], walked: "\(walked)[\(position)]"))
        }
    }

    private static func descend(_ value: TreeValue, _ rest: ArraySlice<ParameterPath.Component>, into child: inout TreeNode, walked: String) throws -> [Int] {
        guard !rest.isEmpty else { return [] }
        guard child.value.isContainer else { throw ParameterKeyError(description: "'\(walked)' is already a \(child.value.type.rawValue), not an object or array") }
        return try insert(value, at: rest, into: &child, walked: walked)
    }
}
