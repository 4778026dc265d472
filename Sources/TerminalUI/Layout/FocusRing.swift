/// The focus model: an ordered ring of focusable things, moved through with tab and shift+tab
/// and set directly by a mouse click.
public struct FocusRing<ID: Hashable & Sendable>: Sendable {
    /// The focusable things in tab order.
    public var order: [ID]
    /// The focused one.
    public private(set) var current: ID

    /// Creates a ring focused on its first member.
    public init(_ order: [ID]) {
        precondition(!order.isEmpty, "a focus ring needs at least one member")
        self.order = order
        current = order[0]
    }

    /// Focuses the next member, wrapping around.
    public mutating func next() { step(1) }

    /// Focuses the previous member, wrapping around.
    public mutating func previous() { step(-1) }

    /// Focuses a member; ignored when it is not in the ring.
    public mutating func focus(_ id: ID) {
        if order.contains(id) { current = id }
    }

    private mutating func step(_ delta: Int) {
        let index = order.firstIndex(of: current) ?? 0
        current = order[(index + delta + order.count) % order.count]
    }
}

/// Regions of the last frame and what a click in each means, so the mouse can focus and select.
public struct HitMap<Target: Sendable>: Sendable {
    private var regions: [(Rect, Target)] = []

    /// Creates an empty map.
    public init() {}

    /// Records a region; later ones are on top.
    public mutating func add(_ rect: Rect, _ target: Target) {
        regions.append((rect, target))
    }

    /// What lies under a cell, topmost first.
    public func target(x: Int, y: Int) -> Target? {
        regions.last { $0.0.contains(x: x, y: y) }?.1
    }

    /// The region of the topmost target under a cell.
    public func region(x: Int, y: Int) -> Rect? {
        regions.last { $0.0.contains(x: x, y: y) }?.0
    }
}
