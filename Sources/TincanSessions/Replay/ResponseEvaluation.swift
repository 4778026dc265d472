import TincanCore

/// A saved request's assertions checked and its captures taken on one response: what replay
/// does after each request, and what the TUI does after a send from a session.
public struct ResponseEvaluation: Sendable {
    /// Every check in the file's order, then one per capture that found nothing, then the
    /// comparison with the recording when asked for.
    public var checks: [CheckResult] = []
    /// The values captured, in the file's order.
    public var captures: [(name: String, value: ParameterValue)] = []
    /// Each assertion's own result, in the file's order: nil for `assert: request:` checks,
    /// which are checked on the request before it is sent (``requestChecks(_:request:template:)``).
    public var byAssertion: [CheckResult?] = []
    /// Why each capture found nothing, by name (a capture that took a value has none).
    public var captureFailures: [String: String] = [:]

    /// Evaluates `saved`'s assertions and captures on `result`, expanding variables in expected
    /// values with `template`; `received:` checks read `received`, what the server received
    /// (``ReceivedRecord``), or fail saying why it is not known.
    public init(_ saved: SavedRequest, result: TaskResult, template: Template, compareRecorded: Bool = false,
                received: Result<ReceivedRequest, ReceivedRecord.Failure>? = nil) {
        let checker = ResponseChecker(result: result, template: template, received: received)
        checks = checker.check(saved.assertions)
        // The checker gives one result per response assertion, after the implicit `valid` check
        // when there is one: the last ones line up with the assertions.
        var results = checks.suffix(saved.assertions.count { !$0.isRequestCheck }).makeIterator()
        byAssertion = saved.assertions.map { $0.isRequestCheck ? nil : results.next() }
        for (name, source) in saved.captures {
            switch checker.capture(source) {
            case .success(let value): captures.append((name, value))
            case .failure(let failure):
                checks.append(CheckResult(name: "capture \(name)", failure: failure.description))
                captureFailures[name] = failure.description
            }
        }
        if compareRecorded, let recorded = saved.recorded {
            checks += checker.compare(with: recorded)
        }
    }

    /// Whether every check passed.
    public var passed: Bool { checks.allSatisfy(\.passed) }

    /// Each of `assertions`' results in their order: the request's checks (`requestChecks`, in
    /// their order) where they stand, `response`'s (a ``byAssertion``) for the rest; nil where
    /// no response was judged.
    public static func byAssertion(_ assertions: [Assertion], requestChecks: [CheckResult], response: [CheckResult?]?) -> [CheckResult?] {
        var requestResults = requestChecks.makeIterator()
        return assertions.indices.map { index in
            assertions[index].isRequestCheck ? requestResults.next() : response?[index]
        }
    }

    /// `assert: request:` checked on the request as built, before it is sent, as a replay does.
    public static func requestChecks(_ saved: SavedRequest, request: HTTPRequest, template: Template) -> [CheckResult] {
        RequestChecker(request: request, template: template).check(saved.assertions)
    }
}

extension Assertion {
    /// Whether it reads what the server received (`received:`), which is asked for after the exchange.
    public var isReceivedCheck: Bool {
        if case .received = self { return true }
        return false
    }

    /// Whether it expects (or rules out) a failed exchange: such a request is judged even when
    /// no response came back.
    public var isTransportErrorCheck: Bool {
        if case .transportError = self { return true }
        return false
    }

    /// Whether it checks the request as built rather than the response.
    public var isRequestCheck: Bool {
        if case .request = self { return true }
        return false
    }
}

/// One check on one response, and why it failed.
public struct CheckResult: Sendable, Equatable {
    /// What was checked, such as `status 200` or `body $.json.id`.
    public var name: String
    /// Why it failed, or nil when it passed.
    public var failure: String?

    public var passed: Bool { failure == nil }

    /// Creates a result.
    public init(name: String, failure: String?) {
        self.name = name
        self.failure = failure
    }
}
