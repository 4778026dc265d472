import Foundation
import Synchronization

/// The sending half of the session manager (AFNetworking's `AFURLSessionManager`): tasks keyed by
/// identifier, each with its own delegate state, events and result.
public final class URLSessionManager: Sendable {
    /// The request-building half: base URL, serializer and verbs.
    public let http: HTTPSessionManager
    /// The transport.
    public let transport: any Transport
    /// How servers are trusted over TLS.
    public let securityPolicy: SecurityPolicy
    /// The session's cookies; requests whose `httpShouldHandleCookies` is on send and store them.
    public let cookieJar = CookieJar()
    /// The session's response cache, used as each request's cache policy says.
    public let cache = ResponseCache()
    /// The session's OAuth 2.0 tokens, for tasks whose options name a grant.
    public let oauth2Tokens: OAuth2TokenStore
    /// Where tasks run their work between the transport's callbacks.
    public let scheduling: TaskScheduling
    /// Told every event of every task, in order.
    public let eventMonitors: [any EventMonitor]
    /// The clock tasks wait on (retry backoff) and measure by (deadlines, metrics, event times,
    /// cookie and cache ages).
    public let timing: Timing
    /// The clock of each request's idle timeout and upload pacing, in the transport: apart from
    /// ``timing`` so that a test can move one without the other's sleepers waking.
    public let transportTiming: Timing
    private let registry = Mutex(Registry())

    private struct Registry {
        var nextIdentifier = 1
        var tasks: [Int: SessionTask] = [:]
        var invalidated = false
    }

    /// Where a manager's tasks run the protocol work between the transport's callbacks: cookies,
    /// redirects, challenges, the cache, and the response serializer.
    public enum TaskScheduling: Sendable {
        /// On Swift's shared pool, beside other work: for callers that run tasks side by side and
        /// must not hold up the network thread with a large body's decoding (the TUI).
        case shared
        /// On the transport's own event-loop thread (``Transport/taskExecutor``), so that no
        /// response passes from the network thread to another one: for callers that send one
        /// request at a time (send, replay), where each such hop costs a wake-up per request.
        /// A caller that also runs there (`withTaskExecutorPreference(manager.taskExecutor)`)
        /// resumes on it too.
        case transportLoop
    }

    /// The executor tasks run on, as ``scheduling`` says: nil for Swift's shared pool.
    public var taskExecutor: (any TaskExecutor)? {
        scheduling == .transportLoop ? transport.taskExecutor : nil
    }

    /// Creates a manager that sends through `transport`.
    public init(http: HTTPSessionManager, transport: any Transport = AsyncHTTPClientTransport(),
                scheduling: TaskScheduling = .shared,
                eventMonitors: [any EventMonitor] = [], oauth2Tokens: OAuth2TokenStore = OAuth2TokenStore(), timing: Timing = .continuous,
                transportTiming: Timing = .continuous) {
        self.http = http
        self.timing = timing
        self.transportTiming = transportTiming
        self.oauth2Tokens = oauth2Tokens
        self.transport = transport
        self.securityPolicy = .default
        self.scheduling = scheduling
        self.eventMonitors = eventMonitors
    }

    /// Creates a manager whose transport trusts servers as `securityPolicy` says.
    ///
    /// - Throws: ``SecurityPolicyError`` when the policy is invalid for the base URL (pinning
    ///   on a base URL that is not https) or its files cannot be read.
    public init(http: HTTPSessionManager, securityPolicy: SecurityPolicy,
                scheduling: TaskScheduling = .shared,
                eventMonitors: [any EventMonitor] = [], oauth2Tokens: OAuth2TokenStore = OAuth2TokenStore(), timing: Timing = .continuous,
                transportTiming: Timing = .continuous) throws {
        try securityPolicy.validate(baseURL: http.baseURL)
        self.http = http
        self.timing = timing
        self.transportTiming = transportTiming
        self.oauth2Tokens = oauth2Tokens
        self.transport = AsyncHTTPClientTransport(tlsConfiguration: try securityPolicy.tlsConfiguration(), trust: securityPolicy.trust)
        self.securityPolicy = securityPolicy
        self.scheduling = scheduling
        self.eventMonitors = eventMonitors
    }

    /// The tasks that have not completed, by identifier.
    public var tasks: [Int: SessionTask] {
        registry.withLock { $0.tasks }
    }

    /// Makes a suspended task for `request` with its own `options`; call ``SessionTask/resume()``
    /// to send it. This is the one way a task is made: the options decide its kind (a download
    /// when they name a destination, else an upload when they name a file, else a data task).
    ///
    /// - Throws: ``RequestSerializationError`` when the upload file is missing, not a regular
    ///   file or unreadable; ``SecurityPolicyError`` when the policy refuses the URL; ``TransportError`` once
    ///   the session is invalidated.
    public func task(with request: HTTPRequest, options: TaskOptions = TaskOptions()) throws -> SessionTask {
        var request = request
        if let path = options.uploadFile { request.body = try RequestBody.file(atPath: path) }
        return try makeTask(request, kind: options.kind, options: options)
    }

    private func makeTask(_ request: HTTPRequest, kind: SessionTask.Kind, options: TaskOptions) throws -> SessionTask {
        try securityPolicy.validate(requestURL: request.url)
        let identifier = try registry.withLock { registry -> Int in
            guard !registry.invalidated else { throw TransportError(.invalidRequest("the session was invalidated")) }
            defer { registry.nextIdentifier += 1 }
            return registry.nextIdentifier
        }
        // The registry forgets the task as it ends, on the thread that ends it, before its
        // result is handed out.
        let task = SessionTask(identifier: identifier, request: request, kind: kind, executor: taskExecutor, monitors: eventMonitors, now: timing.now,
                               ended: { [weak self] in self?.registry.withLock { _ = $0.tasks.removeValue(forKey: identifier) } }) { [transport, cookieJar, cache, securityPolicy, oauth2Tokens, timing, transportTiming] task in
            var result = await TaskRunner(task: task, transport: transport, options: options, cookieJar: cookieJar, cache: cache, tokens: oauth2Tokens,
                                          timing: timing, transportTiming: transportTiming).run()
            // A response from the cache went through no handshake of its own.
            if result.response != nil, !result.cameFromCache, result.request.url.scheme?.lowercased() == "https" {
                result.trustedBy = securityPolicy.trustBasis
            }
            return result
        }
        registry.withLock { $0.tasks[identifier] = task }
        return task
    }

    /// Makes a suspended data task (AFNetworking's `dataTaskWithRequest:`).
    public func dataTask(with request: HTTPRequest, options: TaskOptions = TaskOptions()) throws -> SessionTask {
        var options = options
        options.uploadFile = nil
        options.download = nil
        return try task(with: request, options: options)
    }

    /// Makes a suspended upload task that sends `data` as the body (AFNetworking's `uploadTaskWithRequest:fromData:`).
    public func uploadTask(with request: HTTPRequest, from data: [UInt8], options: TaskOptions = TaskOptions()) throws -> SessionTask {
        var request = request
        request.body = .bytes(data)
        var options = options
        options.uploadFile = nil
        options.download = nil
        return try makeTask(request, kind: .upload, options: options)
    }

    /// Makes a suspended upload task that streams the file at `path` from disk as the body
    /// (AFNetworking's `uploadTaskWithRequest:fromFile:`).
    public func uploadTask(with request: HTTPRequest, fromFile path: String, options: TaskOptions = TaskOptions()) throws -> SessionTask {
        var options = options
        options.uploadFile = path
        options.download = nil
        return try task(with: request, options: options)
    }

    /// Makes a suspended download task that streams the body to `path`, never holding it in memory.
    ///
    /// The bytes go to `path.part` and replace `path` only when complete. With `resuming`, an
    /// existing `path.part` is continued with `Range` (and `If-Range` with the validator saved
    /// beside it): a 206 appends, a 200 starts again, and a 416 for a file already whole completes it.
    public func downloadTask(with request: HTTPRequest, to path: String, resuming: Bool = false, options: TaskOptions = TaskOptions()) throws -> SessionTask {
        var options = options
        options.download = TaskOptions.Download(path: path, resuming: resuming)
        return try task(with: request, options: options)
    }

    /// Builds, sends and awaits one request.
    public func send(_ request: HTTPRequest, options: TaskOptions = TaskOptions()) async throws -> TaskResult {
        let task = try task(with: request, options: options)
        task.resume()
        return await task.result()
    }

    /// Ends the session: cancels running tasks, or lets them finish first, then shuts the transport down.
    public func invalidate(cancelingTasks: Bool) async throws {
        let running = registry.withLock { registry -> [SessionTask] in
            registry.invalidated = true
            return Array(registry.tasks.values)
        }
        for task in running {
            if cancelingTasks { task.cancel() }
            _ = await task.result()
        }
        try await transport.shutdown()
    }
}
