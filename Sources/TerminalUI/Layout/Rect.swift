/// A rectangle of terminal cells.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Creates a rectangle; negative sizes become empty.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// Whether a cell lies inside.
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// The rectangle shrunk by `amount` cells on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// The common part of two rectangles (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        return Rect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }

    /// One row of this rectangle, counted from its top.
    public func row(_ offset: Int) -> Rect {
        Rect(x: x, y: y + offset, width: width, height: offset < height ? 1 : 0)
    }

    /// A rectangle of `size` centred inside this one, clipped to it.
    public func centered(width innerWidth: Int, height innerHeight: Int) -> Rect {
        let w = min(width, innerWidth), h = min(height, innerHeight)
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
