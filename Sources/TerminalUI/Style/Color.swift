import Foundation

/// A terminal colour: the terminal's own default, one of the 256 indexed colours, or 24-bit RGB.
///
/// Themes name colours in any form; the backend maps them down to what the terminal has
/// (``nearest256`` and ``nearest8``).
public enum Color: Sendable, Hashable {
    /// The terminal's default foreground or background (`use_default_colors`).
    case `default`
    /// An indexed colour, 0–255 (0–7 are the basic ANSI colours, 8–15 their bright forms).
    case indexed(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    public static let black = Color.indexed(0)
    public static let red = Color.indexed(1)
    public static let green = Color.indexed(2)
    public static let yellow = Color.indexed(3)
    public static let blue = Color.indexed(4)
    public static let magenta = Color.indexed(5)
    public static let cyan = Color.indexed(6)
    public static let white = Color.indexed(7)
    public static let brightBlack = Color.indexed(8)
    public static let brightWhite = Color.indexed(15)

    /// The names a theme file may use for the 16 ANSI colours.
    public static let names: [String: Color] = [
        "black": .indexed(0), "red": .indexed(1), "green": .indexed(2), "yellow": .indexed(3),
        "blue": .indexed(4), "magenta": .indexed(5), "cyan": .indexed(6), "white": .indexed(7),
        "gray": .indexed(8), "grey": .indexed(8), "bright-black": .indexed(8), "bright-red": .indexed(9),
        "bright-green": .indexed(10), "bright-yellow": .indexed(11), "bright-blue": .indexed(12),
        "bright-magenta": .indexed(13), "bright-cyan": .indexed(14), "bright-white": .indexed(15),
        "default": .default,
    ]

    /// Parses `#rrggbb`, `#rgb`, a colour name, `default`, or an index `0`–`255`.
    ///
    /// - Returns: nil when the text is none of those.
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = Color.names[text] {
            self = named
        } else if text.hasPrefix("#") {
            let hex = Array(text.dropFirst())
            let digits: [Character]
            switch hex.count {
            case 6: digits = hex
            case 3: digits = hex.flatMap { [$0, $0] }
            default: return nil
            }
            var channels: [UInt8] = []
            for index in stride(from: 0, to: 6, by: 2) {
                guard let value = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
                channels.append(value)
            }
            self = .rgb(channels[0], channels[1], channels[2])
        } else if let index = UInt8(text) {
            self = .indexed(index)
        } else {
            return nil
        }
    }

    /// The closest of the 256 indexed colours (the 6×6×6 cube or the grey ramp).
    public var nearest256: Color {
        guard case let .rgb(red, green, blue) = self else { return self }
        func cubeLevel(_ value: UInt8) -> Int {
            value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let (r, g, b) = (cubeLevel(red), cubeLevel(green), cubeLevel(blue))
        let cubeDistance = Self.distance((levels[r], levels[g], levels[b]), (Int(red), Int(green), Int(blue)))
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyIndex = min(23, max(0, (average - 3) / 10))
        let grey = 8 + greyIndex * 10
        let greyDistance = Self.distance((grey, grey, grey), (Int(red), Int(green), Int(blue)))
        if greyDistance < cubeDistance {
            return .indexed(UInt8(232 + greyIndex))
        }
        return .indexed(UInt8(16 + 36 * r + 6 * g + b))
    }

    /// The closest of the 8 basic colours, for terminals without 256.
    public var nearest8: Color {
        let rgb: (Int, Int, Int)
        switch self {
        case .default: return .default
        case let .rgb(red, green, blue): rgb = (Int(red), Int(green), Int(blue))
        case let .indexed(index):
            if index < 8 { return self }
            if index < 16 { return .indexed(index - 8) }
            rgb = Self.rgbValue(ofIndex: Int(index))
        }
        let basics: [(Int, Int, Int)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229)]
        var best = 0
        for (index, basic) in basics.enumerated() where Self.distance(basic, rgb) < Self.distance(basics[best], rgb) {
            best = index
        }
        return .indexed(UInt8(best))
    }

    private static func rgbValue(ofIndex index: Int) -> (Int, Int, Int) {
        if index >= 232 {
            let grey = 8 + (index - 232) * 10
            return (grey, grey, grey)
        }
        let levels = [0, 95, 135, 175, 215, 255]
        let cube = index - 16
        return (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }
}
