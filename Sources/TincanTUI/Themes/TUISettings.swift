import Foundation
import TincanCore
import TincanSessions
import TerminalUI
import Yams

/// What the TUI starts with: the theme catalog and theme, the keymap, mouse reporting, and the
/// problems found on the way (shown in a dialog, never fatal: a bad file means the defaults).
///
/// Read from `$XDG_CONFIG_HOME/tincan/` (else `~/.config/tincan/`):
/// - `config.yaml`: `theme: nord`, `keymap: path/to/keymap.yaml`, `mouse: false`,
///   `history: false` (record nothing), `history-secrets: true` (keep secrets in the history file);
/// - `keymap.yaml`: action names to keys, replacing the built-in keys of those actions;
/// - `themes/*.yaml`: more themes, chosen by name.
public struct TUISettings: Sendable {
    public var themes = ThemeCatalog()
    public var theme: Theme
    public var keymap = Keymap(KeyBindings.table)
    public var mouse = true
    /// Record sends in the history file (`history: false` turns it off).
    public var history = true
    /// Write secrets to the history file as they are (`history-secrets: true`; hidden by default).
    public var historySecrets = false
    /// Files that could not be used, with where and why.
    public var problems: [String] = []

    /// The directory Tincan's configuration lives in.
    public static func configDirectory(environment: [String: String] = ProcessEnvironment.values) -> String {
        XDGDirectory.config.tincanFolder(environment: environment)
    }

    /// Loads the settings.
    ///
    /// - Parameters:
    ///   - themeOption: `--theme`: a theme name, or the path of a theme file.
    ///   - keymapOption: `--keymap`: the path of a keymap file.
    ///   - environment: Where `XDG_CONFIG_HOME` and `HOME` come from.
    public static func load(themeOption: String? = nil, keymapOption: String? = nil, environment: [String: String] = ProcessEnvironment.values) -> TUISettings {
        var settings = TUISettings(theme: BuiltinThemes.dark)
        let directory = configDirectory(environment: environment)
        settings.problems += settings.themes.addThemes(inDirectory: (directory as NSString).appendingPathComponent("themes")).map(\.description)

        var themeChoice = themeOption
        var keymapPath = keymapOption
        let configPath = (directory as NSString).appendingPathComponent("config.yaml")
        if FileManager.default.fileExists(atPath: configPath) {
            do {
                let file = try ConfigFile.load(path: configPath)
                for (key, _, value) in try file.entries(of: file.root, allowed: ["theme", "keymap", "mouse", "history", "history-secrets"], in: "the config") {
                    switch key {
                    case "theme": if themeChoice == nil { themeChoice = try file.string(value, expected: "a theme name or file") }
                    case "keymap":
                        if keymapPath == nil {
                            let path = (try file.string(value, expected: "a keymap file path") as NSString).expandingTildeInPath
                            keymapPath = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
                        }
                    default:
                        guard let flag = value.scalar.flatMap({ Bool($0.string) }) else { throw file.error(at: value, "expected true or false for \(key)") }
                        switch key {
                        case "mouse": settings.mouse = flag
                        case "history": settings.history = flag
                        default: settings.historySecrets = flag
                        }
                    }
                }
            } catch {
                settings.problems.append("\(error)")
            }
        }
        if keymapPath == nil {
            let standard = (directory as NSString).appendingPathComponent("keymap.yaml")
            if FileManager.default.fileExists(atPath: standard) { keymapPath = standard }
        }

        settings.theme = settings.themes.defaultTheme
        if let themeChoice {
            if let named = settings.themes.theme(named: themeChoice) {
                settings.theme = named
            } else if themeChoice.contains("/") || themeChoice.hasSuffix(".yaml") || themeChoice.hasSuffix(".yml") {
                do {
                    let theme = try ThemeFile.load(path: themeChoice, catalog: settings.themes)
                    settings.themes.add(theme)
                    settings.theme = theme
                } catch {
                    settings.problems.append("\(error) (using the \(settings.theme.name) theme)")
                }
            } else {
                settings.problems.append("there is no theme named '\(themeChoice)'; expected one of: \(settings.themes.themes.map(\.name).joined(separator: ", ")), or a .yaml file (using the \(settings.theme.name) theme)")
            }
        }
        if let keymapPath {
            do {
                settings.keymap = try loadKeymap(path: keymapPath)
            } catch {
                settings.problems.append("\(error) (using the built-in keys)")
            }
        }
        return settings
    }

    /// Reads a keymap file: each action name maps to a key or a list of keys.
    ///
    /// - Throws: ``ConfigFileError`` for malformed YAML, an unknown action, a bad key or a clash.
    public static func loadKeymap(path: String) throws -> Keymap<Action> {
        try keymap(from: ConfigFile.load(path: path))
    }

    /// Parses keymap text; `path` names it in errors.
    public static func parseKeymap(_ text: String, path: String) throws -> Keymap<Action> {
        try keymap(from: ConfigFile.parse(text, path: path))
    }

    private static func keymap(from file: ConfigFile) throws -> Keymap<Action> {
        var overrides: [(action: String, keys: [String])] = []
        for (keyNode, value) in file.root {
            guard let action = keyNode.scalar?.string else { throw file.error(at: keyNode, "expected an action name") }
            var keys: [String] = []
            if let scalar = value.scalar {
                keys = [scalar.string]
            } else if let sequence = value.sequence {
                keys = try sequence.map { try file.string($0, expected: "a key such as ctrl+r") }
            } else {
                throw file.error(at: value, "expected a key or a list of keys for \(action)")
            }
            overrides.append((action, keys))
        }
        var keymap = Keymap(KeyBindings.table)
        do {
            try keymap.override(with: overrides, naming: \.rawValue)
        } catch let error as KeymapError {
            // Point at the action's line when the error names one.
            let node = file.root.first { pair in
                switch error {
                case let .unknownAction(name, _), let .badKey(name, _): pair.key.scalar?.string == name
                case .clash: false
                }
            }?.key
            throw ConfigFileError(file: file.path, line: node?.mark?.line, column: node?.mark?.column, message: error.description)
        }
        return keymap
    }
}
