import Foundation
import OrderedCollections
import TincanCore

/// How a replay runs.
public struct ReplayOptions: Sendable {
    /// The environment whose variables apply.
    public var environment: String?
    /// Variables given on the command line; they win over the file's.
    public var variables: [String: String] = [:]
    /// Stop at the first request that fails a check.
    public var failFast = false
    /// Compare each response with the one recorded in the file.
    public var compareRecorded = false
    /// Save each response into its request's `recorded:`.
    public var record = false
    /// Whether each outcome keeps its response body (the bytes and the decoded value) once it
    /// has been checked, recorded and reported: `--record-har` writes them after the run. Without
    /// it they are dropped, so a replay's memory does not grow with every response it has seen
    /// (`repeat:` may run a request 100,000 times).
    public var keepsResponseBodies = false
    /// The most response-body bytes kept in memory per request, or nil for no limit.
    public var maximumBodyBytes: Int64? = TaskOptions.defaultMaximumBodyBytes
    /// The process environment, for `{{$env.NAME}}`.
    public var processEnvironment = ProcessEnvironment.values
    /// Where the demo servers the command started listen, for `{{$demo}}` and its kin.
    public var demo: DemoAddresses?
    /// Standard input as the front end read it, for every request whose body file, upload or
    /// multipart file is `-` (``Session/readsStandardInput``); nil when none was read.
    public var standardInput: [UInt8]?
    /// How an OAuth 2.0 grant that needs the user reaches them (the command line prints the URL
    /// or code and opens `$BROWSER`); by default nobody is asked.
    public var oauth2Interaction = OAuth2Interaction.none
    /// The clock of `delay:`, `retry-interval:`, retry backoff, OAuth 2.0 expiry and the report's
    /// durations: the real one, or a test's that it advances.
    public var timing = Timing.continuous

    /// Creates the default options.
    public init() {}
}

/// What happened to one request of a replay.
public struct RequestOutcome: Sendable {
    public enum State: Sendable, Equatable {
        case passed
        case failed
        /// Not run, because an earlier request failed under `--fail-fast`.
        case skipped
    }

    /// The request's position (0-based) and name.
    public var index: Int
    public var name: String
    public var method: String
    /// The absolute URL sent (secrets redacted), or the URL as written when it never resolved.
    public var url: String
    public var state: State = .passed
    /// The status code, when a response arrived.
    public var status: Int?
    /// When the request was last sent, for a HAR log's `startedDateTime`; nil when it was not.
    public var started: Date?
    /// The last send's whole exchange, its redirects and the task's own retries (`retry-policy:`)
    /// included; each `retry:` re-send is a send of its own, counted in ``attempts``.
    public var duration: Double = 0
    public var checks: [CheckResult] = []
    /// Each assertion's own result, in the file's order: nil for one that was not judged (the
    /// request was not built, or no response arrived: ``error`` says why).
    public var assertionResults: [CheckResult?] = []
    /// Why the request could not be built or sent, when it could not.
    public var error: String?
    /// Values captured, in order.
    public var captures: [(name: String, value: ParameterValue)] = []
    /// The finished task, when the request was sent.
    public var result: TaskResult?
    /// How many times the request was sent (more than one when `retry:` sent it again); 0
    /// when it was never sent.
    public var attempts = 0

    public var passed: Bool { state == .passed }
}

/// A replay's outcome.
public struct ReplayReport: Sendable {
    public var sessionName: String
    public var file: String
    public var outcomes: [RequestOutcome]
    /// Wall-clock time of the whole replay.
    public var duration: Double

    public var passed: Bool { outcomes.allSatisfy { $0.state != .failed } }
    public var failedCount: Int { outcomes.count { $0.state == .failed } }
    public var skippedCount: Int { outcomes.count { $0.state == .skipped } }
}

/// Runs a session's requests in order through one session manager (so cookies and the cache
/// carry from one request to the next), resolving variables and captures, checking assertions.
public final class Replayer: Sendable {
    public let session: Session
    /// The session file's path, for reports and for relative file paths.
    public let path: String
    public let options: ReplayOptions

    /// Creates a replayer for a loaded session.
    public init(session: Session, path: String, options: ReplayOptions = ReplayOptions()) {
        self.session = session
        self.path = path
        self.options = options
    }

    /// Runs every request.
    ///
    /// - Parameter progress: Called after each request, in order.
    /// - Returns: The report, and the session with responses recorded when ``ReplayOptions/record`` is set.
    /// - Throws: ``SessionError`` when the session cannot start (an unknown environment, an invalid security policy).
    public func run(progress: @escaping @Sendable (RequestOutcome) -> Void = { _ in }) async throws -> (report: ReplayReport, session: Session) {
        let timing = options.timing
        let started = timing.now()
        var template = try session.template(environment: options.environment, overrides: options.variables, processEnvironment: options.processEnvironment)
        template.demo = options.demo
        let directory = sessionDirectory(of: path)
        try checkDownloadFolders(template: template, directory: directory)
        let manager = try makeManager(template: template, directory: directory)
        do {
            try session.loadCookies(into: manager.cookieJar, directory: directory)
        } catch {
            try? await manager.invalidate(cancelingTasks: true)
            throw error
        }
        let hidden = session.hiddenValues(of: session.requests, environment: options.environment, overrides: options.variables, captured: [:],
                                          processEnvironment: options.processEnvironment)
        var pass = ReplayPass(session: session, path: path, options: options, directory: directory, manager: manager, template: template,
                              hiddenValues: hidden, progress: progress)
        // The requests go one after another, so the replay runs on the transport's own thread:
        // no response passes between threads on its way from the socket to its checks.
        await withTaskExecutorPreference(manager.taskExecutor) {
            await pass.run()
        }
        try? await manager.invalidate(cancelingTasks: true)
        try session.saveCookies(from: manager.cookieJar, directory: directory)
        let report = ReplayReport(sessionName: session.name ?? (path as NSString).lastPathComponent, file: path, outcomes: pass.outcomes,
                                  duration: (timing.now() - started).inSeconds)
        return (report, pass.recordedSession)
    }

    /// Stops the replay before anything is sent when a request would download into a folder
    /// that does not exist. A path that needs a captured value is checked when its request runs.
    ///
    /// - Throws: ``SessionError`` naming the request and the folder.
    private func checkDownloadFolders(template: Template, directory: String) throws(SessionError) {
        for (index, saved) in session.requests.enumerated() {
            guard let download = saved.download, let expanded = try? template.expand(download) else { continue }
            do {
                try DownloadDestination.check(resolveSessionPath(expanded, in: directory))
            } catch {
                throw SessionError(.downloadFolder(request: "#\(index + 1) \(saved.displayName)", line: saved.line, error))
            }
        }
    }

    private func makeManager(template: Template, directory: String) throws -> URLSessionManager {
        let base: String?
        do {
            base = try session.base.map(template.expand)
        } catch {
            throw SessionError("base: \(error)")
        }
        let security: SecuritySettings
        do {
            security = try session.defaults.security.resolvingPaths(in: directory, expand: template.expand)
        } catch {
            throw SessionError("security: \(error)")
        }
        do {
            return try URLSessionManager(http: try HTTPSessionManager(baseURL: base), securityPolicy: try security.policy(), scheduling: .transportLoop,
                                         oauth2Tokens: OAuth2TokenStore(timing: options.timing), timing: options.timing)
        } catch {
            throw SessionError("\(self.path): the session's security settings or base cannot be used: \(error)")
        }
    }

    /// Headers that change on every response, so they are neither recorded nor compared (the
    /// demo server numbers each response).
    static let volatileHeaders: Set<String> = ["date", "server", "connection", "keep-alive", "transfer-encoding", "age", "expires", "set-cookie", "content-length", "etag", "last-modified",
                                               ReceivedRequest.idHeader.lowercased()]

    /// A response as `recorded:` keeps it, with the ignore list of the previous recording.
    static func record(_ response: HTTPResponse, data: [UInt8], keeping previous: RecordedResponse?) -> RecordedResponse {
        var recorded = RecordedResponse(status: response.statusCode)
        recorded.headers = response.headers.filter { !volatileHeaders.contains($0.name.lowercased()) }.map { HeaderSetting(name: $0.name, value: $0.value) }
        if !data.isEmpty {
            if let text = String(validating: data, as: UTF8.self) {
                recorded.body = text
            } else {
                recorded.bodyBase64 = data
            }
        }
        recorded.ignore = previous?.ignore ?? []
        return recorded
    }
}
