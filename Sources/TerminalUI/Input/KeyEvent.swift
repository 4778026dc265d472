import Foundation

/// A key, without modifiers.
public enum Key: Sendable, Hashable {
    /// A printable character (lower case for letters pressed with Control).
    case character(Character)
    case enter, tab, backspace, delete, insert, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// A function key, F1–F24.
    case function(Int)
}

/// Modifier keys held with a key.
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let control = KeyModifiers(rawValue: 1 << 0)
    public static let alt = KeyModifiers(rawValue: 1 << 1)
    public static let shift = KeyModifiers(rawValue: 1 << 2)
}

/// A key press: a key and the modifiers held with it.
///
/// Its text form is the one keymap files and the help screen use: `ctrl+r`, `alt+f`,
/// `shift+tab`, `f1`, `enter`, `pgdn`, `?`, `space`.
public struct KeyEvent: Sendable, Hashable, CustomStringConvertible {
    public var key: Key
    public var modifiers: KeyModifiers

    /// Creates a key press.
    public init(_ key: Key, _ modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A printable character with no modifiers.
    public static func char(_ character: Character) -> KeyEvent { KeyEvent(.character(character)) }
    /// A letter with Control.
    public static func ctrl(_ character: Character) -> KeyEvent { KeyEvent(.character(character), .control) }
    /// A character with Alt (Meta).
    public static func alt(_ character: Character) -> KeyEvent { KeyEvent(.character(character), .alt) }

    /// The printable character this press types, if it types one.
    public var typedCharacter: Character? {
        guard case let .character(character) = key, modifiers.subtracting(.shift).isEmpty else { return nil }
        return character
    }

    private static let namedKeys: [(String, Key)] = [
        ("enter", .enter), ("tab", .tab), ("backspace", .backspace), ("delete", .delete),
        ("insert", .insert), ("esc", .escape), ("up", .up), ("down", .down), ("left", .left),
        ("right", .right), ("home", .home), ("end", .end), ("pgup", .pageUp), ("pgdn", .pageDown),
        ("space", .character(" ")),
    ]
    private static let aliases: [String: Key] = [
        "return": .enter, "escape": .escape, "del": .delete, "ins": .insert,
        "pageup": .pageUp, "pagedown": .pageDown, "bs": .backspace,
    ]

    public var description: String {
        var parts: [String] = []
        if modifiers.contains(.control) { parts.append("ctrl") }
        if modifiers.contains(.alt) { parts.append("alt") }
        if modifiers.contains(.shift) { parts.append("shift") }
        switch key {
        case let .function(number): parts.append("f\(number)")
        case let .character(character):
            parts.append(Self.namedKeys.first { $0.1 == key }?.0 ?? String(character))
        default:
            parts.append(Self.namedKeys.first { $0.1 == key }?.0 ?? "?")
        }
        return parts.joined(separator: "+")
    }

    /// Parses the text form (`ctrl+r`, `f5`, `shift+tab`, `?`, `alt+enter`).
    ///
    /// - Throws: ``KeySpecError`` naming what was not understood.
    public init(parsing spec: String) throws {
        let trimmed = spec.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw KeySpecError(spec: spec, reason: "it is empty") }
        var parts = trimmed.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        if trimmed.hasSuffix("++") || trimmed == "+" {
            parts = Array(parts.dropLast(2)) + ["+"]
        }
        let last = parts.removeLast()
        var modifiers: KeyModifiers = []
        for part in parts {
            switch part.lowercased() {
            case "ctrl", "control", "c": modifiers.insert(.control)
            case "alt", "meta", "m", "option": modifiers.insert(.alt)
            case "shift", "s": modifiers.insert(.shift)
            default: throw KeySpecError(spec: spec, reason: "'\(part)' is not a modifier (expected ctrl, alt or shift)")
            }
        }
        let name = last.lowercased()
        let key: Key
        if let named = Self.namedKeys.first(where: { $0.0 == name })?.1 ?? Self.aliases[name] {
            key = named
        } else if name.count > 1, name.hasPrefix("f"), let number = Int(name.dropFirst()), (1...24).contains(number) {
            key = .function(number)
        } else if last.count == 1, let character = last.first {
            key = .character(modifiers.contains(.control) ? Character(character.lowercased()) : character)
        } else {
            throw KeySpecError(spec: spec, reason: "'\(last)' is not a key (expected one character, f1–f24, or one of \(Self.namedKeys.map(\.0).joined(separator: ", ")))")
        }
        if modifiers.contains(.control), key == .character("b") {
            throw KeySpecError(spec: spec, reason: "ctrl+b is tmux's prefix key and cannot be bound")
        }
        self.init(key, modifiers)
    }
}

/// A key written in a keymap file that could not be read.
public struct KeySpecError: Error, Sendable, CustomStringConvertible, Equatable {
    public var spec: String
    public var reason: String
    public var description: String { "'\(spec)' is not a key: \(reason)" }
}

/// A mouse action at a cell.
public struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    public enum Action: Sendable, Hashable {
        case press(button: Int)
        case release
        case wheelUp
        case wheelDown
    }

    public var action: Action
    public var x: Int
    public var y: Int

    /// Creates a mouse event.
    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}

/// Something the terminal reported.
public enum InputEvent: Sendable, Hashable {
    case key(KeyEvent)
    /// Text pasted with bracketed paste: inserted as typed text, never run as key bindings.
    case paste(String)
    case mouse(MouseEvent)
    /// The terminal has a new size.
    case resize(width: Int, height: Int)
}
