
/// A `{{name}}` with no value.
public struct MissingVariableError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name referred to.
    public var name: String
    /// The names that are defined, to spot a typo.
    public var known: [String]
    /// A more specific reason, when there is one.
    public var detail: String?
    /// The variables of a cycle, the first repeated at the end (`a`, `b`, `a`); empty otherwise.
    public var cycle: [String]

    /// Creates an error.
    public init(name: String, known: [String], detail: String? = nil, cycle: [String] = []) {
        self.name = name
        self.known = known
        self.detail = detail
        self.cycle = cycle
    }

    public var description: String {
        if let detail { return "{{\(name)}}: \(detail)" }
        let defined = known.isEmpty ? "no variables are defined" : "defined: \(known.joined(separator: ", "))"
        return "the variable {{\(name)}} is not defined (\(defined)); give it with --var \(name)=VALUE, in variables:, or capture it in an earlier request"
    }
}
