/// A grid of cells that views render into, in memory, and that a backend flushes to a terminal.
///
/// Nothing here touches a terminal: tests render into a buffer and compare its ``lines`` and
/// ``styleRuns(inRow:)`` with golden files. ``diff(from:)`` gives the runs that changed since the
/// last frame, so the backend writes only those.
public struct ScreenBuffer: Sendable, Equatable {
    /// Columns.
    public private(set) var width: Int
    /// Rows.
    public private(set) var height: Int
    /// Cells, row by row.
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should rest (a focused text field's caret), or nil to hide it.
    public var cursor: Point?

    /// Creates a buffer of blank cells.
    public init(width: Int, height: Int, style: Style = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank(style), count: self.width * self.height)
    }

    /// The whole buffer as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at a position.
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    // MARK: - Drawing

    /// Fills a rectangle with blank cells in a style.
    public mutating func fill(_ rect: Rect, style: Style, character: String = " ") {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for row in area.y..<area.maxY {
            repairWideEdges(row: row, from: area.x, to: area.maxX)
            for column in area.x..<area.maxX { cells[row * width + column] = Cell(character, style: style) }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the text.
    public mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for row in area.y..<area.maxY {
            for column in area.x..<area.maxX { cells[row * width + column].style = transform(cells[row * width + column].style) }
        }
    }

    /// Writes text on one row, clipped to `limit` columns and to the buffer.
    ///
    /// Control characters are shown as `·`; a wide grapheme that would be cut in half at the edge
    /// becomes a space.
    /// - Returns: The columns written.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style, limit: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let end = min(width, limit.map { x + max(0, $0) } ?? width)
        var column = x
        for character in text {
            if column >= end { break }
            var cellWidth = TextWidth.of(character)
            var display = TextWidth.displayForm(of: character)
            if cellWidth == 0 {
                if character.unicodeScalars.first.map({ $0.value < 0x20 || $0.value == 0x7F }) ?? true {
                    display = "·"
                    cellWidth = 1
                } else {
                    continue
                }
            }
            if column < 0 {
                column += cellWidth
                continue
            }
            if column + cellWidth > end {
                set(column: column, row: y, Cell(" ", style: style))
                column += 1
                break
            }
            set(column: column, row: y, Cell(display, style: style))
            if cellWidth == 2 { set(column: column + 1, row: y, Cell("", style: style)) }
            column += cellWidth
        }
        return max(0, column - max(x, 0))
    }

    /// Writes styled spans one after another on a row.
    /// - Returns: The columns written.
    @discardableResult
    public mutating func write(_ spans: [Span], x: Int, y: Int, limit: Int? = nil) -> Int {
        var used = 0
        let limit = limit ?? (width - x)
        for span in spans where used < limit {
            used += write(span.text, x: x + used, y: y, style: span.style, limit: limit - used)
        }
        return used
    }

    /// Replaces one cell, blanking the other half of any wide grapheme it cuts.
    private mutating func set(column: Int, row: Int, _ cell: Cell) {
        repairWideEdges(row: row, from: column, to: column + 1)
        cells[row * width + column] = cell
    }

    /// Before cells `start..<end` of a row are overwritten: a wide grapheme that straddles either
    /// edge loses its other half, which becomes a blank.
    private mutating func repairWideEdges(row: Int, from start: Int, to end: Int) {
        let base = row * width
        if start > 0, start < width, cells[base + start].isContinuation {
            cells[base + start - 1] = .blank(cells[base + start - 1].style)
        }
        if end < width, end > 0, cells[base + end].isContinuation {
            cells[base + end] = .blank(cells[base + end].style)
        }
    }

    // MARK: - Reading

    /// The text of every row, with trailing spaces removed.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width { line += cells[row * width + column].text }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Runs of cells that share a style in one row: start column, length, style.
    public func styleRuns(inRow row: Int) -> [(start: Int, length: Int, style: Style)] {
        var runs: [(start: Int, length: Int, style: Style)] = []
        for column in 0..<width {
            let style = cells[row * width + column].style
            if let last = runs.last, last.style == style {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((column, 1, style))
            }
        }
        return runs
    }

    // MARK: - Diffing

    /// A run of changed cells on one row.
    public struct Change: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var cells: [Cell]
    }

    /// The runs of cells that differ from `previous`; every cell when there is none or its size differs.
    ///
    /// Gaps of up to three unchanged cells are folded into a run: rewriting them is cheaper than
    /// moving the cursor. A run never starts on a continuation cell.
    public func diff(from previous: ScreenBuffer?) -> [Change] {
        var changes: [Change] = []
        let full = previous == nil || previous?.width != width || previous?.height != height
        for row in 0..<height {
            let base = row * width
            var column = 0
            while column < width {
                if !full, let previous, previous.cells[base + column] == cells[base + column] {
                    column += 1
                    continue
                }
                var start = column
                if start > 0, cells[base + start].isContinuation { start -= 1 }
                var lastChanged = column
                var probe = column + 1
                while probe < width {
                    if full || previous?.cells[base + probe] != cells[base + probe] {
                        lastChanged = probe
                    } else if probe - lastChanged > 3 {
                        break
                    }
                    probe += 1
                }
                var end = lastChanged + 1
                // A wide grapheme's continuation goes with it.
                if end < width, cells[base + end].isContinuation { end += 1 }
                changes.append(Change(x: start, y: row, cells: Array(cells[(base + start)..<(base + end)])))
                column = end
            }
        }
        return changes
    }
}

/// A cell position.
public struct Point: Sendable, Hashable {
    public var x: Int
    public var y: Int

    /// Creates a position.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A piece of text in one style.
public struct Span: Sendable, Hashable {
    public var text: String
    public var style: Style

    /// Creates a span.
    public init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// A line made of styled spans.
public typealias StyledLine = [Span]

extension [Span] {
    /// The columns the line takes.
    public var columns: Int { reduce(0) { $0 + TextWidth.of($1.text) } }
    /// The plain text of the line.
    public var plainText: String { map(\.text).joined() }
}
