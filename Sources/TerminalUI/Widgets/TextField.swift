/// A one-line text field: a cursor, word jumps, home and end, kill and yank, bracketed paste and undo.
///
/// Keys follow readline: `ctrl+a`/`ctrl+e` or home/end, `alt+b`/`alt+f` or `ctrl+left`/`ctrl+right`
/// for words, `ctrl+k`/`ctrl+u`/`ctrl+w`/`alt+d` kill into the kill buffer, `ctrl+y` yanks it back,
/// `ctrl+_` undoes.
public struct TextField: Sendable, Equatable {
    /// The text, as grapheme clusters.
    public private(set) var characters: [Character]
    /// The cursor, as an index into ``characters`` (``characters.count`` is after the end).
    public private(set) var cursor: Int
    /// The last killed text, put back by yank.
    public private(set) var killBuffer = ""
    /// The first visible column, kept so the cursor stays in view.
    public private(set) var scroll = 0
    /// Whether the field draws a dot for each character (a password), one column each.
    public var isSecret = false
    private var undoStack: [Snapshot] = []
    private var lastEditWasTyping = false

    private struct Snapshot: Sendable, Equatable {
        var characters: [Character]
        var cursor: Int
    }

    /// Creates a field holding some text, with the cursor at its end.
    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text.
    public var text: String {
        get { String(characters) }
        set {
            characters = Array(newValue)
            cursor = characters.count
            undoStack.removeAll()
        }
    }

    /// Whether undo has something to restore.
    public var canUndo: Bool { !undoStack.isEmpty }

    // MARK: - Editing

    /// Applies a key or a paste.
    ///
    /// - Returns: Whether the field used the event (keys it does not know are left to the caller).
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case let .paste(text):
            // A paste is one line: newlines become spaces, and it is one undo step.
            insert(text.map { $0.isNewline ? " " : $0 }, typing: false)
            return true
        case let .key(key):
            return handle(key)
        default:
            return false
        }
    }

    private mutating func handle(_ event: KeyEvent) -> Bool {
        if let character = event.typedCharacter {
            insert([character], typing: true)
            return true
        }
        switch (event.key, event.modifiers) {
        case (.left, []), (.character("b"), .control): move(to: cursor - 1)
        case (.right, []), (.character("f"), .control): move(to: cursor + 1)
        case (.home, []), (.character("a"), .control): move(to: 0)
        case (.end, []), (.character("e"), .control): move(to: characters.count)
        case (.left, .control), (.character("b"), .alt): move(to: wordStart(before: cursor))
        case (.right, .control), (.character("f"), .alt): move(to: wordEnd(after: cursor))
        case (.backspace, []), (.character("h"), .control):
            guard cursor > 0 else { return true }
            edit { $0.characters.remove(at: $0.cursor - 1); $0.cursor -= 1 }
        case (.delete, []), (.character("d"), .control):
            guard cursor < characters.count else { return true }
            edit { $0.characters.remove(at: $0.cursor) }
        case (.character("k"), .control): kill(cursor..<characters.count)
        case (.character("u"), .control): kill(0..<cursor)
        case (.character("w"), .control), (.backspace, .alt): kill(wordStart(before: cursor)..<cursor)
        case (.character("d"), .alt), (.delete, .control): kill(cursor..<wordEnd(after: cursor))
        case (.character("y"), .control): insert(Array(killBuffer), typing: false)
        case (.character("_"), .control), (.character("/"), .control): undo()
        default:
            return false
        }
        return true
    }

    /// Inserts characters at the cursor.
    public mutating func insert(_ inserted: [Character], typing: Bool = false) {
        guard !inserted.isEmpty else { return }
        // Typing a run of characters is one undo step, as in readline.
        if !(typing && lastEditWasTyping) { pushUndo() }
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
        lastEditWasTyping = typing
    }

    /// Restores the text as it was before the last edit.
    public mutating func undo() {
        guard let snapshot = undoStack.popLast() else { return }
        characters = snapshot.characters
        cursor = snapshot.cursor
        lastEditWasTyping = false
    }

    /// Moves the cursor, clamped to the text.
    public mutating func move(to index: Int) {
        cursor = max(0, min(characters.count, index))
        lastEditWasTyping = false
    }

    private mutating func kill(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        killBuffer = String(characters[range])
        edit {
            $0.characters.removeSubrange(range)
            $0.cursor = range.lowerBound
        }
    }

    private mutating func edit(_ change: (inout TextField) -> Void) {
        pushUndo()
        change(&self)
        lastEditWasTyping = false
    }

    private mutating func pushUndo() {
        undoStack.append(Snapshot(characters: characters, cursor: cursor))
        if undoStack.count > 200 { undoStack.removeFirst() }
    }

    /// The start of the word before an index (skipping separators first), as `alt+b` moves.
    func wordStart(before index: Int) -> Int {
        WordBoundary.start(in: characters, before: index)
    }

    /// The end of the word after an index, as `alt+f` moves.
    func wordEnd(after index: Int) -> Int {
        WordBoundary.end(in: characters, after: index)
    }

    // MARK: - Rendering

    /// Draws the field on one row, scrolled so the cursor is visible, and places the buffer's
    /// cursor when focused.
    public mutating func render(into buffer: inout ScreenBuffer, at rect: Rect, style: Style, placeholder: String = "", placeholderStyle: Style? = nil, focused: Bool) {
        guard rect.width > 0, rect.height > 0 else { return }
        buffer.fill(rect.row(0), style: style)
        if characters.isEmpty, !placeholder.isEmpty, !focused {
            buffer.write(placeholder, x: rect.x, y: rect.y, style: placeholderStyle ?? style, limit: rect.width)
        }
        let shown = isSecret ? Array(repeating: Character("•"), count: characters.count) : characters
        let cursorColumn = TextWidth.of(String(shown[..<cursor]))
        // Keep one column for the cursor after the text.
        if cursorColumn < scroll { scroll = cursorColumn }
        if cursorColumn - scroll > rect.width - 1 { scroll = cursorColumn - rect.width + 1 }
        var column = 0
        var drawn = 0
        for character in shown {
            let width = TextWidth.of(character)
            if column >= scroll {
                if drawn + width > rect.width { break }
                buffer.write(String(character), x: rect.x + drawn, y: rect.y, style: style, limit: rect.width - drawn)
                drawn += width
            }
            column += width
        }
        if focused { buffer.cursor = Point(x: rect.x + cursorColumn - scroll, y: rect.y) }
    }
}
