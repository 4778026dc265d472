import Foundation

/// The type of a tree node's value.
public enum TreeValueType: String, Sendable, CaseIterable, Hashable {
    case string, number, bool, null, array, object
}

/// A node's value: a scalar, or a container whose children are the node's children.
public enum TreeValue: Sendable, Hashable {
    case string(String)
    /// A number, kept as the text typed, so `1.50` stays `1.50`.
    case number(String)
    case bool(Bool)
    case null
    case array
    case object

    /// Its type.
    public var type: TreeValueType {
        switch self {
        case .string: .string
        case .number: .number
        case .bool: .bool
        case .null: .null
        case .array: .array
        case .object: .object
        }
    }

    /// Whether it holds children.
    public var isContainer: Bool { self == .array || self == .object }
}

/// A node of an editable tree: a key (its index in an array), a value and children.
public struct TreeNode: Sendable, Hashable {
    public var key: String
    public var value: TreeValue
    public var children: [TreeNode]
    public var isExpanded: Bool

    /// Creates a node.
    public init(key: String, value: TreeValue, children: [TreeNode] = [], isExpanded: Bool = true) {
        self.key = key
        self.value = value
        self.children = children
        self.isExpanded = isExpanded
    }

    /// The node at a path of child indices.
    public subscript(path: [Int]) -> TreeNode {
        get { path.reduce(self) { $0.children[$1] } }
        set {
            guard let first = path.first else { self = newValue; return }
            children[first][Array(path.dropFirst())] = newValue
        }
    }
}

/// Why an edit of a tree was refused.
public enum TreeEditError: Error, Sendable, Equatable, CustomStringConvertible {
    case notANumber(String)
    case notABool(String)
    case duplicateKey(String)
    case emptyKey
    case arrayElementsHaveNoNames
    case cannotRemoveRoot

    public var description: String {
        switch self {
        case let .notANumber(text): "'\(text)' is not a number (expected digits, an optional sign, fraction and exponent)"
        case let .notABool(text): "'\(text)' is not a bool (expected true or false)"
        case let .duplicateKey(key): "the key '\(key)' is already used here"
        case .emptyKey: "a key cannot be empty"
        case .arrayElementsHaveNoNames: "array elements are numbered, not named"
        case .cannotRemoveRoot: "the root cannot be removed"
        }
    }
}

/// An editable tree with a selection: expand, collapse, add, remove, rename, and typed values.
///
/// The root is always shown, as the first row. Array children are named by their index and
/// renumbered after every change.
public struct TreeEditor: Sendable, Hashable {
    /// One visible row.
    public struct Row: Sendable, Hashable {
        public var path: [Int]
        public var depth: Int
        public var node: TreeNode
    }

    /// The tree.
    public private(set) var root: TreeNode
    /// The selection, kept visible.
    public var list = ListState()

    /// Creates an editor over a tree.
    public init(root: TreeNode) {
        self.root = root
    }

    /// Replaces the whole tree, keeping the selection where it can.
    public mutating func replaceRoot(_ root: TreeNode) {
        self.root = root
        list.select(list.selected, count: rows.count)
    }

    /// The visible rows, depth first, skipping the children of collapsed nodes.
    public var rows: [Row] {
        var rows: [Row] = []
        func visit(_ node: TreeNode, path: [Int], depth: Int) {
            rows.append(Row(path: path, depth: depth, node: node))
            guard node.isExpanded else { return }
            for (index, child) in node.children.enumerated() { visit(child, path: path + [index], depth: depth + 1) }
        }
        visit(root, path: [], depth: 0)
        return rows
    }

    /// The path of the selected node.
    public var selectedPath: [Int] {
        let rows = rows
        return rows[max(0, min(rows.count - 1, list.selected))].path
    }

    /// The selected node.
    public var selectedNode: TreeNode { root[selectedPath] }

    /// Selects the row showing a path, if it is visible.
    public mutating func select(path: [Int]) {
        if let index = rows.firstIndex(where: { $0.path == path }) { list.selected = index }
    }

    // MARK: - Structure

    /// Expands or collapses the selected container.
    public mutating func setExpanded(_ expanded: Bool) {
        let path = selectedPath
        guard root[path].value.isContainer else { return }
        root[path].isExpanded = expanded
    }

    /// Collapses the selection, or moves to its parent when it is already collapsed or a leaf.
    public mutating func collapseOrSelectParent() {
        let path = selectedPath
        if root[path].value.isContainer, root[path].isExpanded {
            root[path].isExpanded = false
        } else if !path.isEmpty {
            select(path: Array(path.dropLast()))
        }
    }

    /// Adds a node: as the last child of a selected container, or after a selected leaf.
    ///
    /// - Parameter key: The key; ignored (and numbered) in an array.
    /// - Throws: ``TreeEditError`` for an empty or duplicate key.
    public mutating func add(key: String, value: TreeValue = .string("")) throws {
        var parentPath = selectedPath
        var insertAt: Int
        if root[parentPath].value.isContainer {
            insertAt = root[parentPath].children.count
            root[parentPath].isExpanded = true
        } else {
            insertAt = (parentPath.last ?? 0) + 1
            parentPath.removeLast()
        }
        let parent = root[parentPath]
        if parent.value == .object {
            guard !key.isEmpty else { throw TreeEditError.emptyKey }
            guard !parent.children.contains(where: { $0.key == key }) else { throw TreeEditError.duplicateKey(key) }
        }
        insertAt = min(insertAt, parent.children.count)
        root[parentPath].children.insert(TreeNode(key: key, value: value), at: insertAt)
        renumber(parentPath)
        select(path: parentPath + [insertAt])
    }

    /// Removes the selected node and its children.
    /// - Throws: ``TreeEditError/cannotRemoveRoot``.
    public mutating func removeSelected() throws {
        let path = selectedPath
        guard let index = path.last else { throw TreeEditError.cannotRemoveRoot }
        let parentPath = Array(path.dropLast())
        root[parentPath].children.remove(at: index)
        renumber(parentPath)
        list.select(list.selected, count: rows.count)
    }

    /// Renames the selected node.
    /// - Throws: ``TreeEditError`` when the node is an array element, the root, or the key is empty or taken.
    public mutating func renameSelected(to key: String) throws {
        let path = selectedPath
        guard !path.isEmpty else { throw TreeEditError.arrayElementsHaveNoNames }
        let parent = root[Array(path.dropLast())]
        guard parent.value == .object else { throw TreeEditError.arrayElementsHaveNoNames }
        guard !key.isEmpty else { throw TreeEditError.emptyKey }
        if root[path].key != key, parent.children.contains(where: { $0.key == key }) { throw TreeEditError.duplicateKey(key) }
        root[path].key = key
    }

    /// Sets the selected node's value from text, typed as asked.
    ///
    /// Changing a container to a scalar drops its children; changing between array and object
    /// keeps them (renumbered, or named by their old index).
    /// - Throws: ``TreeEditError`` when the text is not a number or a bool.
    public mutating func setSelectedValue(_ type: TreeValueType, text: String = "") throws {
        let path = selectedPath
        let value: TreeValue
        switch type {
        case .string: value = .string(text)
        case .number:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard Self.isNumber(trimmed) else { throw TreeEditError.notANumber(text) }
            value = .number(trimmed)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1", "": value = .bool(true)
            case "false", "no", "0": value = .bool(false)
            default: throw TreeEditError.notABool(text)
            }
        case .null: value = .null
        case .array: value = .array
        case .object: value = .object
        }
        if !value.isContainer { root[path].children = [] }
        root[path].value = value
        renumber(path)
    }

    /// The next type in the cycle string → number → bool → null → array → object, converting the
    /// value's text where it can (a string that is a number becomes that number).
    public mutating func cycleSelectedType() {
        let node = selectedNode
        let types = TreeValueType.allCases
        let next = types[(types.firstIndex(of: node.value.type)! + 1) % types.count]
        let text: String
        switch node.value {
        case let .string(string): text = string
        case let .number(number): text = number
        case let .bool(bool): text = bool ? "true" : "false"
        default: text = ""
        }
        if (try? setSelectedValue(next, text: text)) == nil {
            try? setSelectedValue(next, text: next == .number ? "0" : "")
        }
    }

    private mutating func renumber(_ path: [Int]) {
        guard root[path].value == .array else { return }
        for index in root[path].children.indices { root[path].children[index].key = String(index) }
    }

    /// Whether text is a JSON number.
    public static func isNumber(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func digits() -> Int {
            var count = 0
            while let first = scalars.first, ("0"..."9").contains(first) { scalars.removeFirst(); count += 1 }
            return count
        }
        if scalars.first == "-" { scalars.removeFirst() }
        guard digits() > 0 else { return false }
        if scalars.first == "." {
            scalars.removeFirst()
            guard digits() > 0 else { return false }
        }
        if scalars.first == "e" || scalars.first == "E" {
            scalars.removeFirst()
            if scalars.first == "+" || scalars.first == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
    }

    // MARK: - Rendering

    /// Draws the visible rows with the selection highlighted.
    public mutating func render(into buffer: inout ScreenBuffer, at rect: Rect, theme: Theme, focused: Bool, rootLabel: String = "parameters") {
        let rows = rows
        let visible = list.visibleRange(count: rows.count, viewport: rect.height)
        for (line, index) in visible.enumerated() {
            let row = rows[index]
            let selected = index == list.selected
            let base = selected ? theme.style(focused ? .selection : .selectionUnfocused) : theme.style(.base)
            buffer.fill(rect.row(line), style: base)
            var spans: [Span] = [Span(String(repeating: "  ", count: row.depth), base)]
            let marker = row.node.value.isContainer ? (row.node.isExpanded ? "▾ " : "▸ ") : "  "
            spans.append(Span(marker, base))
            spans.append(Span(row.path.isEmpty ? rootLabel : row.node.key, selected ? base : theme.style(.jsonKey)))
            spans.append(Span(": ", selected ? base : theme.style(.jsonPunctuation)))
            spans += Self.valueSpans(row.node, theme: theme, selectedStyle: selected ? base : nil)
            buffer.write(spans, x: rect.x, y: rect.y + line, limit: rect.width)
        }
    }

    private static func valueSpans(_ node: TreeNode, theme: Theme, selectedStyle: Style?) -> [Span] {
        func span(_ text: String, _ element: ThemeElement) -> Span { Span(text, selectedStyle ?? theme.style(element)) }
        switch node.value {
        case let .string(text): return [span("\"\(text)\"", .jsonString)]
        case let .number(text): return [span(text, .jsonNumber)]
        case let .bool(bool): return [span(bool ? "true" : "false", .jsonBool)]
        case .null: return [span("null", .jsonNull)]
        case .array: return [span("[\(node.children.count)]", .jsonPunctuation)]
        case .object: return [span("{\(node.children.count)}", .jsonPunctuation)]
        }
    }
}
