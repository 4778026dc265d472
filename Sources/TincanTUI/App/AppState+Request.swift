import OrderedCollections
import TerminalUI
import TincanCore

extension AppState {
    /// The request panes as a ``RequestDraft``, the model the CLI and saved sessions build from:
    /// the selected request of the session, with the panes' edits, resolved as `tincan replay`
    /// resolves it (variables expanded, session defaults applied).
    ///
    /// Headers that are off are left out. In multipart mode a string parameter written `@path`
    /// becomes a file part, as `field@path` does on the command line.
    public func makeDraft() throws -> RequestDraft {
        try resolveCurrent().draft
    }

    // MARK: - Tree and parameter values

    /// The parameter value a tree node stands for.
    public static func parameterValue(_ node: TreeNode) -> ParameterValue {
        switch node.value {
        case let .string(text): return .string(text)
        case let .number(text):
            if let integer = Int64(text) { return .integer(integer) }
            return .double(Double(text) ?? 0)
        case let .bool(bool): return .bool(bool)
        case .null: return .null
        case .array: return .array(node.children.map(parameterValue))
        case .object:
            var dictionary = OrderedDictionary<String, ParameterValue>()
            for child in node.children { dictionary[child.key] = parameterValue(child) }
            return .dictionary(dictionary)
        }
    }

    /// A tree node for a parameter value; sets become arrays.
    public static func treeNode(key: String, _ value: ParameterValue) -> TreeNode {
        switch value {
        case let .string(text): return TreeNode(key: key, value: .string(text))
        case let .integer(integer): return TreeNode(key: key, value: .number(String(integer)))
        case let .double(double): return TreeNode(key: key, value: .number(ParameterValue.format(double)))
        case let .bool(bool): return TreeNode(key: key, value: .bool(bool))
        case .null: return TreeNode(key: key, value: .null)
        case let .array(elements):
            return TreeNode(key: key, value: .array, children: elements.enumerated().map { treeNode(key: String($0.offset), $0.element) })
        case let .set(elements):
            return treeNode(key: key, .array(elements.sorted { String(describing: $0) < String(describing: $1) }))
        case let .dictionary(dictionary):
            return TreeNode(key: key, value: .object, children: dictionary.map { treeNode(key: $0.key, $0.value) })
        }
    }
}
