import TincanCore

/// Acceptable statuses as assertions write them: codes, ranges, and classes such as `2xx`.
public struct StatusSet: Sendable, Equatable {
    public let codes: StatusCodeSet

    /// Parses `200`, `2xx`, `200-299,304` or `[200, 201]` joined with commas, through
    /// ``StatusCodeSet/init(parsing:)``.
    public init(_ text: String) throws {
        codes = try StatusCodeSet(parsing: text)
    }
}
