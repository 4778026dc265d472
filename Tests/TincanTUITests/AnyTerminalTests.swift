import Foundation
import TerminalUI
import TestSupport
import Testing
@testable import TincanTUI

/// Any terminal (issue 34 §9): ASCII where the locale is not UTF-8, the theme chosen kept for the
/// next run, and a message that fits a screen below the minimum.
@Suite("Any terminal")
struct AnyTerminalTests {
    @Test("boxes, arrows, bars and marks have ASCII stand-ins; other characters are one ? a column")
    func asciiStandIns() {
        #expect(ASCIIFallback.text("─") == "-" && ASCIIFallback.text("│") == "|" && ASCIIFallback.text("╭") == "+")
        #expect(ASCIIFallback.text("▾") == "v" && ASCIIFallback.text("✓") == "+" && ASCIIFallback.text("✗") == "x")
        #expect(ASCIIFallback.text("█") == "#" && ASCIIFallback.text("░") == ".")
        #expect(ASCIIFallback.text("a") == "a" && ASCIIFallback.text("{") == "{")
        #expect(ASCIIFallback.text("é") == "?" && ASCIIFallback.text("世") == "?")
        // Every non-ASCII character the app itself draws has a stand-in.
        for glyph in ["●", "•", "·", "…", "↓", "↑", "→", "◀", "▸", "⏎", "↳", "⠋", "⠏", "▏", "▉", "╯", "╰", "╮", "×"] {
            #expect(ASCIIFallback.text(glyph) != "?", "\(glyph)")
        }
    }

    @Test("ctrl+t's theme is written into config.yaml's theme: line, comments and other lines kept")
    func theThemeLineIsWrittenInPlace() throws {
        #expect(ConfigThemeLine.setting("nord", in: "") == "theme: nord\n")
        #expect(ConfigThemeLine.setting("nord", in: "# mine\nmouse: false\n") == "# mine\nmouse: false\ntheme: nord\n")
        #expect(ConfigThemeLine.setting("light", in: "# mine\ntheme: dark # was\nmouse: false\n") == "# mine\ntheme: light\nmouse: false\n")
        #expect(ConfigThemeLine.quoted("on") == "\"on\"" && ConfigThemeLine.quoted("my theme") == "\"my theme\"" && ConfigThemeLine.quoted("high-contrast") == "high-contrast")
        let folder = try TemporaryDirectory()
        let path = folder.path + "/tincan/config.yaml"
        try ConfigThemeLine.save("dracula", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theme: dracula\n")
        try "history: false\ntheme: nord\n".write(toFile: path, atomically: true, encoding: .utf8)
        try ConfigThemeLine.save("light", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "history: false\ntheme: light\n")
        let settings = TUISettings.load(environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(settings.theme.name == "light" && settings.history == false)
    }

    @Test("ctrl+t asks the runner to keep the theme")
    func ctrlTAsksToKeepTheTheme() {
        var state = Fixtures.welcome()
        let effects = state.update(.input(.key(.ctrl("t"))))
        guard case .saveTheme(let name)? = effects.first else {
            Issue.record("no saveTheme effect: \(effects)")
            return
        }
        #expect(name == state.theme.name && name != "dark")
    }

    @Test("below 40x12 the message fits the screen it is on", arguments: [(39, 12), (30, 6), (20, 3), (12, 2), (6, 1), (3, 1)])
    func theTooSmallMessageFits(size: (Int, Int)) {
        let lines = Renderer.tooSmall(width: size.0, height: size.1)
        #expect(lines.count <= size.1, "\(lines)")
        #expect(lines.allSatisfy { TextWidth.of($0) <= size.0 }, "\(lines)")
        #expect(lines.joined(separator: " ").contains("40×") || size.0 < 5)
        var state = Fixtures.welcome(width: size.0, height: size.1)
        let screen = Renderer.render(&state)
        #expect(screen.lines.joined().contains(lines[0]))
    }
}
