import Dispatch
import Foundation
import Synchronization

/// How a session manager sends: its transport and the rules it applies around it.
public struct SendingConfiguration: Sendable {
    /// The response serializer that validates and decodes every response.
    public var responseSerializer: any ResponseSerializer = JSONResponseSerializer()
    /// The most redirects followed before the last redirect response is returned as it is.
    public var maximumRedirects = 10
    /// Seconds the whole request may take (redirects included), or nil for no limit.
    public var requestDeadline: Double?
    /// Where completion handlers run.
    public var completionQueue = DispatchQueue(label: "tincan.session.completion")

    /// Creates the defaults.
    public init() {}
}

/// The sending half of the session manager (AFNetworking's `AFURLSessionManager`): tasks keyed by
/// identifier, each with its own delegate state, events and completion.
public final class URLSessionManager: Sendable {
    /// The request-building half: base URL, serializer and verbs.
    public let http: HTTPSessionManager
    /// The transport.
    public let transport: any Transport
    private let configuration: Mutex<SendingConfiguration>
    private let registry = Mutex(Registry())

    private struct Registry {
        var nextIdentifier = 1
        var tasks: [Int: SessionTask] = [:]
        var invalidated = false
    }

    /// Creates a manager that sends through `transport`.
    public init(http: HTTPSessionManager, transport: any Transport = AsyncHTTPClientTransport(), configuration: SendingConfiguration = SendingConfiguration()) {
        self.http = http
        self.transport = transport
        self.configuration = Mutex(configuration)
    }

    /// The sending configuration.
    public var sendingConfiguration: SendingConfiguration {
        get { configuration.withLock { $0 } }
        set { configuration.withLock { $0 = newValue } }
    }

    /// The tasks that have not completed, by identifier.
    public var tasks: [Int: SessionTask] {
        registry.withLock { $0.tasks }
    }

    /// Makes a suspended data task for `request`; call ``SessionTask/resume()`` to send it.
    ///
    /// - Parameter completion: Runs on the configuration's completion queue when the task ends.
    public func dataTask(with request: HTTPRequest, completion: (@Sendable (TaskResult) -> Void)? = nil) throws -> SessionTask {
        let configuration = sendingConfiguration
        let identifier = try registry.withLock { registry -> Int in
            guard !registry.invalidated else { throw TransportError(.invalidRequest("the session was invalidated")) }
            defer { registry.nextIdentifier += 1 }
            return registry.nextIdentifier
        }
        let task = SessionTask(identifier: identifier, request: request, completionQueue: configuration.completionQueue, completion: { [weak self] result in
            self?.registry.withLock { _ = $0.tasks.removeValue(forKey: identifier) }
            completion?(result)
        }) { [transport] task in
            await Self.run(task, transport: transport, configuration: configuration)
        }
        registry.withLock { $0.tasks[identifier] = task }
        return task
    }

    /// Builds, sends and awaits one request.
    public func send(_ request: HTTPRequest) async throws -> TaskResult {
        let task = try dataTask(with: request)
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

    // MARK: - Running a task

    private static func run(_ task: SessionTask, transport: any Transport, configuration: SendingConfiguration) async -> TaskResult {
        let clock = ContinuousClock()
        let start = clock.now
        var metrics = TaskMetrics()
        var request = task.originalRequest
        var redirects: [Redirect] = []
        var data: [UInt8] = []
        var response: HTTPResponse?
        var transportError: TransportError?

        while true {
            metrics.requestCount += 1
            task.emit(.requestSent(request))
            let chunks = Mutex<[UInt8]>([])
            let sent = Mutex<Duration?>(nil)
            let firstByte = Mutex<Duration?>(nil)
            do {
                let remaining = configuration.requestDeadline.map { $0 - (clock.now - start).inSeconds }
                response = try await transport.send(request, idleTimeout: request.properties.timeoutInterval, deadline: remaining) { event in
                    switch event {
                    case .requestHeadSent: sent.withLock { $0 = $0 ?? (clock.now - start) }
                    case .uploadProgress(let progress): task.emit(.uploadProgress(progress))
                    case .requestSent: break
                    case .responseHead(let head):
                        firstByte.withLock { $0 = $0 ?? (clock.now - start) }
                        task.emit(.responseHead(head))
                    case .bodyChunk(let bytes, let progress):
                        chunks.withLock { $0.append(contentsOf: bytes) }
                        task.emit(.downloadProgress(progress))
                    }
                }
            } catch let error as TransportError {
                if task.isCancelled {
                    transportError = TransportError(.cancelled)
                } else if case .timedOut(.deadline, _) = error.reason {
                    // The transport saw what was left of the deadline; report the deadline the user set.
                    transportError = TransportError(.timedOut(.deadline, seconds: configuration.requestDeadline))
                } else {
                    transportError = error
                }
            } catch {
                transportError = TransportError(.other("\(error)"))
            }
            metrics.connect = metrics.connect ?? sent.withLock { $0 }
            metrics.firstByte = metrics.firstByte ?? firstByte.withLock { $0 }
            data = chunks.withLock { $0 }
            guard transportError == nil, let current = response,
                  let next = redirect(from: request, response: current, hops: redirects.count, limit: configuration.maximumRedirects)
            else { break }
            redirects.append(next.hop)
            task.emit(.redirected(next.hop))
            request = next.request
        }

        metrics.total = clock.now - start
        let serialization = response.map { configuration.responseSerializer.serialize($0, data: data, request: request) }
        return TaskResult(request: request, response: response, data: data, redirects: redirects,
                          transportError: transportError, serialization: serialization, metrics: metrics)
    }

    /// The next request when `response` redirects and the limit allows, else nil.
    ///
    /// 303 always becomes GET; 301 and 302 turn POST into GET, as browsers and URLSession do;
    /// 307 and 308 repeat the method and body. A GET drops the body and its headers.
    static func redirect(from request: HTTPRequest, response: HTTPResponse, hops: Int, limit: Int) -> (request: HTTPRequest, hop: Redirect)? {
        guard [301, 302, 303, 307, 308].contains(response.statusCode), hops < limit,
              let location = response.headers["Location"], !location.isEmpty
        else { return nil }
        var target = URLReference(parsing: URLReference.escapingInvalidCharacters(location)).resolved(against: request.url)
        if target.fragment == nil { target.fragment = request.url.fragment }
        guard let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return nil }
        var next = request
        next.url = target
        let becomesGet = response.statusCode == 303 && request.method != "HEAD"
            || [301, 302].contains(response.statusCode) && request.method == "POST"
        if becomesGet {
            next.method = "GET"
            next.body = .none
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] { next.headers.remove(name: name) }
        }
        if target.host?.lowercased() != request.url.host?.lowercased() || target.effectivePort != request.url.effectivePort {
            // Credentials are for the origin that was asked, never for the one a redirect names.
            next.headers.remove(name: "Authorization")
            next.headers.remove(name: "Cookie")
        }
        next.headers.remove(name: "Host")
        return (next, Redirect(statusCode: response.statusCode, from: request.url, to: target, method: next.method))
    }
}
