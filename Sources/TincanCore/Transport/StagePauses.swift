import NIOCore
import Synchronization

/// One request's stops at a ``StageGate``, as event-loop futures AsyncHTTPClient waits on.
///
/// Made only for a request that has a gate, so a request without one takes none of this path.
/// While a stop waits, ``isPaused`` holds the idle timer; ``end()`` (the request cancelled or
/// over) cancels the waits, which then fail their futures with `.cancelled`.
final class StagePauses: Sendable {
    private struct State {
        var waits: [Task<Void, Never>] = []
        var paused = 0
        var ended = false
        /// When the last stop was let through, on the request's timing: idle time counts from there.
        var resumedAt: Duration?
    }

    private let gate: StageGate
    private let eventLoop: any EventLoop
    private let timing: Timing
    private let state = Mutex(State())

    init(gate: StageGate, eventLoop: any EventLoop, timing: Timing) {
        self.gate = gate
        self.eventLoop = eventLoop
        self.timing = timing
    }

    /// A future that succeeds when the gate lets `stage` go ahead, and fails with `.cancelled`
    /// when it refuses or the request ends first.
    func pause(before stage: SendStage) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        // Counted as paused before the gate hears of the stop: whoever it tells (a test moving
        // the clock, a person waiting) finds the idle timer held.
        let endedBefore = state.withLock { state in
            if !state.ended { state.paused += 1 }
            return state.ended
        }
        if endedBefore {
            promise.fail(TransportError(.cancelled))
            return promise.futureResult
        }
        let wait = Task { [gate] in
            do {
                try await gate.wait(before: stage)
                promise.succeed(())
            } catch {
                promise.fail(error)
            }
        }
        let endedMeanwhile = state.withLock { state in
            if !state.ended { state.waits.append(wait) }
            return state.ended
        }
        if endedMeanwhile { wait.cancel() }
        return promise.futureResult.always { _ in
            let now = self.timing.now()
            self.state.withLock { state in
                state.paused -= 1
                state.resumedAt = now
            }
        }
    }

    /// Whether a stop waits now.
    var isPaused: Bool { state.withLock { $0.paused > 0 } }

    /// When the last stop was let through, or nil before the first.
    var resumedAt: Duration? { state.withLock { $0.resumedAt } }

    /// The request is cancelled or over: every wait ends, and later ones end at once.
    func end() {
        let waits = state.withLock { state in
            state.ended = true
            defer { state.waits = [] }
            return state.waits
        }
        for wait in waits { wait.cancel() }
    }
}
