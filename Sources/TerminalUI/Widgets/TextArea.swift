/// A multi-line text editor: typing, new lines, arrows, page keys, paste and undo.
///
/// The app can also hand its ``text`` to `$EDITOR` and put the result back.
public struct TextArea: Sendable, Equatable {
    /// The lines, as grapheme clusters.
    public private(set) var lines: [[Character]]
    /// The cursor's line.
    public private(set) var row = 0
    /// The cursor's index in its line.
    public private(set) var column = 0
    /// The first visible line.
    public private(set) var top = 0
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
        }
    }

    private static func split(_ text: String) -> [[Character]] {
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        return parts.isEmpty ? [[]] : parts
    }

    /// Applies a key or a paste.
    /// - Returns: Whether the editor used the event.
    @discardableResult
    public mutating func handle(_ event: InputEvent, pageHeight: Int = 10) -> Bool {
        switch event {
        case let .paste(text):
            pushUndo()
            insert(text)
            return true
        case let .key(key):
            if let character = key.typedCharacter {
                pushUndo()
                insert(String(character))
                return true
            }
            switch (key.key, key.modifiers) {
            case (.enter, []):
                pushUndo()
                insert("\n")
            case (.backspace, []):
                pushUndo()
                if column > 0 {
                    lines[row].remove(at: column - 1)
                    column -= 1
                } else if row > 0 {
                    column = lines[row - 1].count
                    lines[row - 1] += lines[row]
                    lines.remove(at: row)
                    row -= 1
                }
            case (.delete, []):
                pushUndo()
                if column < lines[row].count {
                    lines[row].remove(at: column)
                } else if row + 1 < lines.count {
                    lines[row] += lines[row + 1]
                    lines.remove(at: row + 1)
                }
            case (.left, []):
                if column > 0 { column -= 1 } else if row > 0 { row -= 1; column = lines[row].count }
            case (.right, []):
                if column < lines[row].count { column += 1 } else if row + 1 < lines.count { row += 1; column = 0 }
            case (.up, []): moveRow(by: -1)
            case (.down, []): moveRow(by: 1)
            case (.pageUp, []): moveRow(by: -pageHeight)
            case (.pageDown, []): moveRow(by: pageHeight)
            case (.home, []), (.character("a"), .control): column = 0
            case (.end, []), (.character("e"), .control): column = lines[row].count
            case (.character("k"), .control):
                pushUndo()
                lines[row].removeSubrange(column...)
            case (.character("_"), .control): undo()
            default:
                return false
            }
            return true
        default:
            return false
        }
    }

    /// Inserts text at the cursor; newlines split the line.
    public mutating func insert(_ text: String) {
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

    /// Restores the text before the last edit.
    public mutating func undo() {
        guard let previous = undoStack.popLast() else { return }
        lines = previous
        row = min(row, lines.count - 1)
        column = min(column, lines[row].count)
    }

    private mutating func moveRow(by delta: Int) {
        row = max(0, min(lines.count - 1, row + delta))
        column = min(column, lines[row].count)
    }

    private mutating func pushUndo() {
        undoStack.append(lines)
        if undoStack.count > 100 { undoStack.removeFirst() }
    }

    /// Draws the visible lines, scrolled to keep the cursor in view, with line numbers.
    public mutating func render(into buffer: inout ScreenBuffer, at rect: Rect, style: Style, gutterStyle: Style, focused: Bool) {
        guard rect.height > 0, rect.width > 4 else { return }
        if row < top { top = row }
        if row >= top + rect.height { top = row - rect.height + 1 }
        let gutter = max(3, String(lines.count).count + 1)
        buffer.fill(rect, style: style)
        for offset in 0..<rect.height {
            let index = top + offset
            guard index < lines.count else { break }
            buffer.write(String(index + 1).leftPadded(to: gutter - 1) + " ", x: rect.x, y: rect.y + offset, style: gutterStyle, limit: gutter)
            buffer.write(String(lines[index]), x: rect.x + gutter, y: rect.y + offset, style: style, limit: rect.width - gutter)
        }
        if focused {
            let x = rect.x + gutter + TextWidth.of(String(lines[row][..<column]))
            buffer.cursor = Point(x: min(x, rect.maxX - 1), y: rect.y + row - top)
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
