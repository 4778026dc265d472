/// A progress bar: a fraction as filled cells with eighth-block precision, or a moving block when
/// the total is unknown.
public struct ProgressBar: Sendable, Hashable {
    /// The fraction done, 0…1, or nil when indeterminate.
    public var fraction: Double?
    /// For an indeterminate bar: which step of the animation to draw.
    public var phase: Int

    /// Creates a bar.
    public init(fraction: Double?, phase: Int = 0) {
        self.fraction = fraction.map { max(0, min(1, $0)) }
        self.phase = phase
    }

    private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The bar's cells as text, `width` columns wide.
    public func text(width: Int) -> (filled: String, empty: String) {
        guard width > 0 else { return ("", "") }
        guard let fraction else {
            let block = max(1, width / 5)
            let start = phase % max(1, width - block + 1)
            return (String(repeating: " ", count: start) + String(repeating: "█", count: block), String(repeating: "░", count: width - start - block))
        }
        let total = Int((fraction * Double(width * 8)).rounded(.down))
        let full = total / 8, remainder = total % 8
        var filled = String(repeating: "█", count: full)
        var used = full
        if remainder > 0, used < width {
            filled += Self.eighths[remainder]
            used += 1
        }
        return (filled, String(repeating: "░", count: width - used))
    }

    /// Draws the bar.
    public func render(into buffer: inout ScreenBuffer, at rect: Rect, filled: Style, empty: Style) {
        let (done, rest) = text(width: rect.width)
        let used = buffer.write(done, x: rect.x, y: rect.y, style: filled, limit: rect.width)
        buffer.write(rest, x: rect.x + used, y: rect.y, style: empty, limit: rect.width - used)
    }
}
