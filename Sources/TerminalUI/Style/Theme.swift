/// A small semantic palette, after Textual's: every element style is derived from it.
public struct Palette: Sendable, Hashable {
    public var primary: Color
    public var accent: Color
    public var success: Color
    public var warning: Color
    public var error: Color
    public var info: Color
    public var text: Color
    public var muted: Color
    public var background: Color
    public var surface: Color
    public var border: Color
    public var selection: Color

    /// Creates a palette.
    public init(primary: Color, accent: Color, success: Color, warning: Color, error: Color, info: Color, text: Color, muted: Color, background: Color, surface: Color, border: Color, selection: Color) {
        self.primary = primary
        self.accent = accent
        self.success = success
        self.warning = warning
        self.error = error
        self.info = info
        self.text = text
        self.muted = muted
        self.background = background
        self.surface = surface
        self.border = border
        self.selection = selection
    }

    /// The palette's colours by the names theme files use.
    public static let fieldNames: [String] = [
        "primary", "accent", "success", "warning", "error", "info", "text", "muted", "background", "surface", "border", "selection",
    ]

    /// Reads a colour by its file name.
    public subscript(name: String) -> Color? {
        get {
            switch name {
            case "primary": primary
            case "accent": accent
            case "success": success
            case "warning": warning
            case "error": error
            case "info": info
            case "text": text
            case "muted": muted
            case "background": background
            case "surface": surface
            case "border": border
            case "selection": selection
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch name {
            case "primary": primary = newValue
            case "accent": accent = newValue
            case "success": success = newValue
            case "warning": warning = newValue
            case "error": error = newValue
            case "info": info = newValue
            case "text": text = newValue
            case "muted": muted = newValue
            case "background": background = newValue
            case "surface": surface = newValue
            case "border": border = newValue
            case "selection": selection = newValue
            default: break
            }
        }
    }
}

/// The parts of the screen a theme styles.
public enum ThemeElement: String, Sendable, CaseIterable, Hashable {
    case base, title, border, borderFocused = "border-focused", label, field, fieldFocused = "field-focused"
    case placeholder, selection, selectionUnfocused = "selection-unfocused", disabled, changed
    case tabActive = "tab-active", tabInactive = "tab-inactive"
    case footerKey = "footer-key", footerLabel = "footer-label", statusBar = "status-bar"
    case status1xx = "status-1xx", status2xx = "status-2xx", status3xx = "status-3xx", status4xx = "status-4xx", status5xx = "status-5xx"
    case headerName = "header-name", headerValue = "header-value", method
    case jsonKey = "json-key", jsonString = "json-string", jsonNumber = "json-number", jsonBool = "json-bool"
    case jsonNull = "json-null", jsonPunctuation = "json-punctuation"
    case xmlTag = "xml-tag", xmlAttribute = "xml-attribute", xmlText = "xml-text"
    case error, warning, success, muted
    case progressFilled = "progress-filled", progressEmpty = "progress-empty"
    case dialog, dialogBorder = "dialog-border"
    case match, matchCurrent = "match-current"
}

/// A theme: a palette and the style of every element, derived from the palette unless overridden.
///
/// A theme file lists only what it changes (gitui's partial overrides); ``merging(_:)`` applies it
/// over a base theme.
public struct Theme: Sendable, Hashable {
    /// The name it is chosen by.
    public var name: String
    /// The semantic colours.
    public var palette: Palette
    /// Element styles that a file set explicitly, over the derived ones.
    public var overrides: [ThemeElement: Style]

    /// Creates a theme.
    public init(name: String, palette: Palette, overrides: [ThemeElement: Style] = [:]) {
        self.name = name
        self.palette = palette
        self.overrides = overrides
    }

    /// The style of an element.
    public func style(_ element: ThemeElement) -> Style {
        overrides[element] ?? derived(element)
    }

    /// The style of an element as the palette alone makes it.
    public func derived(_ element: ThemeElement) -> Style {
        let p = palette
        let base = Style(foreground: p.text, background: p.background)
        switch element {
        case .base: return base
        case .title: return base.foreground(p.primary).adding(.bold)
        case .border: return base.foreground(p.border)
        case .borderFocused: return base.foreground(p.primary).adding(.bold)
        case .label: return base.foreground(p.muted)
        case .field: return Style(foreground: p.text, background: p.surface)
        case .fieldFocused: return Style(foreground: p.text, background: p.surface).adding(.underline)
        case .placeholder: return Style(foreground: p.muted, background: p.surface).adding(.italic)
        case .selection: return Style(foreground: p.text, background: p.selection).adding(.bold)
        case .selectionUnfocused: return Style(foreground: p.text, background: p.surface)
        case .disabled: return base.foreground(p.muted).adding(.dim)
        case .changed: return base.foreground(p.warning).adding(.bold)
        case .tabActive: return base.foreground(p.primary).adding([.bold, .underline])
        case .tabInactive: return base.foreground(p.muted)
        case .footerKey: return Style(foreground: p.background, background: p.primary).adding(.bold)
        case .footerLabel: return Style(foreground: p.text, background: p.surface)
        case .statusBar: return Style(foreground: p.text, background: p.surface)
        case .status1xx: return base.foreground(p.info).adding(.bold)
        case .status2xx: return base.foreground(p.success).adding(.bold)
        case .status3xx: return base.foreground(p.accent).adding(.bold)
        case .status4xx: return base.foreground(p.warning).adding(.bold)
        case .status5xx: return base.foreground(p.error).adding(.bold)
        case .headerName: return base.foreground(p.accent)
        case .headerValue: return base
        case .method: return base.foreground(p.primary).adding(.bold)
        case .jsonKey: return base.foreground(p.primary)
        case .jsonString: return base.foreground(p.success)
        case .jsonNumber: return base.foreground(p.accent)
        case .jsonBool: return base.foreground(p.warning)
        case .jsonNull: return base.foreground(p.muted).adding(.italic)
        case .jsonPunctuation: return base.foreground(p.muted)
        case .xmlTag: return base.foreground(p.primary)
        case .xmlAttribute: return base.foreground(p.accent)
        case .xmlText: return base
        case .error: return base.foreground(p.error).adding(.bold)
        case .warning: return base.foreground(p.warning)
        case .success: return base.foreground(p.success)
        case .muted: return base.foreground(p.muted)
        case .progressFilled: return base.foreground(p.primary)
        case .progressEmpty: return base.foreground(p.border)
        case .dialog: return Style(foreground: p.text, background: p.surface)
        case .dialogBorder: return Style(foreground: p.primary, background: p.surface).adding(.bold)
        case .match: return Style(foreground: p.background, background: p.warning)
        case .matchCurrent: return Style(foreground: p.background, background: p.accent).adding(.bold)
        }
    }

    /// A theme with a partial one applied over it: named palette colours replaced, then styles.
    public func merging(_ partial: PartialTheme) -> Theme {
        var theme = self
        if let name = partial.name { theme.name = name }
        for (name, color) in partial.palette { theme.palette[name] = color }
        for (element, spec) in partial.styles {
            theme.overrides[element] = spec.resolve(over: theme.style(element), palette: theme.palette)
        }
        return theme
    }
}

/// What a theme file says: only the parts it changes.
public struct PartialTheme: Sendable, Hashable {
    public var name: String?
    /// Palette colours by name.
    public var palette: [String: Color]
    /// Element styles.
    public var styles: [ThemeElement: StyleSpec]

    /// Creates a partial theme.
    public init(name: String? = nil, palette: [String: Color] = [:], styles: [ThemeElement: StyleSpec] = [:]) {
        self.name = name
        self.palette = palette
        self.styles = styles
    }
}

/// An element style as a file writes it: colours (or palette names) and attributes, all optional.
public struct StyleSpec: Sendable, Hashable {
    /// A colour, or the name of a palette colour.
    public enum ColorRef: Sendable, Hashable {
        case color(Color)
        case palette(String)
    }

    public var foreground: ColorRef?
    public var background: ColorRef?
    /// The attributes, replacing the derived ones when given.
    public var attributes: TextAttributes?

    /// Creates a spec.
    public init(foreground: ColorRef? = nil, background: ColorRef? = nil, attributes: TextAttributes? = nil) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The style this spec makes over a derived one.
    public func resolve(over base: Style, palette: Palette) -> Style {
        func color(_ reference: ColorRef?, fallback: Color) -> Color {
            switch reference {
            case let .color(color)?: color
            case let .palette(name)?: palette[name] ?? fallback
            case nil: fallback
            }
        }
        return Style(
            foreground: color(foreground, fallback: base.foreground),
            background: color(background, fallback: base.background),
            attributes: attributes ?? base.attributes
        )
    }
}
