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
    /// The most response-body bytes kept in memory per request, or nil for no limit.
    public var maximumBodyBytes: Int64? = TaskOptions.defaultMaximumBodyBytes
    /// The process environment, for `{{$env.NAME}}`.
    public var processEnvironment = ProcessInfo.processInfo.environment

    /// Creates the default options.
    public init() {}
}

/// One check on one response, and why it failed.
public struct CheckResult: Sendable, Equatable {
    /// What was checked, such as `status 200` or `body $.json.id`.
    public var name: String
    /// Why it failed, or nil when it passed.
    public var failure: String?

    public var passed: Bool { failure == nil }
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
    /// The whole exchange, redirects and retries included.
    public var duration: Double = 0
    public var checks: [CheckResult] = []
    /// Why the request could not be built or sent, when it could not.
    public var error: String?
    /// Values captured, in order.
    public var captures: [(name: String, value: ParameterValue)] = []
    /// The finished task, when the request was sent.
    public var result: TaskResult?

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
        var recordedSession = session
        var outcomes: [RequestOutcome] = []
        var stop = false
        for index in session.requests.indices {
            let saved = session.requests[index]
            var outcome = RequestOutcome(index: index, name: saved.displayName, method: saved.method, url: saved.url)
            if stop {
                outcome.state = .skipped
                outcomes.append(outcome)
                progress(outcome)
                continue
            }
            await run(index, template: &template, directory: directory, manager: manager, outcome: &outcome)
            if options.record, let result = outcome.result, let response = result.response {
                recordedSession.requests[index].recorded = Self.record(response, data: result.data, keeping: saved.recorded)
            }
            if outcome.state == .failed, options.failFast { stop = true }
            outcomes.append(outcome)
            progress(outcome)
        }
        try? await manager.invalidate(cancelingTasks: true)
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
                throw SessionError("request '#\(index + 1) \(saved.displayName)'\(saved.line > 0 ? " (line \(saved.line))" : ""): \(error)")
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
        let security = session.defaults.security.resolvingPaths(in: directory)
        do {
            return try URLSessionManager(http: try HTTPSessionManager(baseURL: base), securityPolicy: try security.policy())
        } catch {
            throw SessionError("\(self.path): the session's security settings or base cannot be used: \(error)")
        }
    }

    private func run(_ index: Int, template: inout Template, directory: String, manager: URLSessionManager, outcome: inout RequestOutcome) async {
        let saved = session.requests[index]
        let resolved: ResolvedRequest
        let request: HTTPRequest
        do {
            resolved = try session.resolve(index, template: template, directory: directory, file: path)
            request = try resolved.draft.build()
            if let download = resolved.options.download { try DownloadDestination.check(download.path) }
        } catch {
            outcome.state = .failed
            outcome.error = "\(error)"
            return
        }
        outcome.url = Redaction.url(request.url.string)
        let result: TaskResult
        do {
            // The request's own max-body (or the session's default) wins over --max-body.
            let task = try manager.task(with: request, options: try resolved.taskOptions(maximumBodyBytes: options.maximumBodyBytes))
            task.resume()
            result = await task.result()
        } catch {
            outcome.state = .failed
            outcome.error = "\(error)"
            return
        }
        outcome.result = result
        outcome.duration = result.metrics.total.inSeconds
        outcome.status = result.response?.statusCode
        if let error = result.transportError {
            outcome.state = .failed
            outcome.error = "\(error)"
            return
        }
        let evaluation = ResponseEvaluation(saved, result: result, template: template, compareRecorded: options.compareRecorded)
        outcome.checks = evaluation.checks
        outcome.captures = evaluation.captures
        // Captured values are the response's text, used as they are: never expanded again.
        for (name, value) in evaluation.captures { template.captured[name] = value }
        if !outcome.checks.allSatisfy(\.passed) { outcome.state = .failed }
    }

    /// Headers that change on every response, so they are neither recorded nor compared.
    static let volatileHeaders: Set<String> = ["date", "server", "connection", "keep-alive", "transfer-encoding", "age", "expires", "set-cookie", "content-length", "etag", "last-modified"]

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

/// A saved request's assertions checked and its captures taken on one response: what replay
/// does after each request, and what the TUI does after a send from a session.
public struct ResponseEvaluation: Sendable {
    /// Every check in the file's order, then one per capture that found nothing, then the
    /// comparison with the recording when asked for.
    public var checks: [CheckResult] = []
    /// The values captured, in the file's order.
    public var captures: [(name: String, value: ParameterValue)] = []

    /// Evaluates `saved`'s assertions and captures on `result`, expanding variables in expected
    /// values with `template`.
    public init(_ saved: SavedRequest, result: TaskResult, template: Template, compareRecorded: Bool = false) {
        let checker = ResponseChecker(result: result, template: template)
        checks = checker.check(saved.assertions)
        for (name, source) in saved.captures {
            switch checker.capture(source) {
            case .success(let value): captures.append((name, value))
            case .failure(let reason): checks.append(CheckResult(name: "capture \(name)", failure: reason.description))
            }
        }
        if compareRecorded, let recorded = saved.recorded {
            checks += checker.compare(with: recorded)
        }
    }

    /// Whether every check passed.
    public var passed: Bool { checks.allSatisfy(\.passed) }
}

/// A reason a capture found nothing.
public struct CaptureFailure: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Checks one response: assertions, captures and comparison with a recording.
struct ResponseChecker {
    let result: TaskResult
    let template: Template
    /// The decoded body as a value tree, when the serializer decoded JSON or a property list;
    /// decoded once, however many paths are checked and captured.
    let bodyValue: ParameterValue?

    init(result: TaskResult, template: Template) {
        self.result = result
        self.template = template
        switch result.serialization?.body {
        case .json(let value)?, .propertyList(let value)?: bodyValue = value
        default:
            // The HTTP serializer decodes nothing; a JSON body is still worth a path.
            bodyValue = try? JSONParser.parse(bytes: result.data)
        }
    }

    func check(_ assertions: [Assertion]) -> [CheckResult] {
        var checks: [CheckResult] = []
        let decidesValidity = assertions.contains {
            switch $0 {
            case .status, .valid, .errors: true
            default: false
            }
        }
        if !decidesValidity {
            checks.append(CheckResult(name: "valid", failure: result.serialization?.error.map { "the response failed validation: \(chainText($0))" }))
        }
        let status = result.response?.statusCode
        for assertion in assertions {
            switch assertion {
            case .status(let text):
                let failure: String? = (try? StatusSet(text)).flatMap { set in
                    guard let status else { return "no response" }
                    return set.codes.contains(status) ? nil : "is \(status), expected \(text)"
                }
                checks.append(CheckResult(name: "status \(text)", failure: failure))
            case .header(let name, let predicate):
                let actual = result.response?.headers[name].map(ParameterValue.string)
                checks.append(CheckResult(name: "header \(name)", failure: evaluate(predicate, actual)))
            case .body(let path, let predicate):
                let actual = bodyValue.flatMap(path.value(in:))
                var failure = evaluate(predicate, actual)
                if failure != nil, bodyValue == nil { failure = "the body is not JSON or a property list, so \(path.text) has no value" }
                checks.append(CheckResult(name: "body \(path.text)", failure: failure))
            case .valid(let expected):
                let error = result.serialization?.error
                let failure: String? = (error == nil) == expected ? nil
                    : (expected ? "the response failed validation: \(error.map(chainText) ?? "")" : "the response passed validation, expected it to fail")
                checks.append(CheckResult(name: "valid \(expected)", failure: failure))
            case .errors(let expectations):
                checks.append(CheckResult(name: "errors", failure: errorsFailure(expectations)))
            case .maxDuration(let seconds):
                let took = result.metrics.total.inSeconds
                checks.append(CheckResult(name: "max-duration \(Assertion.durationText(seconds))",
                                          failure: took <= seconds ? nil : "took \(Int((took * 1000).rounded())) ms"))
            }
        }
        return checks
    }

    private func evaluate(_ predicate: Predicate, _ actual: ParameterValue?) -> String? {
        do {
            return try predicate.failure(for: actual) { try template.expand($0) }
        } catch {
            return "\(error)"
        }
    }

    private func errorsFailure(_ expectations: [ErrorExpectation]) -> String? {
        let chain = result.serialization?.error?.chain ?? []
        guard chain.count >= expectations.count else {
            return "the chain has \(chain.count) error\(chain.count == 1 ? "" : "s")\(chain.isEmpty ? "" : " (\(chainText(chain[0])))"), expected \(expectations.count)"
        }
        for (depth, (expected, actual)) in zip(expectations, chain).enumerated() {
            let label = depth == 0 ? "the error" : "underlying error \(depth)"
            if let code = expected.code, code != actual.code { return "\(label) has code \(actual.code) (\(actual.message)), expected \(code)" }
            if let domain = expected.domain, domain != actual.domain { return "\(label) is in \(actual.domain), expected \(domain)" }
            if let message = expected.message, let failure = evaluate(message, .string(actual.message)) { return "\(label)'s message \(failure)" }
        }
        return nil
    }

    private func chainText(_ error: ResponseSerializationError) -> String {
        error.chain.map { "\($0.message) [\($0.code)]" }.joined(separator: " ← ")
    }

    func capture(_ source: CaptureSource) -> Result<ParameterValue, CaptureFailure> {
        switch source {
        case .status:
            guard let status = result.response?.statusCode else { return .failure(CaptureFailure(description: "no response")) }
            return .success(.integer(Int64(status)))
        case .header(let name):
            guard let value = result.response?.headers[name] else { return .failure(CaptureFailure(description: "the response has no \(name) header")) }
            return .success(.string(value))
        case .body(let path):
            guard let body = bodyValue else { return .failure(CaptureFailure(description: "the body is not JSON or a property list, so \(path.text) has no value")) }
            guard let value = path.value(in: body) else { return .failure(CaptureFailure(description: "\(path.text) is not in the body")) }
            return .success(value)
        case .regex(let pattern):
            guard let expression = try? NSRegularExpression(pattern: pattern) else { return .failure(CaptureFailure(description: "'\(pattern)' is not a regular expression")) }
            let text = String(decoding: result.data, as: UTF8.self)
            guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else {
                return .failure(CaptureFailure(description: "/\(pattern)/ does not match the body"))
            }
            let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
            guard let swiftRange = Range(range, in: text) else { return .failure(CaptureFailure(description: "/\(pattern)/ matched nothing")) }
            return .success(.string(String(text[swiftRange])))
        }
    }

    func compare(with recorded: RecordedResponse) -> [CheckResult] {
        var checks: [CheckResult] = []
        let status = result.response?.statusCode
        checks.append(CheckResult(name: "recorded status", failure: status == recorded.status ? nil : "is \(status.map(String.init) ?? "none"), recorded \(recorded.status)"))
        for header in recorded.headers {
            let actual = result.response?.headers[header.name]
            checks.append(CheckResult(name: "recorded header \(header.name)",
                                      failure: actual == header.value ? nil : "is \(actual.map { "\"\($0)\"" } ?? "missing"), recorded \"\(header.value ?? "")\""))
        }
        let recordedBytes = recorded.bodyBase64 ?? Array((recorded.body ?? "").utf8)
        var failure: String?
        if let expected = try? JSONParser.parse(bytes: recordedBytes), let actual = try? JSONParser.parse(bytes: result.data) {
            let strip = { (value: ParameterValue) in recorded.ignore.reduce(value) { $1.removing(from: $0) } }
            failure = Self.firstDifference(strip(actual), recorded: strip(expected))
        } else if recordedBytes != result.data {
            failure = "differs from the recording (\(result.data.count) bytes, recorded \(recordedBytes.count))"
        }
        checks.append(CheckResult(name: "recorded body", failure: failure))
        return checks
    }

    /// The first place where a body differs from its recording, as `PATH: recorded X, got Y`
    /// with the path in the syntax of captures and assertions (`$.items[2].name`), or nil when
    /// they are the same JSON value.
    ///
    /// Objects are compared as values: the order of their members does not matter (servers and
    /// serializers reorder them freely), while arrays compare in order; `1` equals `1.0`.
    static func firstDifference(_ actual: ParameterValue, recorded: ParameterValue, at steps: [BodyPath.Step] = []) -> String? {
        let path = BodyPath.text(steps)
        switch (actual, recorded) {
        case (.dictionary(let got), .dictionary(let expected)):
            for (key, value) in expected {
                guard let other = got[key] else { return "\(BodyPath.text(steps + [.key(key)])): recorded \(Predicate.show(value)), got nothing" }
                if let difference = firstDifference(other, recorded: value, at: steps + [.key(key)]) { return difference }
            }
            if let extra = got.first(where: { expected[$0.key] == nil }) {
                return "\(BodyPath.text(steps + [.key(extra.key)])): not recorded, got \(Predicate.show(extra.value))"
            }
            return nil
        case (.array(let got), .array(let expected)):
            for index in 0..<max(got.count, expected.count) {
                let step = steps + [.index(index)]
                guard index < got.count else { return "\(BodyPath.text(step)): recorded \(Predicate.show(expected[index])), got nothing" }
                guard index < expected.count else { return "\(BodyPath.text(step)): not recorded, got \(Predicate.show(got[index]))" }
                if let difference = firstDifference(got[index], recorded: expected[index], at: step) { return difference }
            }
            return nil
        case (.integer, .double), (.double, .integer), (.double, .double):
            return Predicate.number(actual) == Predicate.number(recorded) ? nil : "\(path): recorded \(Predicate.show(recorded)), got \(Predicate.show(actual))"
        default:
            return actual == recorded ? nil : "\(path): recorded \(Predicate.show(recorded)), got \(Predicate.show(actual))"
        }
    }
}
