import Dispatch
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
    case completed(TaskResult)
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
}

/// Timings of a task, measured from when it was resumed.
public struct TaskMetrics: Sendable, Hashable {
    /// Until the request head was written: DNS, TCP and TLS on a new connection, about nothing on a reused one.
    public var connect: Duration?
    /// Until the first response byte (the head) arrived.
    public var firstByte: Duration?
    /// Until the task completed.
    public var total: Duration = .zero
    /// How many requests were sent (more than one after redirects).
    public var requestCount = 0
}

/// What a task ended with.
public struct TaskResult: Sendable {
    /// The last request sent (after redirects).
    public var request: HTTPRequest
    /// The last response, or nil when none arrived.
    public var response: HTTPResponse?
    /// The body received.
    public var data: [UInt8]
    /// The redirects followed, in order.
    public var redirects: [Redirect]
    /// The transport failure, if the request failed below HTTP.
    public var transportError: TransportError?
    /// The response serializer's verdict, when a response arrived.
    public var serialization: ResponseSerialization?
    /// Timings.
    public var metrics: TaskMetrics
}

/// A data task: one request, its redirects, and the response (AFNetworking's task plus its
/// per-task delegate, which holds the data, the progress and the completion).
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

    private struct Inner {
        var state = State.suspended
        var uploadProgress = TransferProgress()
        var downloadProgress = TransferProgress()
        var runner: Task<Void, Never>?
        var result: TaskResult?
        var waiters: [CheckedContinuation<TaskResult, Never>] = []
    }

    /// The identifier, unique within the session manager.
    public let identifier: Int
    /// The request as first built.
    public let originalRequest: HTTPRequest
    /// Every event in order; the stream finishes after `.completed`.
    public let events: AsyncStream<TaskEvent>

    private let continuation: AsyncStream<TaskEvent>.Continuation
    private let inner = Mutex(Inner())
    private let work: @Sendable (SessionTask) async -> TaskResult
    private let completion: (@Sendable (TaskResult) -> Void)?
    private let completionQueue: DispatchQueue

    init(
        identifier: Int,
        request: HTTPRequest,
        completionQueue: DispatchQueue,
        completion: (@Sendable (TaskResult) -> Void)?,
        work: @escaping @Sendable (SessionTask) async -> TaskResult
    ) {
        self.identifier = identifier
        self.originalRequest = request
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.completionQueue = completionQueue
        self.completion = completion
        self.work = work
    }

    /// The state now.
    public var state: State { inner.withLock { $0.state } }
    /// Upload progress: bytes sent of the body's length.
    public var uploadProgress: TransferProgress { inner.withLock { $0.uploadProgress } }
    /// Download progress: bytes received of Content-Length (indeterminate without one).
    public var downloadProgress: TransferProgress { inner.withLock { $0.downloadProgress } }

    /// Starts the task; does nothing unless it is suspended.
    public func resume() {
        let started = inner.withLock { inner -> Bool in
            guard inner.state.canTransition(to: .running) else { return false }
            inner.state = .running
            return true
        }
        guard started else { return }
        emit(.resumed)
        let runner = Task { [self] in
            let result = await work(self)
            finish(result)
        }
        inner.withLock { $0.runner = runner }
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
            finish(TaskResult(request: originalRequest, response: nil, data: [], redirects: [],
                              transportError: TransportError(.cancelled), serialization: nil, metrics: TaskMetrics()))
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
        switch event {
        case .uploadProgress(let progress): inner.withLock { $0.uploadProgress = progress }
        case .downloadProgress(let progress): inner.withLock { $0.downloadProgress = progress }
        default: break
        }
        continuation.yield(event)
    }

    var isCancelled: Bool { inner.withLock { $0.state == .canceling } }

    private func finish(_ result: TaskResult) {
        let waiters = inner.withLock { inner -> [CheckedContinuation<TaskResult, Never>]? in
            guard inner.result == nil else { return nil }
            inner.state = .completed
            inner.result = result
            defer { inner.waiters = [] }
            return inner.waiters
        }
        guard let waiters else { return }
        continuation.yield(.completed(result))
        continuation.finish()
        for waiter in waiters { waiter.resume(returning: result) }
        if let completion { completionQueue.async { completion(result) } }
    }
}
