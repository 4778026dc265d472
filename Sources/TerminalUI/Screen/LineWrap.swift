/// Long lines on a screen of fixed width: cut into rows (wrapping), or shown from a column on
/// (sideways scrolling), both by display width (``TextWidth``), so a wide character is never
/// split and a tab moves to its stop.
///
/// The functions are generic over the piece a line is made of (a styled ``Span``, or an app's
/// own token), so a line is wrapped before it is styled, and only the lines drawn are wrapped.
public enum LineWrap {
    /// Columns between tab stops.
    public static let tabWidth = 4

    /// The columns a grapheme takes where it starts at `column`: a tab runs to the next stop,
    /// another control character is drawn as one `·` (as ``ScreenBuffer`` draws it).
    public static func columns(of character: Character, at column: Int) -> Int {
        if character == "\t" { return tabWidth - column % tabWidth }
        let width = TextWidth.of(character)
        if width == 0, let first = character.unicodeScalars.first, first.value < 0x20 || first.value == 0x7F { return 1 }
        return width
    }

    /// The columns a line takes.
    public static func width<Piece: LinePiece>(of line: [Piece]) -> Int {
        var column = 0
        for piece in line {
            for character in piece.text { column += columns(of: character, at: column) }
        }
        return column
    }

    /// Cuts a line into rows of at most `width` columns. Tabs become spaces; a wide character
    /// that does not fit starts the next row. An empty line is one empty row.
    public static func rows<Piece: LinePiece>(_ line: [Piece], width: Int) -> [[Piece]] {
        guard width > 0 else { return [line] }
        var rows: [[Piece]] = []
        var row: [Piece] = []
        var used = 0
        // The column within the whole line, which tab stops are counted from.
        var column = 0
        for piece in line {
            var text = ""
            for character in piece.text {
                var cells = columns(of: character, at: column)
                if used + cells > width, used > 0 {
                    if !text.isEmpty { row.append(piece.with(text: text)) }
                    rows.append(row)
                    row = []
                    text = ""
                    used = 0
                    if character == "\t" { cells = min(cells, width) }
                }
                column += cells
                used += cells
                text += character == "\t" ? String(repeating: " ", count: cells) : String(character)
            }
            if !text.isEmpty { row.append(piece.with(text: text)) }
        }
        rows.append(row)
        return rows
    }

    /// The line from column `start` on: what lies before it is dropped, tabs become spaces, and
    /// a wide character that `start` cuts in half becomes a space.
    public static func dropping<Piece: LinePiece>(columns start: Int, of line: [Piece]) -> [Piece] {
        guard start > 0 else { return line }
        var result: [Piece] = []
        var column = 0
        for piece in line {
            var text = ""
            for character in piece.text {
                let cells = columns(of: character, at: column)
                let end = column + cells
                if end > start {
                    if column < start {
                        text += String(repeating: " ", count: end - start)
                    } else {
                        text += character == "\t" ? String(repeating: " ", count: cells) : String(character)
                    }
                }
                column = end
            }
            if !text.isEmpty { result.append(piece.with(text: text)) }
        }
        return result
    }
}

/// A piece of a line that ``LineWrap`` can cut: text, and whatever styles it.
public protocol LinePiece {
    var text: String { get }
    /// The same piece with other text.
    func with(text: String) -> Self
}

extension Span: LinePiece {
    public func with(text: String) -> Span { Span(text, style) }
}
