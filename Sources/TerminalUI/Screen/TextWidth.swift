/// How many terminal columns text takes, without asking a terminal.
///
/// East Asian wide and full-width characters and emoji presentation take two columns; combining
/// marks, zero-width joiners and variation selectors take none. A grapheme that ends in VS16
/// (U+FE0F) after a one-column base is shown without the selector (``displayForm(of:)``): terminals
/// disagree about its width, and tmux columns drift when it is kept.
public enum TextWidth {
    /// The columns a grapheme cluster takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if scalars.count > 1 {
            // A ZWJ sequence or a flag is drawn as one emoji.
            if scalars.contains(where: { $0.value == 0x200D }) || isRegionalIndicator(first) { return 2 }
            if scalars.contains(where: { $0.value == 0xFE0F }) && !first.properties.isEmojiPresentation {
                return 1
            }
        }
        return of(scalar: first)
    }

    /// The columns one scalar takes.
    public static func of(scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value == 0x200B || value == 0x200D || (0xFE00...0xFE0F).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(value) { return 2 }
        return 1
    }

    /// The columns a string takes.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The grapheme as a terminal should get it: VS16 dropped after a one-column base.
    public static func displayForm(of character: Character) -> String {
        let scalars = character.unicodeScalars
        guard scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F }), of(character) == 1 else {
            return String(character)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars.filter { $0.value != 0xFE0F })
        return String(view)
    }

    /// The longest prefix of `text` that fits in `columns`.
    public static func prefix(_ text: some StringProtocol, fitting columns: Int) -> Substring {
        let text = Substring(text)
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let width = of(text[index])
            if used + width > columns { break }
            used += width
            end = text.index(after: index)
        }
        return text[..<end]
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges outside emoji presentation (Unicode 15).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
