/// A `{{name}}` that has no value.
public struct MissingVariableError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the name has no value.
    public enum Reason: Sendable, Equatable {
        /// No variable, capture or built-in has the name; `known` are the names that do, to spot a typo.
        case undefined(known: [String])
        /// The variables refer to one another in a cycle: its names, the first repeated at the
        /// end (`a`, `b`, `a`).
        case cycle([String])
        /// `{{$env.NAME}}` names an environment variable that is not set.
        case environmentVariableNotSet(String)
        /// Expanding it follows more than ``Template/expansionLimit`` references.
        case tooManyReferences
        /// `{{$timestamp}}` was not read, because the request was being built ahead of its turn.
        case clockNotRead
        /// A `{{$demo…}}` address names a demo server this command did not start (a TLS one
        /// typed into the TUI, which started only the plain one).
        case demoServerNotStarted
        /// `{{file:NAME}}` stands for a file an imported collection named outside its folder,
        /// and nobody has said which file to use (``ImportedPaths``).
        case fileNotChosen
    }

    /// The name referred to (for a cycle, the variable that repeats; for too many references,
    /// the outermost one).
    public var name: String
    /// Why it has no value.
    public var reason: Reason

    /// Creates an error.
    public init(name: String, _ reason: Reason) {
        self.name = name
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .undefined(let known):
            let defined = known.isEmpty ? "no variables are defined" : "defined: \(known.joined(separator: ", "))"
            return "the variable {{\(name)}} is not defined (\(defined)); give it with --var \(name)=VALUE, in variables:, or capture it in an earlier request"
        case .cycle(let names):
            return "{{\(name)}}: the variables refer to one another in a cycle: \(names.joined(separator: " → "))"
        case .environmentVariableNotSet(let key):
            return "{{\(name)}}: the environment variable \(key) is not set"
        case .clockNotRead:
            return "{{\(name)}}: the time is read only when the request's turn comes"
        case .demoServerNotStarted:
            return "{{\(name)}}: no demo server runs for it here; the TUI, replay and learn start Tincan's demo servers when the session file they open uses them"
        case .fileNotChosen:
            return "{{\(name)}} stands for a file that an import named outside the folder it came from, which Tincan does not read or write unless you say so; set it to the file: --var '\(name)=PATH', or \(name): PATH under variables:"
        case .tooManyReferences:
            return "{{\(name)}}: expanding it follows more than \(Template.expansionLimit) references; do its variables refer to one another many times over?"
        }
    }
}
