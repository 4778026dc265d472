/// The clock the core waits on and measures by: any `Clock` (a `ContinuousClock` when Tincan
/// runs, a test clock that tests advance), seen as time since the timing was made.
///
/// A session manager's tasks read it for their retry waits, deadlines and metrics, and an OAuth
/// 2.0 token store for expiry and polling, so that a test advances time instead of waiting.
public struct Timing: Sendable {
    /// The time since the timing was made.
    public let now: @Sendable () -> Duration
    /// Waits `duration` (a cancel ends the wait with an error).
    public let sleep: @Sendable (Duration) async throws -> Void

    /// Timing read from `clock`.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
    }

    /// The real clock.
    public static var continuous: Timing { Timing(ContinuousClock()) }
}

