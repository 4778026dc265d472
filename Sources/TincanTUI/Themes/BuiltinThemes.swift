import TerminalUI

/// The themes compiled in. Each is also written out under `themes/` as a file to read and copy;
/// a test checks that every file loads to exactly its built-in theme.
public enum BuiltinThemes {
    /// The default: a dark palette over the terminal's own background and text colours.
    public static let dark = Theme(name: "dark", palette: Palette(
        primary: .rgb(0x61, 0xAF, 0xEF), accent: .rgb(0xC6, 0x78, 0xDD), success: .rgb(0x98, 0xC3, 0x79),
        warning: .rgb(0xE5, 0xC0, 0x7B), error: .rgb(0xE0, 0x6C, 0x75), info: .rgb(0x56, 0xB6, 0xC2),
        text: .default, muted: .rgb(0x7F, 0x84, 0x8E), background: .default, surface: .rgb(0x2C, 0x31, 0x3A),
        border: .rgb(0x4B, 0x52, 0x63), selection: .rgb(0x3E, 0x44, 0x51)
    ))

    /// Dark text on a light background.
    public static let light = Theme(name: "light", palette: Palette(
        primary: .rgb(0x00, 0x50, 0xB3), accent: .rgb(0x8A, 0x2B, 0xE2), success: .rgb(0x23, 0x78, 0x04),
        warning: .rgb(0xAD, 0x68, 0x00), error: .rgb(0xCF, 0x13, 0x22), info: .rgb(0x00, 0x6D, 0x75),
        text: .rgb(0x1F, 0x1F, 0x1F), muted: .rgb(0x6E, 0x6E, 0x6E), background: .rgb(0xFA, 0xFA, 0xFA),
        surface: .rgb(0xE8, 0xE8, 0xE8), border: .rgb(0xBF, 0xBF, 0xBF), selection: .rgb(0xBA, 0xE0, 0xFF)
    ))

    /// The 16 ANSI colours only, bright on black, for low vision and for 8-colour terminals.
    public static let highContrast = Theme(name: "high-contrast", palette: Palette(
        primary: .indexed(11), accent: .indexed(14), success: .indexed(10), warning: .indexed(11),
        error: .indexed(9), info: .indexed(14), text: .indexed(15), muted: .indexed(7),
        background: .indexed(0), surface: .indexed(0), border: .indexed(15), selection: .indexed(4)
    ))

    /// Arctic Ice Studio's Nord.
    public static let nord = Theme(name: "nord", palette: Palette(
        primary: .rgb(0x88, 0xC0, 0xD0), accent: .rgb(0xB4, 0x8E, 0xAD), success: .rgb(0xA3, 0xBE, 0x8C),
        warning: .rgb(0xEB, 0xCB, 0x8B), error: .rgb(0xBF, 0x61, 0x6A), info: .rgb(0x81, 0xA1, 0xC1),
        text: .rgb(0xD8, 0xDE, 0xE9), muted: .rgb(0x61, 0x6E, 0x88), background: .rgb(0x2E, 0x34, 0x40),
        surface: .rgb(0x3B, 0x42, 0x52), border: .rgb(0x4C, 0x56, 0x6A), selection: .rgb(0x43, 0x4C, 0x5E)
    ))

    /// Dracula.
    public static let dracula = Theme(name: "dracula", palette: Palette(
        primary: .rgb(0xBD, 0x93, 0xF9), accent: .rgb(0xFF, 0x79, 0xC6), success: .rgb(0x50, 0xFA, 0x7B),
        warning: .rgb(0xF1, 0xFA, 0x8C), error: .rgb(0xFF, 0x55, 0x55), info: .rgb(0x8B, 0xE9, 0xFD),
        text: .rgb(0xF8, 0xF8, 0xF2), muted: .rgb(0x62, 0x72, 0xA4), background: .rgb(0x28, 0x2A, 0x36),
        surface: .rgb(0x44, 0x47, 0x5A), border: .rgb(0x62, 0x72, 0xA4), selection: .rgb(0x44, 0x47, 0x5A)
    ))

    /// All of them, the default first.
    public static let all = [dark, light, highContrast, nord, dracula]
}
