import Synchronization

/// A value that tasks and callbacks share, behind one `Mutex`: a reference, so escaping and
/// `sending` closures can hold it where a `Mutex` of their own cannot be captured.
public final class SharedState<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Shares `value`.
    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, under the lock.
    public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in body(&value) }
    }

    /// The value now.
    public var value: Value { withLock { $0 } }
}
