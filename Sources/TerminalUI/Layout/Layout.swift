/// How much of a split one part takes.
public enum LayoutConstraint: Sendable, Hashable {
    /// Exactly this many cells (less when there is not room).
    case fixed(Int)
    /// This percentage of the whole.
    case percent(Int)
    /// At least this many cells, then a share of what is left over.
    case fill(minimum: Int)

    /// A part that shares what is left with no minimum.
    public static let fill = LayoutConstraint.fill(minimum: 0)
}

/// The direction of a split.
public enum Axis: Sendable, Hashable {
    /// Parts side by side, left to right.
    case horizontal
    /// Parts stacked, top to bottom.
    case vertical
}

extension Rect {
    /// Splits the rectangle into parts along an axis.
    ///
    /// Fixed and percentage parts are given their size first (shrunk from the last one when they
    /// do not fit); fill parts share the rest evenly, the earlier ones taking any odd cell.
    /// - Returns: One rectangle per constraint, in order, covering the whole without overlap.
    public func split(_ axis: Axis, _ constraints: [LayoutConstraint]) -> [Rect] {
        let total = axis == .horizontal ? width : height
        var sizes = constraints.map { constraint -> Int in
            switch constraint {
            case let .fixed(cells): max(0, cells)
            case let .percent(share): total * max(0, min(100, share)) / 100
            case let .fill(minimum): max(0, minimum)
            }
        }
        var overflow = sizes.reduce(0, +) - total
        var index = sizes.count - 1
        while overflow > 0, index >= 0 {
            let cut = min(sizes[index], overflow)
            sizes[index] -= cut
            overflow -= cut
            index -= 1
        }
        let fills = constraints.indices.filter { if case .fill = constraints[$0] { true } else { false } }
        if overflow < 0, !fills.isEmpty {
            let spare = -overflow
            for (order, fillIndex) in fills.enumerated() {
                sizes[fillIndex] += spare / fills.count + (order < spare % fills.count ? 1 : 0)
            }
        }
        var parts: [Rect] = []
        var offset = 0
        for size in sizes {
            switch axis {
            case .horizontal: parts.append(Rect(x: x + offset, y: y, width: size, height: height))
            case .vertical: parts.append(Rect(x: x, y: y + offset, width: width, height: size))
            }
            offset += size
        }
        return parts
    }
}
