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

    /// The tab under a column, from the ranges ``render`` returned.
    public static func tab(at column: Int, in ranges: [Range<Int>]) -> Int? {
        ranges.firstIndex { $0.contains(column) }
    }
}
