import TerminalUI
import TincanCore
import TincanSessions

/// Where a send's flow stands: which run of `repeat:` and which send of `retry:`, and when a
/// send waiting for `delay:` or `retry-interval:` goes.
public struct FlowProgress: Sendable {
    /// The request's settings, as they were when it was sent.
    public var flow = RequestFlow()
    /// The run (from 1) of `repeat:`.
    public var run = 1
    /// The send (from 1) of this run: more than one when `retry:` sent it again.
    public var attempt = 1
    /// The run's request as built and how it is sent: each send of the run sends it.
    public var request: HTTPRequest?
    public var plan: SendPlan?
    /// When the waiting send goes, in seconds since the app started; nil when none waits.
    public var sendsAt: Double?

    /// Creates the flow of a request that has not been sent.
    public init() {}

    /// `[2/3]` while a request runs more than once, else empty.
    var runLabel: String { flow.runs > 1 ? " [\(run)/\(flow.runs)]" : "" }
}

/// A send from the TUI goes through its request's flow as `tincan replay` does (the decisions
/// are ``RequestFlow``'s, shared with the replayer): `delay:` before each run, `retry:` while the
/// checks fail (sending the run's request again), `repeat:` runs (each built again from the
/// panes, with the values captured so far). The pauses are timed by the ticks a send in flight gets, so
/// ctrl+g cancels a waiting send too.
extension AppState {
    /// Sends the flow's request now, or after `pause` seconds.
    mutating func dispatch(after pause: Double?) -> [Effect] {
        guard var current = exchange, let request = current.flow.request, let plan = current.flow.plan else { return [] }
        // The last send's verdicts stay in view while the next one waits.
        if let pause, pause > 0 {
            current.flow.sendsAt = now + pause
            exchange = current
            return []
        }
        current.flow.sendsAt = nil
        current.assertionVerdicts = [:]
        current.captureFailures = [:]
        exchange = current
        return [.send(exchange: current.id, request: request, plan: plan)]
    }

    /// On a tick: the waiting send, once its time has come.
    mutating func sendPendingIfDue() -> [Effect] {
        guard let current = exchange, current.phase == .sending, let at = current.flow.sendsAt, now >= at, let request = current.flow.request else { return [] }
        status = StatusMessage("Sending \(request.method) \(Redaction.url(request.url.string))\(current.flow.runLabel)…")
        return dispatch(after: nil)
    }

    /// After a send completed: the next send of the flow (a retry, or the next run), or none.
    ///
    /// - Parameter failed: Whether the send failed: no response, a failed check, or (with no
    ///   checks) a response that failed validation.
    mutating func continueFlow(failed: Bool) -> [Effect] {
        guard var current = exchange, current.phase == .finished else { return [] }
        let requestPassed = current.requestChecks.allSatisfy(\.passed)
        let flow = current.flow.flow
        let pause: Double
        let note: String
        if flow.sendsAgain(after: current.flow.attempt, failed: failed, requestChecksPassed: requestPassed) {
            current.flow.attempt += 1
            pause = flow.pauseBeforeResend
            note = "send \(current.flow.attempt) of \(flow.sends) (retry:) in \(ParameterValue.format(pause)) s"
        } else if current.flow.run < flow.runs {
            // Each run is built again, with the values captured so far, as a replay builds it.
            if current.requestIndex == workspace.selected {
                guard let (request, plan) = preparedSend() else { return [] }
                current.flow.request = request
                current.flow.plan = plan
                if let saved = current.saved, let template = try? variablesInEffect() {
                    current.template = template
                    current.requestChecks = ResponseEvaluation.requestChecks(saved, request: request, template: template)
                }
            }
            current.flow.run += 1
            current.flow.attempt = 1
            pause = flow.delay ?? 0
            note = "run \(current.flow.run) of \(flow.runs) (repeat:)" + (pause > 0 ? " in \(ParameterValue.format(pause)) s" : "")
        } else {
            return []
        }
        // Each send is a task of its own: a new id, so a late event of the last one is ignored.
        current.id = nextExchangeID
        nextExchangeID += 1
        current.phase = .sending
        current.milestones.append((now, "next: \(note)"))
        exchange = current
        status = StatusMessage("\(status?.text ?? "") · next: \(note) (ctrl+g stops)", status?.kind ?? .info)
        return dispatch(after: pause)
    }
}
