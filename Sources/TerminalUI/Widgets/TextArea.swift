/// A multi-line text editor: typing, new lines, arrows, page keys, paste and undo, readline's
/// kills and yank, a selection (alt+a selects everything; shift with the arrows extends it), and
/// a view that follows the cursor sideways as well as down (issue 34 §6).
///
/// The app can also hand its ``text`` to `$EDITOR` and put the result back.
public struct TextArea: Sendable, Equatable {
    /// A place in the text: a line and an index in it.
    public struct Position: Sendable, Hashable, Comparable {
        public var row: Int
        public var column: Int

        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }

        public static func < (lhs: Position, rhs: Position) -> Bool {
            (lhs.row, lhs.column) < (rhs.row, rhs.column)
        }
    }

    /// The lines, as grapheme clusters.
    public private(set) var lines: [[Character]]
    /// The cursor's line.
    public private(set) var row = 0
    /// The cursor's index in its line.
    public private(set) var column = 0
    /// The first visible line.
    public private(set) var top = 0
    /// The first visible column (display width), so the cursor stays in view on a long line.
    public private(set) var left = 0
    /// Where the selection started, when there is one; it runs to the cursor.
    public private(set) var anchor: Position?
    /// The text of the last kill (ctrl+k, ctrl+u, ctrl+w, alt+d, a cut selection), for ctrl+y.
    public private(set) var killBuffer: [Character] = []
    /// Counts edits (not movements), so a caller can tell whether a key changed the text.
    public private(set) var revision = 0
    private var undoStack: [[[Character]]] = []

    /// Creates an editor holding text, with the cursor at the start.
    public init(_ text: String = "") {
        lines = Self.split(text)
    }

    /// The whole text, lines joined with newlines.
    public var text: String {
        get { lines.map { String($0) }.joined(separator: "\n") }
        set {
            lines = Self.split(newValue)
            row = min(row, lines.count - 1)
            column = min(column, lines[row].count)
            anchor = nil
        }
    }

    private static func split(_ text: String) -> [[Character]] {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        return parts.isEmpty ? [[]] : parts
    }

    /// The cursor as a position.
    public var cursor: Position { Position(row: row, column: column) }

    /// The selected range, start first, when something is selected.
    public var selection: Range<Position>? {
        guard let anchor, anchor != cursor else { return nil }
        return min(anchor, cursor)..<max(anchor, cursor)
    }

    /// Applies a key or a paste.
    /// - Returns: Whether the editor used the event.
    @discardableResult
    public mutating func handle(_ event: InputEvent, pageHeight: Int = 10) -> Bool {
        switch event {
        case let .paste(text):
            pushUndo()
            deleteSelection()
            insert(text)
            return true
        case let .key(key):
            if let character = key.typedCharacter {
                pushUndo()
                deleteSelection()
                insert(String(character))
                return true
            }
            return handleKey(key, pageHeight: pageHeight)
        default:
            return false
        }
    }

    private mutating func handleKey(_ key: KeyEvent, pageHeight: Int) -> Bool {
        // Shift with a movement extends the selection; a movement alone ends it.
        let extending = key.modifiers.contains(.shift)
        let movement = key.modifiers.subtracting(.shift)
        if let target = movementTarget(key.key, movement, pageHeight: pageHeight) {
            if extending { anchor = anchor ?? cursor } else { anchor = nil }
            row = target.row
            column = target.column
            return true
        }
        switch (key.key, key.modifiers) {
        case (.character("a"), .alt):
            anchor = Position(row: 0, column: 0)
            row = lines.count - 1
            column = lines[row].count
        case (.enter, []):
            pushUndo()
            deleteSelection()
            insert("\n")
        case (.backspace, []), (.character("h"), .control):
            pushUndo()
            if deleteSelection() { break }
            if column > 0 {
                lines[row].remove(at: column - 1)
                column -= 1
            } else if row > 0 {
                column = lines[row - 1].count
                lines[row - 1] += lines[row]
                lines.remove(at: row)
                row -= 1
            }
        case (.delete, []), (.character("d"), .control):
            pushUndo()
            if deleteSelection() { break }
            if column < lines[row].count {
                lines[row].remove(at: column)
            } else if row + 1 < lines.count {
                lines[row] += lines[row + 1]
                lines.remove(at: row + 1)
            }
        case (.character("k"), .control):
            pushUndo()
            if let cut = cutSelection() {
                killBuffer = cut
            } else if column < lines[row].count {
                killBuffer = Array(lines[row][column...])
                lines[row].removeSubrange(column...)
            } else if row + 1 < lines.count {
                // At the end of a line, readline's kill takes the newline: the next line joins.
                killBuffer = ["\n"]
                lines[row] += lines[row + 1]
                lines.remove(at: row + 1)
            }
        case (.character("u"), .control):
            pushUndo()
            killBuffer = Array(lines[row][..<column])
            lines[row].removeSubrange(..<column)
            column = 0
            anchor = nil
        case (.character("w"), .control), (.backspace, .alt):
            pushUndo()
            let start = WordBoundary.start(in: lines[row], before: column)
            killBuffer = Array(lines[row][start..<column])
            lines[row].removeSubrange(start..<column)
            column = start
            anchor = nil
        case (.character("d"), .alt), (.delete, .control):
            pushUndo()
            let end = WordBoundary.end(in: lines[row], after: column)
            killBuffer = Array(lines[row][column..<end])
            lines[row].removeSubrange(column..<end)
            anchor = nil
        case (.character("y"), .control):
            guard !killBuffer.isEmpty else { return true }
            pushUndo()
            deleteSelection()
            insert(String(killBuffer))
        case (.character("_"), .control), (.character("/"), .control): undo()
        default:
            return false
        }
        return true
    }

    /// Where a movement key takes the cursor, or nil when the key is not one.
    private func movementTarget(_ key: Key, _ modifiers: KeyModifiers, pageHeight: Int) -> Position? {
        func clamped(_ row: Int) -> Position {
            let target = max(0, min(lines.count - 1, row))
            return Position(row: target, column: min(column, lines[target].count))
        }
        switch (key, modifiers) {
        case (.left, []), (.character("b"), .control):
            if column > 0 { return Position(row: row, column: column - 1) }
            return row > 0 ? Position(row: row - 1, column: lines[row - 1].count) : cursor
        case (.right, []), (.character("f"), .control):
            if column < lines[row].count { return Position(row: row, column: column + 1) }
            return row + 1 < lines.count ? Position(row: row + 1, column: 0) : cursor
        case (.left, .control), (.character("b"), .alt):
            return Position(row: row, column: WordBoundary.start(in: lines[row], before: column))
        case (.right, .control), (.character("f"), .alt):
            return Position(row: row, column: WordBoundary.end(in: lines[row], after: column))
        case (.up, []), (.character("p"), .control): return clamped(row - 1)
        case (.down, []), (.character("n"), .control): return clamped(row + 1)
        case (.pageUp, []): return clamped(row - pageHeight)
        case (.pageDown, []): return clamped(row + pageHeight)
        case (.home, []), (.character("a"), .control): return Position(row: row, column: 0)
        case (.end, []), (.character("e"), .control): return Position(row: row, column: lines[row].count)
        case (.home, .control): return Position(row: 0, column: 0)
        case (.end, .control): return Position(row: lines.count - 1, column: lines[lines.count - 1].count)
        default: return nil
        }
    }

    /// Inserts text at the cursor; newlines split the line.
    public mutating func insert(_ text: String) {
        anchor = nil
        let pieces = Self.split(text)
        let tail = Array(lines[row][column...])
        lines[row].removeSubrange(column...)
        lines[row] += pieces[0]
        if pieces.count == 1 {
            column += pieces[0].count
            lines[row] += tail
            return
        }
        lines.insert(contentsOf: pieces[1...], at: row + 1)
        row += pieces.count - 1
        column = lines[row].count
        lines[row] += tail
    }

    /// Removes the selection, if there is one, and returns what it held.
    private mutating func cutSelection() -> [Character]? {
        guard let range = selection else {
            anchor = nil
            return nil
        }
        let start = range.lowerBound
        let end = range.upperBound
        var cut: [Character]
        if start.row == end.row {
            cut = Array(lines[start.row][start.column..<end.column])
            lines[start.row].removeSubrange(start.column..<end.column)
        } else {
            cut = Array(lines[start.row][start.column...])
            for middle in (start.row + 1)..<end.row { cut += ["\n"] + lines[middle] }
            cut += ["\n"] + lines[end.row][..<end.column]
            lines[start.row] = Array(lines[start.row][..<start.column]) + lines[end.row][end.column...]
            lines.removeSubrange((start.row + 1)...end.row)
        }
        row = start.row
        column = start.column
        anchor = nil
        return cut
    }

    /// Removes the selection. - Returns: whether there was one.
    @discardableResult
    private mutating func deleteSelection() -> Bool {
        cutSelection() != nil
    }

    /// Restores the text before the last edit.
    public mutating func undo() {
        guard let previous = undoStack.popLast() else { return }
        revision &+= 1
        lines = previous
        row = min(row, lines.count - 1)
        column = min(column, lines[row].count)
        anchor = nil
    }

    private mutating func pushUndo() {
        revision &+= 1
        undoStack.append(lines)
        if undoStack.count > 100 { undoStack.removeFirst() }
    }

    /// Draws the visible lines with line numbers, scrolled down and sideways to keep the cursor
    /// in view, the selection in `selectionStyle`.
    public mutating func render(into buffer: inout ScreenBuffer, at rect: Rect, style: Style, gutterStyle: Style, selectionStyle: Style? = nil, focused: Bool) {
        guard rect.height > 0, rect.width > 4 else { return }
        if row < top { top = row }
        if row >= top + rect.height { top = row - rect.height + 1 }
        let gutter = max(3, String(lines.count).count + 1)
        let textWidth = rect.width - gutter
        // Sideways: one column stays free after the cursor, as a field keeps one.
        let cursorColumn = TextWidth.of(String(lines[row][..<column]))
        if cursorColumn < left { left = cursorColumn }
        if cursorColumn - left > textWidth - 1 { left = cursorColumn - textWidth + 1 }
        buffer.fill(rect, style: style)
        let selected = selection
        for offset in 0..<rect.height {
            let index = top + offset
            guard index < lines.count else { break }
            buffer.write(String(index + 1).leftPadded(to: gutter - 1) + " ", x: rect.x, y: rect.y + offset, style: gutterStyle, limit: gutter)
            var x = 0
            for (position, character) in lines[index].enumerated() {
                let width = TextWidth.of(character)
                defer { x += width }
                guard x >= left else { continue }
                guard x - left + width <= textWidth else { break }
                let inSelection = selected.map { $0.contains(Position(row: index, column: position)) } ?? false
                buffer.write(String(character), x: rect.x + gutter + x - left, y: rect.y + offset,
                             style: inSelection ? (selectionStyle ?? style.adding(.reverse)) : style, limit: textWidth - (x - left))
            }
        }
        if focused {
            buffer.cursor = Point(x: rect.x + gutter + cursorColumn - left, y: rect.y + row - top)
        }
    }
}

extension String {
    /// The string padded with spaces on the left to a number of columns.
    public func leftPadded(to columns: Int) -> String {
        let missing = columns - TextWidth.of(self)
        return missing > 0 ? String(repeating: " ", count: missing) + self : self
    }

    /// The string padded with spaces on the right to a number of columns.
    public func rightPadded(to columns: Int) -> String {
        let missing = columns - TextWidth.of(self)
        return missing > 0 ? self + String(repeating: " ", count: missing) : self
    }
}
