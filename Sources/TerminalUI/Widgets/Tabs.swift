/// A row of tab titles, the active one marked.
public struct Tabs: Sendable, Hashable {
    /// The titles.
    public var titles: [String]
    /// The active tab.
    public var active: Int

    /// Creates a tab row.
    public init(_ titles: [String], active: Int = 0) {
        self.titles = titles
        self.active = active
    }

    /// Draws the titles separated by bars.
    /// - Returns: Each title's column range, for mouse clicks.
    @discardableResult
    public func render(into buffer: inout ScreenBuffer, at rect: Rect, active activeStyle: Style, inactive: Style, separator: Style) -> [Range<Int>] {
        var x = rect.x
        var ranges: [Range<Int>] = []
        let bar = Self.separator(titles, width: rect.width)
        for (index, title) in titles.enumerated() {
            if index > 0 { x += buffer.write(bar, x: x, y: rect.y, style: separator, limit: rect.maxX - x) }
            let width = buffer.write(title, x: x, y: rect.y, style: index == active ? activeStyle : inactive, limit: rect.maxX - x)
            ranges.append(x..<(x + width))
            x += width
        }
        return ranges
    }

    /// The bar between titles: ` │ `, or a bare `│` when the titles would not fit in `width`
    /// with the spaces (a narrow box still shows every tab).
    public static func separator(_ titles: [String], width: Int) -> String {
        let total = titles.reduce(0) { $0 + TextWidth.of($1) } + 3 * max(0, titles.count - 1)
        return total > width ? "│" : " │ "
    }

    /// The titles as they fit in `width` columns: as they are when they fit with ` │ ` or a bare
    /// `│` between them (``separator(_:width:)`` chooses), else the inactive ones cut short (to 5
    /// characters, then fewer), so every tab keeps a place to click and the active one its whole name.
    public static func fitted(_ titles: [String], active: Int, width: Int) -> [String] {
        func fits(_ row: [String]) -> Bool { row.map(TextWidth.of).reduce(0, +) + max(0, row.count - 1) * TextWidth.of(separator(row, width: width)) <= width }
        guard !fits(titles) else { return titles }
        for length in stride(from: 5, through: 1, by: -1) {
            let cut = titles.enumerated().map { $0.offset == active ? $0.element : String($0.element.prefix(length)) }
            if fits(cut) { return cut }
        }
        return titles.enumerated().map { $0.offset == active ? $0.element : String($0.element.prefix(1)) }
    }

    /// The tab under a column, from the ranges ``render`` returned.
    public static func tab(at column: Int, in ranges: [Range<Int>]) -> Int? {
        ranges.firstIndex { $0.contains(column) }
    }
}
