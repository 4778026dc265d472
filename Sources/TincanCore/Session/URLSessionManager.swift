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
    /// The credential answered to a 401's Basic or Digest challenge, or nil to answer none.
    public var credential: Credential?
    /// The most request-body bytes sent per second, or nil for no limit.
    public var uploadBytesPerSecond: Int?
    /// The most response-body bytes kept in memory (downloads to a file are not limited), or nil
    /// for no limit. A body past it fails the request with ``TransportError/Reason/limitExceeded(_:)``.
    public var maximumBodyBytes: Int64? = SendingConfiguration.defaultMaximumBodyBytes
    /// How far a gzip or deflate body may grow when decoded, or nil to keep it encoded.
    public var decompression: DecompressionLimits? = .standard

    /// The default of ``maximumBodyBytes``: 256 MiB.
    public static let defaultMaximumBodyBytes: Int64 = 256 << 20

    /// The in-memory body limit `text` gives (`500k`, `256M`, `2G`), or nil for `0`, no limit.
    ///
    /// - Parameter name: The option or key it came from, for the error.
    /// - Throws: ``NumericRangeError`` naming `name` for a value that is not a size in range.
    public static func maximumBodyBytes(parsing text: String, name: String = "max-body") throws -> Int64? {
        let bytes = try NumericRange.bodySize.named(name).integer(parsing: text)
        return bytes == 0 ? nil : Int64(bytes)
    }

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
    /// How servers are trusted over TLS.
    public let securityPolicy: SecurityPolicy
    /// The session's cookies; requests whose `httpShouldHandleCookies` is on send and store them.
    public let cookieJar = CookieJar()
    /// The session's response cache, used as each request's cache policy says.
    public let cache = ResponseCache()
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
        self.securityPolicy = .default
        self.configuration = Mutex(configuration)
    }

    /// Creates a manager whose transport trusts servers as `securityPolicy` says.
    ///
    /// - Throws: ``SecurityPolicyError`` when the policy is invalid for the base URL (pinning
    ///   on a base URL that is not https) or its files cannot be read.
    public init(http: HTTPSessionManager, securityPolicy: SecurityPolicy, configuration: SendingConfiguration = SendingConfiguration()) throws {
        try securityPolicy.validate(baseURL: http.baseURL)
        self.http = http
        self.transport = AsyncHTTPClientTransport(tlsConfiguration: try securityPolicy.tlsConfiguration(), trust: securityPolicy.trust)
        self.securityPolicy = securityPolicy
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
        try makeTask(request, kind: .data, completion: completion)
    }

    /// Makes a suspended upload task that sends `data` as the body.
    public func uploadTask(with request: HTTPRequest, from data: [UInt8], completion: (@Sendable (TaskResult) -> Void)? = nil) throws -> SessionTask {
        var request = request
        request.body = .bytes(data)
        return try makeTask(request, kind: .upload, completion: completion)
    }

    /// Makes a suspended upload task that streams the file at `path` from disk as the body.
    ///
    /// - Throws: ``RequestSerializationError`` when the file is missing or not a regular file.
    public func uploadTask(with request: HTTPRequest, fromFile path: String, completion: (@Sendable (TaskResult) -> Void)? = nil) throws -> SessionTask {
        var info = stat()
        guard stat(path, &info) == 0 else { throw RequestSerializationError(.fileNotReachable(path: path)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw RequestSerializationError(.notARegularFile(path: path)) }
        var request = request
        request.body = .file(path: path, length: Int64(info.st_size))
        return try makeTask(request, kind: .upload, completion: completion)
    }

    /// Makes a suspended download task that streams the body to `path`, never holding it in memory.
    ///
    /// The bytes go to `path.part` and replace `path` only when complete. With `resuming`, an
    /// existing `path.part` is continued with `Range` (and `If-Range` with the validator saved
    /// beside it): a 206 appends, a 200 starts again, and a 416 for a file already whole completes it.
    public func downloadTask(with request: HTTPRequest, to path: String, resuming: Bool = false, completion: (@Sendable (TaskResult) -> Void)? = nil) throws -> SessionTask {
        try makeTask(request, kind: .download(path: path, resuming: resuming), completion: completion)
    }

    /// A download task when `downloadPath` is given, else an upload task from `uploadFile` when
    /// that is given, else a data task: how a saved request's settings choose its task.
    public func task(with request: HTTPRequest, uploadFile: String?, downloadPath: String?) throws -> SessionTask {
        if let downloadPath { return try downloadTask(with: request, to: downloadPath) }
        if let uploadFile { return try uploadTask(with: request, fromFile: uploadFile) }
        return try dataTask(with: request)
    }

    private func makeTask(_ request: HTTPRequest, kind: SessionTask.Kind, completion: (@Sendable (TaskResult) -> Void)?) throws -> SessionTask {
        try securityPolicy.validate(requestURL: request.url)
        let configuration = sendingConfiguration
        let identifier = try registry.withLock { registry -> Int in
            guard !registry.invalidated else { throw TransportError(.invalidRequest("the session was invalidated")) }
            defer { registry.nextIdentifier += 1 }
            return registry.nextIdentifier
        }
        let task = SessionTask(identifier: identifier, request: request, kind: kind, completionQueue: configuration.completionQueue, completion: { [weak self] result in
            self?.registry.withLock { _ = $0.tasks.removeValue(forKey: identifier) }
            completion?(result)
        }) { [transport, cookieJar, cache] task in
            await TaskRunner(task: task, transport: transport, configuration: configuration, cookieJar: cookieJar, cache: cache).run()
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
