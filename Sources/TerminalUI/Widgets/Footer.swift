/// The footer: key hints, `key label` pairs, as many as fit.
public enum Footer {
    /// Draws the hints left to right on one row, dropping those that do not fit.
    public static func render(_ hints: [(key: String, label: String)], into buffer: inout ScreenBuffer, at rect: Rect, keyStyle: Style, labelStyle: Style) {
        buffer.fill(rect.row(0), style: labelStyle)
        var x = rect.x
        for hint in hints {
            let width = TextWidth.of(hint.key) + TextWidth.of(hint.label) + 3
            if x + width > rect.maxX { break }
            x += buffer.write(" \(hint.key) ", x: x, y: rect.y, style: keyStyle)
            x += buffer.write(hint.label + " ", x: x, y: rect.y, style: labelStyle)
        }
    }
}
