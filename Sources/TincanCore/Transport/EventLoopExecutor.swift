import NIOCore

/// A task executor on one event loop: Swift code that prefers it runs on the loop's own thread.
///
/// A caller that sends one request after another (`tincan replay`, `tincan send`) and runs on
/// the transport's loop never hands a response from the network thread to another thread and
/// back: on two cores each such hop is a wake-up and a context switch, per request.
public final class EventLoopExecutor: TaskExecutor {
    /// The loop jobs run on.
    public let eventLoop: any EventLoop

    /// Creates an executor that runs its jobs on `eventLoop`.
    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
