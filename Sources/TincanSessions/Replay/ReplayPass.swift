import Foundation
import TincanCore

/// One pass over a session's requests, in order, through one session manager: what
/// ``Replayer/run(progress:)`` does once it has its manager.
///
/// While a request is on its way, the pass gets ahead with work that cannot change what is sent
/// or what the report says, so that the time between one response and the next request is spent
/// sending rather than checking:
/// - It builds the next request while this one is answered, when this one captures nothing (the
///   variables are then final) and the next reads no body file, multipart file or upload and not
///   the clock, which could differ at its turn. A request that fails to build ahead is built
///   again at its turn, so its error is the one it would have had. Its `assert: request:` checks
///   are always made at its turn.
/// - It decodes and checks a response once the next request has started on its way, when nothing
///   after it depends on the checks (the request captures nothing, `retry:` does not send it
///   again, `--fail-fast` is off) and its body is small (``largestWaitingBody``), so that the work
///   ends before the next response can arrive and does not count in its timings. Before a pause
///   (`delay:`) and at the end, it checks at once.
///
/// Requests go out in the same order, with the same bytes, as when each response is checked
/// before the next request is built; outcomes are reported in order.
struct ReplayPass {
    let session: Session
    let path: String
    let options: ReplayOptions
    /// The session file's folder, for relative paths.
    let directory: String
    let manager: URLSessionManager
    /// The values reports must not show (``Session/hiddenValues(of:environment:overrides:captured:processEnvironment:)``).
    let hiddenValues: [String]
    /// Called with each outcome, in order.
    let progress: @Sendable (RequestOutcome) -> Void
    var template: Template
    var outcomes: [RequestOutcome] = []
    /// The session, with responses recorded when ``ReplayOptions/record`` is set.
    var recordedSession: Session
    /// Set when a request failed under `--fail-fast`: the rest are skipped.
    private var stop = false
    /// The request built while the one before it was answered, and its place in the run order;
    /// nil for one that could not be built then (it is built at its turn, once).
    private var ahead: (position: Int, request: Prepared?)?
    /// A response whose checks wait until the next request is written.
    private var unchecked: Unchecked?

    init(session: Session, path: String, options: ReplayOptions, directory: String, manager: URLSessionManager, template: Template,
         hiddenValues: [String] = [], progress: @escaping @Sendable (RequestOutcome) -> Void) {
        self.hiddenValues = hiddenValues
        self.session = session
        self.path = path
        self.options = options
        self.directory = directory
        self.manager = manager
        self.template = template
        self.progress = progress
        recordedSession = session
        // One outcome per run, each about a kilobyte in place: reserved at once (up to 65,536),
        // the array is not copied to grow, and is not twice the size it needs (it peaked at
        // 13.4 MB for 5,000 requests, 5.4 MB of outcomes).
        outcomes.reserveCapacity(min(session.requests.reduce(0) { $0 + $1.flow.runs }, 1 << 16))
    }

    /// A request resolved and built, with what is known before it is sent.
    private struct Prepared {
        var request: HTTPRequest
        /// The URL for the report, secrets redacted.
        var url: String
        var taskOptions: Result<TaskOptions, ResponseContractError>
        /// A WebSocket request's messages, its variables expanded.
        var webSocket: SavedWebSocket? = nil
    }

    /// The largest response whose decoding and checks wait for the next request: they then take
    /// microseconds, done before the next response can arrive, so its timings are its own. A
    /// larger body (a JSON document of megabytes takes milliseconds) is checked at once.
    static let largestWaitingBody = 64 * 1024

    /// A response that arrived, with what is needed to decode and check it later.
    private struct Unchecked {
        var outcome: RequestOutcome
        var saved: SavedRequest
        /// The result, its body not yet validated and decoded.
        var result: TaskResult
        /// What validates and decodes it.
        var serializer: any ResponseSerializer
        var requestChecks: [CheckResult]
    }

    /// What a task whose checks wait is sent with: the body is kept as it came, and validated
    /// and decoded by the request's own serializer with the checks.
    private static let undecoded: HTTPResponseSerializer = {
        var serializer = HTTPResponseSerializer()
        serializer.acceptableStatusCodes = nil
        return serializer
    }()

    /// Runs every request, and checks the last response.
    mutating func run() async {
        let requests = session.requests
        var position = 0
        for index in requests.indices {
            let saved = requests[index]
            let runs = saved.flow.runs
            for run in 1...runs {
                // A repeated request is reported once a run: `poll [2/3]`.
                let name = runs > 1 ? "\(saved.displayName) [\(run)/\(runs)]" : saved.displayName
                var outcome = RequestOutcome(index: index, name: name, method: saved.method, url: saved.url)
                if stop {
                    outcome.state = .skipped
                    finish(outcome)
                } else {
                    let next = run < runs ? index : (index + 1 < requests.count ? index + 1 : nil)
                    if let outcome = await send(index, at: position, next: next, outcome: outcome) { finish(outcome) }
                }
                position += 1
            }
        }
        checkWaitingResponse()
    }

    /// Builds, sends and checks one run of request `index`.
    ///
    /// - Parameters:
    ///   - position: Its place among all runs, for the request built ahead.
    ///   - next: The request of the next run, which may be built while this one is answered.
    /// - Returns: The outcome, or nil when its checks wait for the next request (``unchecked``).
    private mutating func send(_ index: Int, at position: Int, next: Int?, outcome: RequestOutcome) async -> RequestOutcome? {
        var outcome = outcome
        let saved = session.requests[index]
        let builtAhead = ahead
        ahead = nil
        let prepared: Prepared
        if let builtAhead, builtAhead.position == position, let request = builtAhead.request {
            prepared = request
        } else {
            switch prepare(index, template: template) {
            case .success(let request): prepared = request
            case .failure(let error):
                outcome.state = .failed
                outcome.error = "\(error)"
                return outcome
            }
        }
        outcome.url = prepared.url
        let flow = saved.flow
        // `assert: request:` is checked on the request as built, with the variables of its
        // turn (a `{{$timestamp}}` in an expected value reads the clock now).
        let requestChecks = RequestChecker(request: prepared.request, template: template).check(saved.assertions)
        let requestPassed = requestChecks.allSatisfy(\.passed)
        if let delay = flow.delay, delay > 0 {
            // The last response is not left unchecked through a pause.
            checkWaitingResponse()
            // A replay stopped during the pause sends nothing more.
            guard (try? await manager.timing.sleep(.seconds(delay))) != nil else {
                outcome.state = .failed
                outcome.error = "cancelled before it was sent"
                return outcome
            }
        }
        let taskOptions: TaskOptions
        switch prepared.taskOptions {
        case .success(let options): taskOptions = options
        case .failure(let error):
            outcome.checks = requestChecks
            outcome.assertionResults = ResponseEvaluation.byAssertion(saved.assertions, requestChecks: requestChecks, response: nil)
            outcome.state = .failed
            outcome.error = "\(error)"
            return outcome
        }
        // Nothing later depends on this response's checks: they may wait for the next request,
        // and so may the decoding of its body, which only they read.
        // `received:` asks the server after the exchange, so its checks cannot wait for the next.
        let asksReceived = saved.assertions.contains(where: \.isReceivedCheck)
        let checksMayWait = flow.sends == 1 && saved.captures.isEmpty && !options.failFast && !asksReceived
        var sendOptions = taskOptions
        sendOptions.oauth2?.interaction = options.oauth2Interaction
        if checksMayWait { sendOptions.responseSerializer = Self.undecoded }
        // `retry:` sends the request again while its checks fail or nothing arrives, as Hurl's
        // polling does: the last send is the one reported, and its captures are the ones kept.
        for attempt in 1...flow.sends {
            if attempt > 1 {
                try? await manager.timing.sleep(.seconds(flow.pauseBeforeResend))
                if Task.isCancelled { return outcome }
            }
            outcome.attempts = attempt
            outcome.state = requestPassed ? .passed : .failed
            outcome.error = nil
            outcome.checks = requestChecks
            outcome.captures = []
            outcome.started = Date()
            var evaluation: ResponseEvaluation?
            if let webSocket = prepared.webSocket {
                // A WebSocket conversation: no task, its frames are the stream the checks read.
                checkWaitingResponse()
                let exchange = await WebSocketExchange.run(webSocket, request: prepared.request, options: sendOptions, manager: manager)
                evaluation = evaluate(exchange.result, saved: saved, requestChecks: requestChecks, outcome: &outcome)
            } else {
                do {
                    let task = try manager.task(with: prepared.request, options: sendOptions)
                    task.resume()
                    if unchecked != nil {
                        // The task runs on this thread too, and starts first (the loop runs jobs in
                        // order): it writes the request, then the last response is checked.
                        await Task.yield()
                        checkWaitingResponse()
                    }
                    // This request captures nothing, so the next is built with the same variables.
                    if let next, ahead == nil, saved.captures.isEmpty { buildAhead(next, at: position + 1) }
                    let result = await task.result()
                    if checksMayWait, result.data.count <= Self.largestWaitingBody {
                        unchecked = Unchecked(outcome: outcome, saved: saved, result: result, serializer: taskOptions.responseSerializer, requestChecks: requestChecks)
                        return nil
                    }
                    let received = asksReceived && result.response != nil ? await ReceivedRecord.fetch(for: result, through: manager) : nil
                    evaluation = evaluate(checksMayWait ? decoded(result, by: taskOptions.responseSerializer) : result, saved: saved, requestChecks: requestChecks,
                                          received: received, outcome: &outcome)
                } catch {
                    outcome.state = .failed
                    outcome.error = "\(error)"
                    outcome.assertionResults = ResponseEvaluation.byAssertion(saved.assertions, requestChecks: requestChecks, response: nil)
                }
            }
            // The request as built fails its checks every time: sending it again cannot help.
            guard flow.sendsAgain(after: attempt, failed: outcome.state == .failed, requestChecksPassed: requestPassed) else {
                // Captured values are the response's text, used as they are: never expanded again.
                for (name, value) in evaluation?.captures ?? [] { template.captured[name] = value }
                return outcome
            }
        }
        return outcome
    }

    /// Request `index` resolved and built with `template`, or why it cannot be.
    private func prepare(_ index: Int, template: Template) -> Result<Prepared, any Error> {
        do {
            var resolved = try session.resolve(index, template: template, directory: directory, file: path)
            resolved.draft.standardInput = options.standardInput
            let request = try resolved.draft.build()
            if let download = resolved.options.download { try DownloadDestination.check(download.path) }
            let maximumBodyBytes = options.maximumBodyBytes
            return .success(Prepared(request: request, url: Redaction.url((resolved.webSocket == nil ? request.url : WebSocketURL.webSocketForm(of: request.url)).string),
                                     // The request's own max-body (or the session's default) wins over --max-body.
                                     taskOptions: Result { () throws(ResponseContractError) in try resolved.taskOptions(maximumBodyBytes: maximumBodyBytes) },
                                     webSocket: resolved.webSocket))
        } catch {
            return .failure(error)
        }
    }

    /// Builds request `index` before its turn, when what it is built from cannot change by then:
    /// it reads no file (a body, a part, an upload) and not the clock.
    private mutating func buildAhead(_ index: Int, at position: Int) {
        let saved = session.requests[index]
        if case .file? = saved.body { return }
        guard saved.files.isEmpty, saved.upload == nil else { return }
        var frozen = template
        frozen.readsClock = false
        // One that cannot be built now is built at its turn, where its error is reported.
        if case .success(let request) = prepare(index, template: frozen) {
            ahead = (position, request)
        } else {
            ahead = (position, nil)
        }
    }

    /// Checks the response waiting for its checks, if any, and reports it.
    private mutating func checkWaitingResponse() {
        guard var waiting = unchecked else { return }
        unchecked = nil
        evaluate(decoded(waiting.result, by: waiting.serializer), saved: waiting.saved, requestChecks: waiting.requestChecks, outcome: &waiting.outcome)
        finish(waiting.outcome)
    }

    /// `result`, sent with ``undecoded``, validated and decoded by `serializer` as its task would
    /// have.
    private func decoded(_ result: TaskResult, by serializer: any ResponseSerializer) -> TaskResult {
        guard let response = result.response, result.isSerializable else { return result }
        var result = result
        result.serialization = serializer.serialize(response, data: result.data, request: result.request)
        return result
    }

    /// Checks `result` into `outcome`.
    ///
    /// - Returns: The evaluation, when a response arrived to evaluate.
    @discardableResult
    private func evaluate(_ result: TaskResult, saved: SavedRequest, requestChecks: [CheckResult], received: Result<ReceivedRequest, ReceivedRecord.Failure>? = nil,
                          outcome: inout RequestOutcome) -> ResponseEvaluation? {
        outcome.result = result
        outcome.duration = result.metrics.total.inSeconds
        outcome.status = result.response?.statusCode
        var evaluation: ResponseEvaluation?
        // A request whose checks expect a transport error is judged on it; any other fails by it.
        if let error = result.transportError, !saved.assertions.contains(where: \.isTransportErrorCheck) {
            outcome.state = .failed
            outcome.error = "\(error)"
        } else {
            let checked = ResponseEvaluation(saved, result: result, template: template, compareRecorded: options.compareRecorded, received: received)
            outcome.checks += checked.checks
            outcome.captures = checked.captures
            if !checked.passed { outcome.state = .failed }
            evaluation = checked
        }
        outcome.assertionResults = ResponseEvaluation.byAssertion(saved.assertions, requestChecks: requestChecks, response: evaluation?.byAssertion)
        return evaluation
    }

    /// Records, keeps and reports a finished outcome, after the one waiting for its checks.
    private mutating func finish(_ outcome: RequestOutcome) {
        checkWaitingResponse()
        var outcome = outcome
        if options.record, let result = outcome.result, let response = result.response {
            let index = outcome.index
            recordedSession.requests[index].recorded = Replayer.record(response, data: result.data, keeping: session.requests[index].recorded)
        }
        if outcome.state == .failed, options.failFast { stop = true }
        if !options.keepsResponseBodies, outcome.result != nil {
            outcome.result?.data = []
            outcome.result?.serialization?.body = .none
        }
        // What the variables view hides is hidden in the report too (most sessions have nothing to hide).
        if !hiddenValues.isEmpty { outcome = outcome.hiding(hiddenValues) }
        outcomes.append(outcome)
        progress(outcome)
    }
}
