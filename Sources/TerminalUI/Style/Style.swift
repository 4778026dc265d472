/// Text attributes a terminal can show.
public struct TextAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let italic = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let reverse = TextAttributes(rawValue: 1 << 4)

    /// The attribute names a theme file may use.
    public static let names: [String: TextAttributes] = [
        "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse,
    ]
}

/// How a cell looks: foreground, background and attributes.
public struct Style: Sendable, Hashable {
    public var foreground: Color
    public var background: Color
    public var attributes: TextAttributes

    /// Creates a style; the defaults are the terminal's own colours and no attributes.
    public init(foreground: Color = .default, background: Color = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's plain style.
    public static let plain = Style()

    /// This style with more attributes.
    public func adding(_ extra: TextAttributes) -> Style {
        var style = self
        style.attributes.formUnion(extra)
        return style
    }

    /// This style with another foreground.
    public func foreground(_ color: Color) -> Style {
        var style = self
        style.foreground = color
        return style
    }

    /// This style with another background.
    public func background(_ color: Color) -> Style {
        var style = self
        style.background = color
        return style
    }
}
