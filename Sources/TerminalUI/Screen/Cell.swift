/// One terminal cell: the grapheme drawn in it and its style.
///
/// A wide grapheme (two columns) sits in its first cell; the cell after it is a continuation,
/// with empty text, so that every row always has exactly `width` cells.
public struct Cell: Sendable, Hashable {
    /// The grapheme as the terminal gets it, or "" for the right half of a wide one.
    public var text: String
    /// How it looks.
    public var style: Style

    /// Creates a cell.
    public init(_ text: String = " ", style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// Whether this is the right half of a wide grapheme.
    public var isContinuation: Bool { text.isEmpty }

    /// A blank cell in a style.
    public static func blank(_ style: Style = .plain) -> Cell { Cell(" ", style: style) }
}
