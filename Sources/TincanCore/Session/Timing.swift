import Foundation
import NIOCore

/// The clock the core waits on and measures by: any `Clock` (a `ContinuousClock` when Tincan
/// runs, a test clock that tests advance), seen as time since the timing was made, with the
/// calendar date that goes with it.
///
/// A session manager's tasks read it for their retry waits, deadlines and metrics, cookie and
/// cache ages, and an OAuth 2.0 token store for expiry and polling, so that a test advances time
/// instead of waiting.
public struct Timing: Sendable {
    /// The time since the timing was made.
    public let now: @Sendable () -> Duration
    /// Waits `duration` (a cancel ends the wait with an error).
    public let sleep: @Sendable (Duration) async throws -> Void
    /// The date now: what cookie expiry and cache freshness are measured against.
    public let date: @Sendable () -> Date
    /// Runs an action on an event loop once a delay has passed: on the loop's own timer for the
    /// real clock (no task and no thread hop, for a timer every request arms), as a task that
    /// sleeps on any other clock, so that a test's clock moves it.
    public let schedule: @Sendable (_ delay: Duration, _ eventLoop: any EventLoop, _ action: @escaping @Sendable () -> Void) -> ScheduledAction

    /// An action ``schedule`` will run, until it is cancelled.
    public struct ScheduledAction: Sendable {
        /// Cancels the action if it has not run.
        public let cancel: @Sendable () -> Void
    }

    /// Timing read from `clock`; its dates count from `epoch` as the clock moves.
    public init<C: Clock>(_ clock: C, epoch: Date = Date()) where C.Duration == Duration {
        let origin = clock.now
        let now: @Sendable () -> Duration = { origin.duration(to: clock.now) }
        self.now = now
        sleep = { try await clock.sleep(for: $0) }
        date = { epoch.addingTimeInterval(now().inSeconds) }
        schedule = { delay, eventLoop, action in
            let waiting = Task {
                do { try await clock.sleep(for: delay) } catch { return }
                eventLoop.execute(action)
            }
            return ScheduledAction { waiting.cancel() }
        }
    }

    /// The real clock, and the system's date (which follows changes of the wall clock).
    public static var continuous: Timing {
        let clock = Timing(ContinuousClock())
        return Timing(now: clock.now, sleep: clock.sleep, date: { Date() }) { delay, eventLoop, action in
            let scheduled = eventLoop.scheduleTask(in: .milliseconds(seconds: delay.inSeconds)) { action() }
            return ScheduledAction { scheduled.cancel() }
        }
    }

    private init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void, date: @escaping @Sendable () -> Date,
                 schedule: @escaping @Sendable (Duration, any EventLoop, @escaping @Sendable () -> Void) -> ScheduledAction) {
        self.now = now
        self.sleep = sleep
        self.date = date
        self.schedule = schedule
    }
}
