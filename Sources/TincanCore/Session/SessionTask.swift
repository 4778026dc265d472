import Foundation
import Synchronization

/// A step in a task's life, as its event stream reports it (the TUI shows these as a timeline).
public enum TaskEvent: Sendable {
    case resumed
    case requestSent(HTTPRequest)
    case uploadProgress(TransferProgress)
    case responseHead(HTTPResponse)
    case downloadProgress(TransferProgress)
    case redirected(Redirect)
    /// The request is sent again: after an authentication challenge, or a status or error the
    /// task's ``RetryPolicy`` retries (this event comes before the wait, its delay included).
    case retried(RetryReason)
    /// The response cache answered, was asked to revalidate, or stored the response.
    case cache(CacheOutcome)
    /// The final response's body has arrived whole, and the response serializer validates and
    /// decodes it next: the task's result so far, without its serialization. Posted for a body
    /// of more than ``TaskEvent/earlyBodyBytes``, so that a view can lay a large body out while
    /// it is decoded (50 MB of JSON takes half a second to decode).
    case bodyReceived(TaskResult)
    case completed(TaskResult)

    /// The body size past which ``bodyReceived(_:)`` is posted: 1 MiB, where decoding starts to
    /// take longer than a frame.
    public static let earlyBodyBytes = 1 << 20

    /// Whether this event is a milestone (kept in the timeline) rather than progress.
    var isMilestone: Bool {
        switch self {
        case .uploadProgress, .downloadProgress: false
        default: true
        }
    }
}

/// One redirect hop.
public struct Redirect: Sendable, Hashable {
    /// The status that redirected (301, 302, 303, 307, 308).
    public var statusCode: Int
    /// Where the request went.
    public var from: URLReference
    /// Where it goes next.
    public var to: URLReference
    /// The method of the next request (303, and 301/302 after POST, switch to GET).
    public var method: String
    /// The redirecting response's `Set-Cookie` values, for checks on the cookies an exchange set.
    public var setCookies: [String] = []
}

/// Timings of a task, measured from when it was resumed.
public struct TaskMetrics: Sendable, Hashable {
    /// Until the request head was written: DNS, TCP and TLS on a new connection, about nothing on a reused one.
    public var connect: Duration?
    /// Until the first response byte (the head) arrived.
    public var firstByte: Duration?
    /// Until the task completed.
    public var total: Duration = .zero
    /// How many requests were sent (more than one after redirects and challenges).
    public var requestCount = 0

    /// Creates metrics.
    public init(connect: Duration? = nil, firstByte: Duration? = nil, total: Duration = .zero, requestCount: Int = 0) {
        self.connect = connect
        self.firstByte = firstByte
        self.total = total
        self.requestCount = requestCount
    }
}

/// What a download task did with its file.
public struct DownloadResult: Sendable, Hashable {
    /// The destination; it holds the whole body when the download completed.
    public var path: String
    /// Where the bytes are kept until the download completes, and stay when it fails, for `--continue`.
    public var partialPath: String
    /// Whether the destination now holds the complete body.
    public var completed: Bool
    /// Bytes written by this task.
    public var bytesWritten: Int64
    /// The offset the download resumed from (a 206), or nil when it started from the first byte.
    public var resumedFrom: Int64?
    /// Whether a resume was asked for but the server sent the whole body again (a 200), so it restarted.
    public var restarted: Bool
    /// Whether the partial file was already whole (the server answered 416 for the range after it).
    public var alreadyComplete: Bool
}

/// What a task ended with.
public struct TaskResult: Sendable {
    /// The last request sent (after redirects).
    public var request: HTTPRequest
    /// The last response, or nil when none arrived.
    public var response: HTTPResponse?
    /// The body received (for a download, only an error body; the rest went to the file).
    public var data: [UInt8]
    /// The redirects followed, in order.
    public var redirects: [Redirect]
    /// The transport failure, if the request failed below HTTP.
    public var transportError: TransportError?
    /// The response serializer's verdict, when a response arrived.
    public var serialization: ResponseSerialization?
    /// Timings.
    public var metrics: TaskMetrics
    /// What the response cache did, or nil when it took no part.
    public var cache: CacheOutcome?
    /// What a download task did with its file; nil for other tasks.
    public var download: DownloadResult?
    /// Why the request was sent again, each time, in order.
    public var retries: [RetryReason] = []
    /// Why the last response or error was not retried although a retrier could have retried it
    /// (its limit was reached, the body cannot be sent again, the wait would pass the deadline).
    public var retryNote: String?
    /// What decided to trust the server's certificate, when the last response came over TLS
    /// (https); nil for plain http or when no response arrived.
    public var trustedBy: TrustBasis?
    /// What was kept of a body streamed as it arrived (``TaskOptions/stream``): the count and
    /// the first and last events; nil when the body was not streamed.
    public var stream: StreamSummary?
    /// The OAuth 2.0 token requests this task made before (or, after a 401, between) its
    /// requests, and why; empty when the token was cached or the task names no grant.
    public var tokenRequests: [OAuth2TokenRecord] = []

    /// Whether the cache answered without asking the server.
    public var cameFromCache: Bool {
        if case .hit? = cache { return true }
        return false
    }

    /// Creates a result (the core makes them; saved sessions and tests replay recorded ones).
    public init(request: HTTPRequest, response: HTTPResponse? = nil, data: [UInt8] = [], redirects: [Redirect] = [],
         transportError: TransportError? = nil, serialization: ResponseSerialization? = nil, metrics: TaskMetrics = TaskMetrics(),
         cache: CacheOutcome? = nil, download: DownloadResult? = nil) {
        self.request = request
        self.response = response
        self.data = data
        self.redirects = redirects
        self.transportError = transportError
        self.serialization = serialization
        self.metrics = metrics
        self.cache = cache
        self.download = download
    }
}

/// A task: one request, its redirects and retries, and the response (AFNetworking's task plus
/// its per-task delegate, which holds the data, the progress and the completion).
public final class SessionTask: Sendable {
    /// A task's state (Alamofire's `Request.State`).
    public enum State: Sendable, Equatable {
        case suspended, running, canceling, completed

        /// Whether a task in this state may move to `next`.
        public func canTransition(to next: State) -> Bool {
            switch (self, next) {
            case (.suspended, .running), (.suspended, .canceling), (.running, .canceling), (.running, .completed), (.canceling, .completed):
                true
            default:
                false
            }
        }
    }

    /// What the task does with the response body.
    public enum Kind: Sendable, Equatable {
        /// Keeps it in memory.
        case data
        /// Sends a body from memory or a file, and keeps the response in memory.
        case upload
        /// Streams it to a file; `resuming` continues an earlier partial download.
        case download(path: String, resuming: Bool)
    }

    /// Progress events closer together than this are folded into the next one; the first and
    /// the last of each transfer always go out.
    static let progressInterval: Duration = .milliseconds(50)

    /// An event and when the task emitted it, on its session manager's ``Timing``: a timeline
    /// drawn from these agrees with itself, however late its reader got each event.
    public struct TimedEvent: Sendable {
        public var event: TaskEvent
        /// The time since the timing was made.
        public var at: Duration
    }

    /// A subscriber's stream, with or without the times.
    private enum Subscriber {
        case plain(AsyncStream<TaskEvent>.Continuation)
        case timed(AsyncStream<TimedEvent>.Continuation)

        func yield(_ event: TaskEvent, at instant: Duration) {
            switch self {
            case .plain(let continuation): continuation.yield(event)
            case .timed(let continuation): continuation.yield(TimedEvent(event: event, at: instant))
            }
        }

        func finish() {
            switch self {
            case .plain(let continuation): continuation.finish()
            case .timed(let continuation): continuation.finish()
            }
        }
    }

    private struct Inner {
        var state = State.suspended
        var uploadProgress = TransferProgress()
        var downloadProgress = TransferProgress()
        var runner: Task<Void, Never>?
        var result: TaskResult?
        var waiters: [CheckedContinuation<TaskResult, Never>] = []
        var timeline: [TimedEvent] = []
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var lastUploadEvent: Duration?
        var lastDownloadEvent: Duration?
        var uploadPending = false
        var downloadPending = false
    }

    /// The identifier, unique within the session manager.
    public let identifier: Int
    /// The request as first built.
    public let originalRequest: HTTPRequest
    /// What the task does with the response body.
    public let kind: Kind

    private let inner = Mutex(Inner())
    private let work: @Sendable (SessionTask) async -> TaskResult
    /// Told, on the ending thread, that the task ended: before its waiters resume.
    private let ended: @Sendable () -> Void
    /// Where the work runs, or nil for Swift's shared pool.
    private let executor: (any TaskExecutor)?
    /// The session's event monitors, told every event subscribers get.
    private let monitors: [any EventMonitor]
    /// The session manager's clock, that events are stamped with and progress is folded by.
    private let now: @Sendable () -> Duration

    init(
        identifier: Int,
        request: HTTPRequest,
        kind: Kind,
        executor: (any TaskExecutor)? = nil,
        monitors: [any EventMonitor] = [],
        now: @escaping @Sendable () -> Duration = Timing.continuous.now,
        ended: @escaping @Sendable () -> Void = {},
        work: @escaping @Sendable (SessionTask) async -> TaskResult
    ) {
        self.now = now
        self.identifier = identifier
        self.originalRequest = request
        self.kind = kind
        self.executor = executor
        self.monitors = monitors
        self.ended = ended
        self.work = work
    }

    /// The state now.
    public var state: State { inner.withLock { $0.state } }
    /// Upload progress: bytes sent of the body's length.
    public var uploadProgress: TransferProgress { inner.withLock { $0.uploadProgress } }
    /// Download progress: bytes received of Content-Length (indeterminate without one).
    public var downloadProgress: TransferProgress { inner.withLock { $0.downloadProgress } }
    /// The milestones so far (every event but progress), in order.
    public var timeline: [TaskEvent] { inner.withLock { $0.timeline.map(\.event) } }

    /// A new stream of this task's events: the milestones so far, then every event as it happens,
    /// ending after `.completed`. Each access subscribes anew; nothing is kept for a caller that
    /// never subscribes, and progress is folded to at most one event per 50 ms.
    public var events: AsyncStream<TaskEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TaskEvent.self, bufferingPolicy: .unbounded)
        subscribe(.plain(continuation)) { continuation.onTermination = $0 }
        return stream
    }

    /// ``events`` with the time each was emitted.
    public var timedEvents: AsyncStream<TimedEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TimedEvent.self, bufferingPolicy: .unbounded)
        subscribe(.timed(continuation)) { continuation.onTermination = $0 }
        return stream
    }

    /// Replays the timeline to a new subscriber and keeps it until the task completes (or it
    /// stops listening, which `onTermination` learns).
    private func subscribe(_ subscriber: Subscriber, onTermination: (@escaping @Sendable (Any) -> Void) -> Void) {
        let key = inner.withLock { inner -> Int? in
            for timed in inner.timeline { subscriber.yield(timed.event, at: timed.at) }
            guard inner.result == nil else { return nil }
            defer { inner.nextSubscriber += 1 }
            inner.subscribers[inner.nextSubscriber] = subscriber
            return inner.nextSubscriber
        }
        if let key {
            onTermination { [weak self] _ in
                _ = self?.inner.withLock { $0.subscribers.removeValue(forKey: key) }
            }
        } else {
            subscriber.finish()
        }
    }

    /// Starts the task; does nothing unless it is suspended.
    public func resume() {
        let started = inner.withLock { inner -> Bool in
            guard inner.state.canTransition(to: .running) else { return false }
            inner.state = .running
            return true
        }
        guard started else { return }
        emit(.resumed)
        // The work starts, and its runner is stored, in one step with the check that no cancel
        // came first (a monitor told of `.resumed` may have cancelled): a cancel then either
        // finds the runner to cancel, or finds none and ends the task before any work starts.
        inner.withLock { inner in
            guard inner.state == .running else { return }
            inner.runner = Task(executorPreference: executor) { [self] in
                let result = await work(self)
                finish(result)
            }
        }
    }

    /// Cancels the task; it completes with a cancelled transport error.
    public func cancel() {
        let runner = inner.withLock { inner -> Task<Void, Never>? in
            guard inner.state.canTransition(to: .canceling) else { return nil }
            let wasSuspended = inner.state == .suspended
            inner.state = .canceling
            return wasSuspended ? nil : inner.runner
        }
        if let runner {
            runner.cancel()
        } else if state == .canceling {
            finish(TaskResult(request: originalRequest, transportError: TransportError(.cancelled)))
        }
    }

    /// Waits for the task to complete and returns its result.
    public func result() async -> TaskResult {
        await withCheckedContinuation { waiter in
            let done = inner.withLock { inner -> TaskResult? in
                if let result = inner.result { return result }
                inner.waiters.append(waiter)
                return nil
            }
            if let done { waiter.resume(returning: done) }
        }
    }

    func emit(_ event: TaskEvent) {
        let now = now()
        let delivered = inner.withLock { inner -> Bool in
            switch event {
            case .uploadProgress(let progress):
                inner.uploadProgress = progress
                guard Self.due(progress, last: &inner.lastUploadEvent, now: now) else { inner.uploadPending = true; return false }
                inner.uploadPending = false
            case .downloadProgress(let progress):
                inner.downloadProgress = progress
                guard Self.due(progress, last: &inner.lastDownloadEvent, now: now) else { inner.downloadPending = true; return false }
                inner.downloadPending = false
            default:
                inner.timeline.append(TimedEvent(event: event, at: now))
            }
            // Yielding under the lock keeps every subscriber's order the order of emission.
            for subscriber in inner.subscribers.values { subscriber.yield(event, at: now) }
            return true
        }
        if delivered, !monitors.isEmpty { notifyMonitors([event]) }
    }

    /// Tells the monitors, outside the lock, so that a monitor may read the task.
    private func notifyMonitors(_ events: [TaskEvent]) {
        guard !monitors.isEmpty else { return }
        for monitor in monitors {
            for event in events { monitor.task(self, didEmit: event) }
        }
    }

    /// Whether a progress event is due: the first, the last, or 50 ms after the one before.
    private static func due(_ progress: TransferProgress, last: inout Duration?, now: Duration) -> Bool {
        let isLast = progress.expected.map { progress.completed >= $0 } ?? false
        guard isLast || last.map({ now - $0 >= progressInterval }) ?? true else { return false }
        last = now
        return true
    }

    var isCancelled: Bool { inner.withLock { $0.state == .canceling } }

    private func finish(_ result: TaskResult) {
        let now = now()
        let finished = inner.withLock { inner -> (waiters: [CheckedContinuation<TaskResult, Never>], subscribers: [Subscriber], closing: [TaskEvent])? in
            guard inner.result == nil else { return nil }
            // The progress folded away last goes out before the end, so a bar always reaches its final value.
            var closing: [TaskEvent] = []
            if inner.uploadPending { closing.append(.uploadProgress(inner.uploadProgress)) }
            if inner.downloadPending { closing.append(.downloadProgress(inner.downloadProgress)) }
            closing.append(.completed(result))
            inner.timeline.append(TimedEvent(event: .completed(result), at: now))
            for subscriber in inner.subscribers.values {
                for event in closing { subscriber.yield(event, at: now) }
            }
            inner.state = .completed
            inner.result = result
            defer {
                inner.waiters = []
                inner.subscribers = [:]
            }
            return (inner.waiters, Array(inner.subscribers.values), closing)
        }
        guard let finished else { return }
        ended()
        notifyMonitors(finished.closing)
        for subscriber in finished.subscribers { subscriber.finish() }
        for waiter in finished.waiters { waiter.resume(returning: result) }
    }
}

extension TaskResult {
    /// Whether the response serializer validates and decodes this result: not when no response
    /// came, nor when the response is the 416 that says a partial download already held every
    /// byte (the download's success, with no body). The task and a replay's deferred decoding
    /// both ask this.
    public var isSerializable: Bool {
        response != nil && download?.alreadyComplete != true
    }
}
