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
    /// Standard input as the front end read it, for every request whose body file, upload or
    /// multipart file is `-` (``Session/readsStandardInput``); nil when none was read.
    public var standardInput: [UInt8]?

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
    public func run(progress: @Sendable (RequestOutcome) -> Void = { _ in }) async throws -> (report: ReplayReport, session: Session) {
        let clock = ContinuousClock()
        let started = clock.now
        var template = Template(variables: try session.variables(environment: options.environment, overrides: options.variables), environment: options.processEnvironment)
        let directory = sessionDirectory(of: path)
        try checkDownloadFolders(template: template, directory: directory)
        let manager = try makeManager(template: template, directory: directory)
        do {
            try session.loadCookies(into: manager.cookieJar, directory: directory)
        } catch {
            try? await manager.invalidate(cancelingTasks: true)
            throw error
        }
        var recordedSession = session
        var outcomes: [RequestOutcome] = []
        // One outcome per run, each about a kilobyte in place: reserved at once (up to 65,536),
        // the array is not copied to grow, and is not twice the size it needs (it peaked at
        // 13.4 MB for 5,000 requests, 5.4 MB of outcomes).
        outcomes.reserveCapacity(min(session.requests.reduce(0) { $0 + $1.flow.runs }, 1 << 16))
        var stop = false
        // The requests go one after another, so the replay runs on the transport's own thread:
        // no response passes between threads on its way from the socket to its checks.
        await withTaskExecutorPreference(manager.taskExecutor) {
            for index in session.requests.indices {
                let saved = session.requests[index]
                let runs = saved.flow.runs
                for run in 1...runs {
                    // A repeated request is reported once a run: `poll [2/3]`.
                    let name = runs > 1 ? "\(saved.displayName) [\(run)/\(runs)]" : saved.displayName
                    var outcome = RequestOutcome(index: index, name: name, method: saved.method, url: saved.url)
                    if stop {
                        outcome.state = .skipped
                        outcomes.append(outcome)
                        progress(outcome)
                        continue
                    }
                    await self.run(index, template: &template, directory: directory, manager: manager, outcome: &outcome)
                    if options.record, let result = outcome.result, let response = result.response {
                        recordedSession.requests[index].recorded = Self.record(response, data: result.data, keeping: saved.recorded)
                    }
                    if outcome.state == .failed, options.failFast { stop = true }
                    if !options.keepsResponseBodies, outcome.result != nil {
                        outcome.result?.data = []
                        outcome.result?.serialization?.body = .none
                    }
                    outcomes.append(outcome)
                    progress(outcome)
                }
            }
        }
        try? await manager.invalidate(cancelingTasks: true)
        try session.saveCookies(from: manager.cookieJar, directory: directory)
        let report = ReplayReport(sessionName: session.name ?? (path as NSString).lastPathComponent, file: path, outcomes: outcomes,
                                  duration: (clock.now - started).inSeconds)
        return (report, recordedSession)
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
            return try URLSessionManager(http: try HTTPSessionManager(baseURL: base), securityPolicy: try security.policy(), scheduling: .transportLoop)
        } catch {
            throw SessionError("\(self.path): the session's security settings or base cannot be used: \(error)")
        }
    }

    private func run(_ index: Int, template: inout Template, directory: String, manager: URLSessionManager, outcome: inout RequestOutcome) async {
        let saved = session.requests[index]
        var resolved: ResolvedRequest
        let request: HTTPRequest
        do {
            resolved = try session.resolve(index, template: template, directory: directory, file: path)
            resolved.draft.standardInput = options.standardInput
            request = try resolved.draft.build()
            if let download = resolved.options.download { try DownloadDestination.check(download.path) }
        } catch {
            outcome.state = .failed
            outcome.error = "\(error)"
            return
        }
        outcome.url = Redaction.url(request.url.string)
        let flow = saved.flow
        // `assert: request:` is checked on the request as built, whatever the response.
        let requestChecks = RequestChecker(request: request, template: template).check(saved.assertions)
        let requestPassed = requestChecks.allSatisfy(\.passed)
        if let delay = flow.delay, delay > 0 {
            // A replay stopped during the pause sends nothing more.
            guard (try? await Task.sleep(for: .seconds(delay))) != nil else {
                outcome.state = .failed
                outcome.error = "cancelled before it was sent"
                return
            }
        }
        let taskOptions: TaskOptions
        do {
            // The request's own max-body (or the session's default) wins over --max-body.
            taskOptions = try resolved.taskOptions(maximumBodyBytes: options.maximumBodyBytes)
        } catch {
            outcome.checks = requestChecks
            outcome.assertionResults = ResponseEvaluation.byAssertion(saved.assertions, requestChecks: requestChecks, response: nil)
            outcome.state = .failed
            outcome.error = "\(error)"
            return
        }
        // `retry:` sends the request again while its checks fail or nothing arrives, as Hurl's
        // polling does: the last send is the one reported, and its captures are the ones kept.
        for attempt in 1...flow.sends {
            if attempt > 1 {
                try? await Task.sleep(for: .seconds(flow.pauseBeforeResend))
                if Task.isCancelled { return }
            }
            outcome.attempts = attempt
            outcome.state = requestPassed ? .passed : .failed
            outcome.error = nil
            outcome.checks = requestChecks
            outcome.captures = []
            let evaluation = await send(request, options: taskOptions, saved: saved, template: template, manager: manager, outcome: &outcome)
            outcome.assertionResults = ResponseEvaluation.byAssertion(saved.assertions, requestChecks: requestChecks, response: evaluation?.byAssertion)
            // The request as built fails its checks every time: sending it again cannot help.
            guard flow.sendsAgain(after: attempt, failed: outcome.state == .failed, requestChecksPassed: requestPassed) else {
                // Captured values are the response's text, used as they are: never expanded again.
                for (name, value) in evaluation?.captures ?? [] { template.captured[name] = value }
                return
            }
        }
    }

    /// Sends `request` once and checks the response into `outcome`.
    ///
    /// - Returns: The evaluation, when a response arrived to evaluate.
    private func send(_ request: HTTPRequest, options taskOptions: TaskOptions, saved: SavedRequest, template: Template, manager: URLSessionManager, outcome: inout RequestOutcome) async -> ResponseEvaluation? {
        let result: TaskResult
        outcome.started = Date()
        do {
            let task = try manager.task(with: request, options: taskOptions)
            task.resume()
            result = await task.result()
        } catch {
            outcome.state = .failed
            outcome.error = "\(error)"
            return nil
        }
        outcome.result = result
        outcome.duration = result.metrics.total.inSeconds
        outcome.status = result.response?.statusCode
        // A request whose checks expect a transport error is judged on it; any other fails by it.
        if let error = result.transportError, !saved.assertions.contains(where: \.isTransportErrorCheck) {
            outcome.state = .failed
            outcome.error = "\(error)"
            return nil
        }
        let evaluation = ResponseEvaluation(saved, result: result, template: template, compareRecorded: options.compareRecorded)
        outcome.checks += evaluation.checks
        outcome.captures = evaluation.captures
        if !evaluation.passed { outcome.state = .failed }
        return evaluation
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
