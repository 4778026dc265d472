
/// A curl command line that could not be imported, and why.
public struct InterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
