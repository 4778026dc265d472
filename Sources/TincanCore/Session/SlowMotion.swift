import Synchronization

/// A ``StageGate`` stepped by hand: each stage waits until ``step()`` lets it through, as the
/// TUI's slow-motion send does with a key press.
///
/// Waits are real: ``gate`` suspends the task (or the transport's pause) at each stage. A cancel
/// of the waiting task, or ``cancel()``, ends the wait with ``TransportError`` `.cancelled`.
public final class SlowMotion: Sendable {
    private struct Waiter {
        var id: Int
        var stage: SendStage
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// The stops waiting, first come first let through (a response can arrive while the
        /// body still waits: the server answered before reading it).
        var waiters: [Waiter] = []
        var nextID = 0
        /// Waits already ended by their task's cancel, before they stored their continuation.
        var cancelledIDs: Set<Int> = []
        var cancelled = false
        var passed: [SendStage] = []
    }

    private let state = Mutex(State())
    private let onWait: @Sendable (SendStage) -> Void

    /// A stepper.
    ///
    /// - Parameter onWait: Told each stage as the task stops before it (on the waiting task).
    public init(onWait: @escaping @Sendable (SendStage) -> Void = { _ in }) {
        self.onWait = onWait
    }

    /// The gate to put in ``TaskOptions/stageGate``.
    public var gate: StageGate {
        StageGate { [self] stage in try await wait(before: stage) }
    }

    /// The stage the next ``step()`` lets through, or nil when the task is not stopped.
    public var waitingStage: SendStage? { state.withLock { $0.waiters.first?.stage } }

    /// The stages let through so far, in order.
    public var passed: [SendStage] { state.withLock { $0.passed } }

    /// Lets the waiting stage go ahead; returns it, or nil when nothing waited.
    @discardableResult
    public func step() -> SendStage? {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else { return nil }
            let waiter = state.waiters.removeFirst()
            state.passed.append(waiter.stage)
            return waiter
        }
        waiter?.continuation.resume()
        return waiter?.stage
    }

    /// Ends the waiting stage, and every later one at once, with `.cancelled`.
    public func cancel() {
        let waiters = state.withLock { state -> [Waiter] in
            state.cancelled = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: TransportError(.cancelled)) }
    }

    private func wait(before stage: SendStage) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let refused = state.withLock { state -> Bool in
                    if state.cancelled || state.cancelledIDs.remove(id) != nil { return true }
                    state.waiters.append(Waiter(id: id, stage: stage, continuation: continuation))
                    return false
                }
                if refused {
                    continuation.resume(throwing: TransportError(.cancelled))
                } else {
                    onWait(stage)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledIDs.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: TransportError(.cancelled))
        }
    }
}
