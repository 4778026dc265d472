import TincanSessions
import Foundation
import Testing
import TerminalUI
import TestSupport
@testable import TincanTUI

/// The repository root, found from this file.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("Theme, keymap and config files")
struct SettingsTests {
    @Test(arguments: BuiltinThemes.all)
    func everyThemeFileLoadsToItsBuiltInTheme(_ theme: Theme) throws {
        let path = repositoryRoot.appendingPathComponent("themes/\(theme.name).yaml").path
        #expect(try ThemeFile.load(path: path) == theme)
    }

    @Test func thereAreAtLeastADarkALightAHighContrastAndAPopularTheme() {
        let names = Set(BuiltinThemes.all.map(\.name))
        #expect(names.isSuperset(of: ["dark", "light", "high-contrast", "nord"]))
    }

    @Test func aPartialThemeMergesOverItsBase() throws {
        let theme = try ThemeFile.parse("""
        name: mine
        base: nord
        palette:
          primary: "#ff0000"
        styles:
          json-key: { fg: accent, attrs: [bold, underline] }
          error: { bold: false }
        """, path: "mine.yaml")
        #expect(theme.name == "mine")
        #expect(theme.palette.primary == .rgb(255, 0, 0))
        #expect(theme.palette.accent == BuiltinThemes.nord.palette.accent)
        #expect(theme.style(.jsonKey).foreground == BuiltinThemes.nord.palette.accent)
        #expect(theme.style(.jsonKey).attributes == [.bold, .underline])
        #expect(theme.style(.error).attributes == [])
        #expect(theme.style(.title).foreground == .rgb(255, 0, 0))
    }

    @Test func malformedYAMLNamesTheFileLineAndColumn() {
        do {
            _ = try ThemeFile.parse("name: x\npalette:\n  primary: [unclosed\n", path: "bad.yaml")
            Issue.record("malformed YAML was accepted")
        } catch let error as ConfigFileError {
            #expect(error.file == "bad.yaml")
            #expect(error.line != nil && error.column != nil)
            #expect(error.description.hasPrefix("bad.yaml:"))
            #expect(error.message.contains("malformed YAML"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func anUnknownKeyIsNamedWithTheAllowedOnes() {
        #expect(throws: ConfigFileError(file: "t.yaml", line: 2, column: 3, reason: .unknownKey("primray", context: "the palette", expected: Palette.fieldNames))) {
            try ThemeFile.parse("palette:\n  primray: red\n", path: "t.yaml")
        }
        #expect(throws: ConfigFileError.self) { try ThemeFile.parse("colors: {}\n", path: "t.yaml") }
        #expect(throws: ConfigFileError.self) { try ThemeFile.parse("palette:\n  primary: mauve\n", path: "t.yaml") }
        #expect(throws: ConfigFileError.self) { try ThemeFile.parse("styles:\n  json-key: { attrs: [blink] }\n", path: "t.yaml") }
    }

    @Test func aMalformedThemeGivesAProblemAndTheDefaultTheme() throws {
        let directory = try TemporaryDirectory()
        let path = URL(fileURLWithPath: directory.path).appendingPathComponent("broken.yaml").path
        try "palette: [".write(toFile: path, atomically: true, encoding: .utf8)
        let settings = TUISettings.load(themeOption: path, environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(settings.theme.name == "dark")
        #expect(settings.problems.count == 1)
        #expect(settings.problems[0].contains("broken.yaml:2:1: malformed YAML"))
    }

    @Test func anUnknownThemeNameListsTheKnownOnes() throws {
        let directory = try TemporaryDirectory()
        let settings = TUISettings.load(themeOption: "solarized", environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(settings.theme.name == "dark")
        #expect(settings.problems.first?.contains("dark, light, high-contrast, nord, dracula") == true)
    }

    @Test func theConfigFileChoosesAThemeAndUserThemesJoinTheCatalog() throws {
        let directory = try TemporaryDirectory()
        let config = URL(fileURLWithPath: directory.path).appendingPathComponent("tincan")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("themes"), withIntermediateDirectories: true)
        try "theme: ocean\nmouse: false\n".write(to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try "name: ocean\nbase: light\npalette:\n  primary: \"#0000ff\"\n".write(to: config.appendingPathComponent("themes/ocean.yaml"), atomically: true, encoding: .utf8)
        let settings = TUISettings.load(environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(settings.problems.isEmpty)
        #expect(settings.theme.name == "ocean")
        #expect(settings.theme.palette.background == BuiltinThemes.light.palette.background)
        #expect(settings.mouse == false)
        #expect(settings.themes.theme(after: "dracula").name == "ocean")
    }

    @Test func aKeymapFileReplacesTheKeysOfTheActionsItNames() throws {
        let keymap = try TUISettings.parseKeymap("send: [f11, alt+y]\nquit: alt+q\n", path: "keys.yaml")
        #expect(keymap.action(for: KeyEvent(.function(11)), in: ["global"]) == .send)
        #expect(keymap.action(for: .ctrl("r"), in: ["global"]) == nil)
        #expect(keymap.action(for: .alt("q"), in: ["global"]) == .quit)
        #expect(keymap.action(for: KeyEvent(.function(1)), in: ["global"]) == .help)
    }

    @Test func aBadKeymapNamesTheLineAndWhatWasExpected() {
        do {
            _ = try TUISettings.parseKeymap("help: f1\nlaunch: f9\n", path: "keys.yaml")
            Issue.record("an unknown action was accepted")
        } catch let error as ConfigFileError {
            #expect(error.line == 2)
            #expect(error.message.contains("'launch' is not an action"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(throws: ConfigFileError.self) { try TUISettings.parseKeymap("send: ctrl+b\n", path: "keys.yaml") }
        #expect(throws: ConfigFileError.self) { try TUISettings.parseKeymap("send: f1\n", path: "keys.yaml") }
    }

    @Test func theBuiltInKeysAvoidTmuxAndFlowControlAndDoNotClash() throws {
        var keymap = Keymap(KeyBindings.table)
        try keymap.override(with: [], naming: \.rawValue)
        let all = KeyBindings.table.flatMap(\.keys)
        for reserved: KeyEvent in [.ctrl("b"), .ctrl("s"), .ctrl("q"), .ctrl("\\"), .alt("b"), .alt("f")] {
            #expect(!all.contains(reserved), "\(reserved) is bound")
        }
        // Global keys must never be plain printable characters: text fields need them.
        for binding in KeyBindings.table where binding.scope == Scope.global.rawValue {
            #expect(binding.keys.allSatisfy { $0.typedCharacter == nil }, "\(binding.action) takes a typed character")
        }
    }

    @Test func docsKeysMatchesTheKeyTable() throws {
        let path = repositoryRoot.appendingPathComponent("docs/keys.md").path
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        #expect(committed == KeyBindings.markdown(), "docs/keys.md is stale: run `tincan keys > docs/keys.md`")
    }
}
