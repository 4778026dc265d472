import Foundation
import TincanSessions
import TerminalUI

/// The themes to choose from: the built-ins, then any the user keeps in
/// `$XDG_CONFIG_HOME/tincan/themes/*.yaml` (a user theme with a built-in's name replaces it).
public struct ThemeCatalog: Sendable {
    /// The themes in the order `cycle-theme` visits them.
    public private(set) var themes: [Theme]

    /// Creates a catalog of the built-in themes.
    public init(themes: [Theme] = BuiltinThemes.all) {
        self.themes = themes
    }

    /// The default theme, the first one.
    public var defaultTheme: Theme { themes[0] }

    /// Every theme's name, in order.
    public var names: [String] { themes.map(\.name) }

    /// The theme with a name.
    public func theme(named name: String) -> Theme? {
        themes.first { $0.name == name }
    }

    /// The theme after one, wrapping around.
    public func theme(after name: String) -> Theme {
        let index = themes.firstIndex { $0.name == name } ?? -1
        return themes[(index + 1) % themes.count]
    }

    /// Adds a theme, replacing one of the same name.
    public mutating func add(_ theme: Theme) {
        if let index = themes.firstIndex(where: { $0.name == theme.name }) {
            themes[index] = theme
        } else {
            themes.append(theme)
        }
    }

    /// Loads every `*.yaml` in a directory, in name order.
    ///
    /// - Returns: The errors of the files that did not load; the others are added.
    public mutating func addThemes(inDirectory directory: String) -> [ConfigFileError] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var errors: [ConfigFileError] = []
        for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            do {
                add(try ThemeFile.load(path: (directory as NSString).appendingPathComponent(name), catalog: self))
            } catch let error as ConfigFileError {
                errors.append(error)
            } catch {
                errors.append(ConfigFileError(file: name, line: nil, column: nil, message: "\(error)"))
            }
        }
        return errors
    }
}
