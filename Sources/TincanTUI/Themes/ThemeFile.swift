import Foundation
import TincanSessions
import TerminalUI
import Yams

/// Theme files: YAML that lists only what it changes, merged over a base theme.
///
/// ```yaml
/// name: ocean          # the name --theme and the config file choose it by
/// base: dark           # optional: the built-in (or earlier) theme to start from
/// palette:
///   primary: "#88c0d0"
/// styles:
///   json-key: { fg: accent, bold: true }
///   footer-key: { fg: background, bg: "#ff8800", attrs: [bold, underline] }
/// ```
public enum ThemeFile {
    /// Loads a theme file over its base (the catalog's default when it names none).
    ///
    /// - Throws: ``ConfigFileError`` naming the file, line and column, and what was expected.
    public static func load(path: String, catalog: ThemeCatalog = ThemeCatalog()) throws -> Theme {
        try read(ConfigFile.load(path: path), catalog: catalog)
    }

    /// Parses theme text; `path` is used in errors and for the default name.
    public static func parse(_ text: String, path: String, catalog: ThemeCatalog = ThemeCatalog()) throws -> Theme {
        try read(ConfigFile.parse(text, path: path), catalog: catalog)
    }

    private static func read(_ file: ConfigFile, catalog: ThemeCatalog) throws -> Theme {
        var partial = PartialTheme(name: ((file.path as NSString).lastPathComponent as NSString).deletingPathExtension)
        var base = catalog.defaultTheme
        for (key, _, value) in try file.entries(of: file.root, allowed: ["name", "base", "palette", "styles"], in: "a theme") {
            switch key {
            case "name":
                partial.name = try file.string(value, expected: "a theme name")
            case "base":
                let name = try file.string(value, expected: "the name of a theme to start from")
                guard let found = catalog.theme(named: name) else {
                    throw file.error(at: value, "unknown base theme '\(name)'; expected one of: \(catalog.themes.map(\.name).joined(separator: ", "))")
                }
                base = found
            case "palette":
                guard let mapping = value.mapping else { throw file.error(at: value, "expected a mapping of palette colours") }
                for (name, _, colorNode) in try file.entries(of: mapping, allowed: Palette.fieldNames, in: "the palette") {
                    partial.palette[name] = try color(colorNode, in: file)
                }
            case "styles":
                guard let mapping = value.mapping else { throw file.error(at: value, "expected a mapping of element styles") }
                for (name, _, styleNode) in try file.entries(of: mapping, allowed: ThemeElement.allCases.map(\.rawValue), in: "the styles") {
                    partial.styles[ThemeElement(rawValue: name)!] = try styleSpec(styleNode, in: file)
                }
            default:
                break
            }
        }
        return base.merging(partial)
    }

    private static func color(_ node: Node, in file: ConfigFile) throws -> Color {
        let text = try file.string(node, expected: "a colour")
        guard let color = Color(parsing: text) else {
            throw file.error(at: node, "'\(text)' is not a colour; expected #rrggbb, #rgb, 0-255, default, or a name such as red or bright-blue")
        }
        return color
    }

    private static func styleSpec(_ node: Node, in file: ConfigFile) throws -> StyleSpec {
        guard let mapping = node.mapping else { throw file.error(at: node, "expected a style such as { fg: primary, bold: true }") }
        var spec = StyleSpec()
        var attributes: TextAttributes?
        let flags = TextAttributes.names.keys.sorted()
        for (key, _, value) in try file.entries(of: mapping, allowed: ["fg", "bg", "attrs"] + flags, in: "a style") {
            switch key {
            case "fg", "bg":
                let text = try file.string(value, expected: "a colour or palette name")
                let reference: StyleSpec.ColorRef
                if Palette.fieldNames.contains(text) {
                    reference = .palette(text)
                } else if let color = Color(parsing: text) {
                    reference = .color(color)
                } else {
                    throw file.error(at: value, "'\(text)' is neither a palette name (\(Palette.fieldNames.joined(separator: ", "))) nor a colour")
                }
                if key == "fg" { spec.foreground = reference } else { spec.background = reference }
            case "attrs":
                guard let sequence = value.sequence else { throw file.error(at: value, "expected a list of attributes such as [bold, underline]") }
                var set = attributes ?? []
                for item in sequence {
                    let name = try file.string(item, expected: "an attribute")
                    guard let attribute = TextAttributes.names[name] else {
                        throw file.error(at: item, "unknown attribute '\(name)'; expected one of: \(flags.joined(separator: ", "))")
                    }
                    set.insert(attribute)
                }
                attributes = set
            default:
                guard let flag = value.scalar.flatMap({ Bool($0.string) }) else { throw file.error(at: value, "expected true or false for \(key)") }
                var set = attributes ?? []
                if flag { set.insert(TextAttributes.names[key]!) } else { set.remove(TextAttributes.names[key]!) }
                attributes = set
            }
        }
        spec.attributes = attributes
        return spec
    }
}
