
/// A session that cannot run as asked (an unknown environment, a policy that does not apply).
public struct SessionError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
