/// Observes every event of every task of a session manager (Alamofire's `EventMonitor`):
/// for logging, metrics, or a test's record.
///
/// A monitor is told each event a task's ``SessionTask/events`` subscribers get, in the same
/// order, progress folded the same way, `.completed` last and before ``SessionTask/result()``
/// returns. It is called on whichever thread emits the event, outside the task's lock (so it
/// may read the task), and should return quickly: the task waits for it.
public protocol EventMonitor: Sendable {
    /// `task` emitted `event`.
    func task(_ task: SessionTask, didEmit event: TaskEvent)
}
