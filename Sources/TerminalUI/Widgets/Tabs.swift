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
        for (index, title) in titles.enumerated() {
            if index > 0 { x += buffer.write(" │ ", x: x, y: rect.y, style: separator, limit: rect.maxX - x) }
            let width = buffer.write(title, x: x, y: rect.y, style: index == active ? activeStyle : inactive, limit: rect.maxX - x)
            ranges.append(x..<(x + width))
            x += width
        }
        return ranges
    }

    /// The titles as they fit in `width` columns with ` │ ` between them: as they are when they
    /// fit, else the inactive ones cut short (to 4 characters, then fewer), so every tab keeps a
    /// place to click and the active one its whole name.
    public static func fitted(_ titles: [String], active: Int, width: Int) -> [String] {
        func total(_ row: [String]) -> Int { row.map(TextWidth.of).reduce(0, +) + max(0, row.count - 1) * 3 }
        guard total(titles) > width else { return titles }
        for length in stride(from: 4, through: 1, by: -1) {
            let cut = titles.enumerated().map { $0.offset == active ? $0.element : String($0.element.prefix(length)) }
            if total(cut) <= width { return cut }
        }
        return titles.enumerated().map { $0.offset == active ? $0.element : String($0.element.prefix(1)) }
    }

    /// The tab under a column, from the ranges ``render`` returned.
    public static func tab(at column: Int, in ranges: [Range<Int>]) -> Int? {
        ranges.firstIndex { $0.contains(column) }
    }
}
