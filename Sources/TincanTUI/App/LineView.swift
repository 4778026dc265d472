import TerminalUI

/// How long lines show in the preview and response boxes: wrapped to the box, or cut at its
/// edge with the box scrolled sideways (issue 17 §1).
public struct LineView: Sendable, Equatable {
    /// Whether long lines wrap (alt+z); off, they are cut and `<` `>` scroll sideways.
    public var wraps = false
    /// The first column the preview box shows while lines do not wrap.
    public var previewColumn = 0
    /// The first column the response box shows while lines do not wrap.
    public var responseColumn = 0

    /// Columns one sideways key moves.
    static let step = 8

    public init() {}
}

extension Token: LinePiece {
    public func with(text: String) -> Token { Token(element, text) }
}

/// Lines as a box shows them: every line wrapped, with the line each row comes from.
struct WrappedLines {
    var rows: [TokenLine] = []
    /// For each row, the index of the line it is part of.
    var sources: [Int] = []

    /// Wraps every line to `width` columns.
    init(_ lines: [TokenLine], width: Int) {
        for (index, line) in lines.enumerated() {
            for row in LineWrap.rows(line, width: width) {
                rows.append(row)
                sources.append(index)
            }
        }
    }

    /// The first row of line `line` (the last row when there are fewer lines).
    func firstRow(of line: Int) -> Int {
        sources.firstIndex { $0 >= line } ?? max(0, rows.count - 1)
    }
}

extension LineView {
    /// Lines as shown `width` columns wide: wrapped, or from the box's column on.
    static func shown(_ lines: [TokenLine], width: Int, wraps: Bool, column: Int) -> [TokenLine] {
        if wraps { return WrappedLines(lines, width: width).rows }
        guard column > 0 else { return lines }
        return lines.map { LineWrap.dropping(columns: column, of: $0) }
    }

    /// The furthest a box whose text is `width` columns wide scrolls sideways over `lines`: the
    /// widest one's end at the right edge, in whole steps.
    static func columnLimit(_ lines: some Sequence<TokenLine>, width: Int) -> Int {
        let widest = lines.reduce(0) { max($0, LineWrap.width(of: $1)) }
        let over = max(0, widest - width)
        return (over + step - 1) / step * step
    }
}
