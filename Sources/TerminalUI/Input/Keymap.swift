/// One key binding: the keys, the action they run, where they apply and how they are explained.
///
/// The app declares its bindings once, as a table of these. The same table drives dispatch
/// (``Keymap/action(for:in:)``), the footer, the help screen and the generated `docs/keys.md`.
public struct KeyBinding<Action: Hashable & Sendable>: Sendable {
    /// The keys that run the action; the first is the one shown.
    public var keys: [KeyEvent]
    /// What runs.
    public var action: Action
    /// A short label for the footer.
    public var label: String
    /// A sentence for the help screen.
    public var help: String
    /// Where it applies: a scope name, such as "global" or "response".
    public var scope: String
    /// Whether the footer shows it when its scope is active.
    public var inFooter: Bool

    /// Creates a binding.
    public init(_ keys: [KeyEvent], _ action: Action, label: String, help: String, scope: String = "global", inFooter: Bool = false) {
        self.keys = keys
        self.action = action
        self.label = label
        self.help = help
        self.scope = scope
        self.inFooter = inFooter
    }
}

/// A table of key bindings with a user's overrides applied.
public struct Keymap<Action: Hashable & Sendable>: Sendable {
    /// The bindings, in declaration order.
    public private(set) var bindings: [KeyBinding<Action>]

    /// Creates a keymap from the built-in table.
    public init(_ bindings: [KeyBinding<Action>]) {
        self.bindings = bindings
    }

    /// The action a key runs in the active scopes, searched innermost first.
    public func action(for event: KeyEvent, in scopes: [String]) -> Action? {
        for scope in scopes {
            if let binding = bindings.first(where: { $0.scope == scope && $0.keys.contains(event) }) {
                return binding.action
            }
        }
        return nil
    }

    /// The bindings the footer shows for the active scopes, innermost scope first.
    public func footer(in scopes: [String]) -> [KeyBinding<Action>] {
        scopes.flatMap { scope in bindings.filter { $0.scope == scope && $0.inFooter && !$0.keys.isEmpty } }
    }

    /// The binding for an action.
    public func binding(for action: Action) -> KeyBinding<Action>? {
        bindings.first { $0.action == action }
    }

    /// Replaces the keys of the actions a user's keymap names.
    ///
    /// - Parameter overrides: action name to key specs, in the file's order.
    /// - Parameter name: How an action is named in the file.
    /// - Throws: ``KeymapError`` for an unknown action, a key that does not parse, or a key bound
    ///   twice in one scope.
    public mutating func override(with overrides: [(action: String, keys: [String])], naming name: (Action) -> String) throws {
        for (actionName, specs) in overrides {
            guard let index = bindings.firstIndex(where: { name($0.action) == actionName }) else {
                let known = bindings.map { name($0.action) }.joined(separator: ", ")
                throw KeymapError.unknownAction(actionName, known: known)
            }
            do {
                bindings[index].keys = try specs.map(KeyEvent.init(parsing:))
            } catch let error as KeySpecError {
                throw KeymapError.badKey(action: actionName, error)
            }
        }
        for binding in bindings {
            for key in binding.keys {
                if let other = bindings.first(where: { $0.scope == binding.scope && $0.action != binding.action && $0.keys.contains(key) }) {
                    throw KeymapError.clash(key: key.description, first: name(binding.action), second: name(other.action), scope: binding.scope)
                }
            }
        }
    }
}

/// Why a user's keymap was refused.
public enum KeymapError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownAction(String, known: String)
    case badKey(action: String, KeySpecError)
    case clash(key: String, first: String, second: String, scope: String)

    public var description: String {
        switch self {
        case let .unknownAction(action, known): "'\(action)' is not an action; expected one of: \(known)"
        case let .badKey(action, error): "\(action): \(error)"
        case let .clash(key, first, second, scope): "\(key) is bound to both \(first) and \(second) in scope \(scope)"
        }
    }
}
