/// The scroll position of a view over many lines: keys, the mouse wheel, and clamping.
public struct ScrollState: Sendable, Hashable {
    /// The first visible line.
    public private(set) var offset = 0

    /// Creates a scroll position at the top.
    public init(offset: Int = 0) {
        self.offset = max(0, offset)
    }

    /// Scrolls for a key or a wheel event.
    /// - Returns: Whether the event scrolled.
    @discardableResult
    public mutating func handle(_ event: InputEvent, contentHeight: Int, viewport: Int) -> Bool {
        let page = max(1, viewport - 1)
        switch event {
        case let .key(key) where key.modifiers.isEmpty:
            switch key.key {
            case .up, .character("k"): scroll(by: -1, contentHeight: contentHeight, viewport: viewport)
            case .down, .character("j"): scroll(by: 1, contentHeight: contentHeight, viewport: viewport)
            case .pageUp: scroll(by: -page, contentHeight: contentHeight, viewport: viewport)
            case .pageDown, .character(" "): scroll(by: page, contentHeight: contentHeight, viewport: viewport)
            case .home, .character("g"): offset = 0
            case .end, .character("G"): offset = max(0, contentHeight - viewport)
            default: return false
            }
            return true
        case let .mouse(mouse):
            switch mouse.action {
            case .wheelUp: scroll(by: -3, contentHeight: contentHeight, viewport: viewport)
            case .wheelDown: scroll(by: 3, contentHeight: contentHeight, viewport: viewport)
            default: return false
            }
            return true
        default:
            return false
        }
    }

    /// Moves by some lines, clamped so the last page stays full.
    public mutating func scroll(by lines: Int, contentHeight: Int, viewport: Int) {
        offset = max(0, min(max(0, contentHeight - viewport), offset + lines))
    }

    /// Clamps the offset after the content or the viewport changed.
    public mutating func clamp(contentHeight: Int, viewport: Int) {
        offset = max(0, min(max(0, contentHeight - viewport), offset))
    }
}

/// The selection in a list, kept visible as it moves.
public struct ListState: Sendable, Hashable {
    /// The selected row.
    public var selected = 0
    /// The first visible row.
    public private(set) var offset = 0

    /// Creates a list selection.
    public init(selected: Int = 0) {
        self.selected = selected
    }

    /// Moves the selection for a navigation key or a wheel event.
    /// - Returns: Whether the event moved it.
    @discardableResult
    public mutating func handle(_ event: InputEvent, count: Int, viewport: Int) -> Bool {
        switch event {
        case let .key(key) where key.modifiers.isEmpty:
            switch key.key {
            case .up, .character("k"): select(selected - 1, count: count)
            case .down, .character("j"): select(selected + 1, count: count)
            case .pageUp: select(selected - max(1, viewport - 1), count: count)
            case .pageDown: select(selected + max(1, viewport - 1), count: count)
            case .home, .character("g"): select(0, count: count)
            case .end, .character("G"): select(count - 1, count: count)
            default: return false
            }
            return true
        case let .mouse(mouse):
            switch mouse.action {
            case .wheelUp: select(selected - 1, count: count)
            case .wheelDown: select(selected + 1, count: count)
            default: return false
            }
            return true
        default:
            return false
        }
    }

    /// Scrolls a page (`direction` -1 or 1) and moves the selection with it, as a pager does.
    public mutating func page(_ direction: Int, count: Int, viewport: Int) {
        let step = max(1, viewport - 1) * direction
        offset = max(0, min(max(0, count - viewport), offset + step))
        select(selected + step, count: count)
    }

    /// Selects a row, clamped to the list.
    public mutating func select(_ row: Int, count: Int) {
        selected = max(0, min(count - 1, row))
    }

    /// Scrolls so the selection is visible in a viewport; returns the visible range.
    public mutating func visibleRange(count: Int, viewport: Int) -> Range<Int> {
        selected = max(0, min(count - 1, selected))
        if selected < offset { offset = selected }
        if selected >= offset + viewport { offset = selected - viewport + 1 }
        offset = max(0, min(offset, max(0, count - viewport)))
        return offset..<min(count, offset + viewport)
    }

    /// Scrolls so the selection is visible when a row takes `lines(row)` lines of the viewport
    /// (wrapped text); returns the rows that fit from the first visible one. A selected row taller
    /// than the viewport shows from its top. Only rows near the view are measured.
    public mutating func visibleRange(count: Int, viewport: Int, lines: (Int) -> Int) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        selected = max(0, min(count - 1, selected))
        offset = max(0, min(offset, count - 1))
        if selected < offset { offset = selected }
        // Each row takes a line at least, so rows further up than this cannot share the view.
        if selected - offset >= viewport { offset = selected - viewport + 1 }
        var used = (offset...selected).reduce(0) { $0 + lines($1) }
        while used > viewport, offset < selected {
            used -= lines(offset)
            offset += 1
        }
        var end = offset
        var filled = 0
        while end < count, filled < viewport {
            filled += lines(end)
            end += 1
        }
        return offset..<end
    }
}
