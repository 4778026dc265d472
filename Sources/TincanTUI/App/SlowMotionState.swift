import TincanCore

/// A slow-motion send as the TUI shows it: the stage it stops before now, the stages passed,
/// and the task delegate's callbacks as they fired (issue 20 §4).
///
/// `build` and `serialize` are the TUI's own steps (the saved request resolved into a
/// `RequestDraft`, then built into an `HTTPRequest`); from `connect` on, the core's
/// ``SlowMotion`` gate stops the real task, and the runner reports each stop.
public struct SlowMotionState: Sendable, Equatable {
    /// Where the send is.
    public enum Phase: Sendable, Equatable {
        /// Stopped before one of the TUI's own stages (build, serialize).
        case frontEnd
        /// The task runs, as exchange `id`.
        case sending(exchange: Int)
        /// The task completed (or was cancelled); the next key shows the response.
        case finished
    }

    public var phase = Phase.frontEnd
    /// The stage the send stops before now, or nil while it runs between stops.
    public var waiting: SendStage? = .build
    /// The stages let through so far, in order.
    public var passed: [SendStage] = []
    /// The delegate callbacks that fired, with their time in seconds since the send started.
    public var callbacks: [Callback] = []

    /// One callback as it fired.
    public struct Callback: Sendable, Equatable {
        public var at: Double
        public var name: String
        /// What it carried, in a few words (`200 OK`, `512 B of 2 KiB`).
        public var detail: String
    }

    /// The most callbacks kept: progress callbacks of a long transfer are many.
    static let callbackLimit = 200

    /// Whether `stage` is passed, current, or still to come. A stage with no stop of its own
    /// (the request head, which goes with connect; a bodiless request's body, which goes with its
    /// head; a bodiless response's body) is passed once a later stage is reached.
    func mark(of stage: SendStage) -> Mark {
        if waiting == stage { return .current }
        if passed.contains(stage) { return .passed }
        let reached = passed + (waiting.map { [$0] } ?? [])
        if reached.contains(where: { $0 > stage }) || phase == .finished && reached.contains(.connect) { return .passed }
        return .ahead
    }

    enum Mark { case passed, current, ahead }

    /// Adds a callback, dropping the oldest progress one past the limit.
    mutating func note(_ callback: Callback) {
        callbacks.append(callback)
        if callbacks.count > Self.callbackLimit { callbacks.removeFirst(callbacks.count - Self.callbackLimit) }
    }
}
