import Foundation

/// Numbers written with a fixed count of decimals, exactly as `String(format: "%.Nf")` writes
/// them, in Swift: Foundation's formatting goes through `NSString` and `CVarArg` casts, which cost
/// a quarter of a millisecond the first time in each process and microseconds each time after.
public enum DecimalText {
    private static let scales: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `value` with `decimals` digits after the point (0 to 6), as `%.<decimals>f` writes it:
    /// rounded to nearest, with `-` kept on a negative value that rounds to zero.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        precondition(scales.indices.contains(decimals), "DecimalText writes 0 to 6 decimals")
        let scale = scales[decimals]
        let scaled = value.magnitude * scale
        // A product that lands on a half may have been rounded onto it from either side, and
        // very large or odd values are rare: printf decides those, exactly.
        guard value.isFinite, scaled < 1e15, (scaled - scaled.rounded(.down)) != 0.5 else {
            return String(format: "%.\(decimals)f", value)
        }
        let units = Int64(scaled.rounded())
        let whole = units / Int64(scale)
        var text = (value.sign == .minus ? "-" : "") + String(whole)
        if decimals > 0 {
            let fraction = String(units % Int64(scale))
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    /// `value` as ``fixed(_:decimals:)`` writes it, right-aligned in `width` characters, as
    /// `%<width>.<decimals>f` writes it.
    public static func fixed(_ value: Double, decimals: Int, width: Int) -> String {
        rightAligned(fixed(value, decimals: decimals), width: width)
    }

    /// `text` with spaces before it to fill `width` characters (a longer text is left whole).
    public static func rightAligned(_ text: String, width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
