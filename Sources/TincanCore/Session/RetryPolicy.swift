import Foundation

/// Retries a task's request after a transient failure, with exponential backoff and jitter
/// (Alamofire's `RetryPolicy`): a status such as 503, or a connection refused, reset or timed out.
///
/// Retry `n` (from 1) waits `delay × 2ⁿ⁻¹` seconds, capped at ``maximumDelay``, then jittered to
/// a random point in its upper half (`[w/2, w]`), so that clients that failed together do not
/// come back together. A response's `Retry-After` (seconds, or an HTTP date) replaces the
/// backoff, unjittered, and is capped at ``maximumDelay`` too, so a server cannot stall a task
/// for a day. Only ``methods`` are retried (the idempotent ones by default: a POST may have done
/// its work before the failure), and only a body that can be sent again
/// (``RequestBody/isReplayable``). A task's ``TaskOptions/deadline`` covers every attempt and
/// every wait: a wait that would pass it is not started.
///
/// Each task holds its own copy, which counts that task's retries.
public struct RetryPolicy: RequestInterceptor {
    /// The errors a policy can retry.
    public enum RetryableError: String, Sendable, CaseIterable {
        /// The connection could not be made: refused, unreachable, a name that did not resolve.
        case connectionRefused
        /// The connection closed or was reset before the response was complete.
        case connectionReset
        /// The idle or connect timeout fired (never the task's deadline).
        case timedOut

        /// The error as the Explain view says it: "refused", "reset", "timed out".
        var words: String {
            switch self {
            case .connectionRefused: "refused"
            case .connectionReset: "reset"
            case .timedOut: "timed out"
            }
        }
    }

    /// The methods retried by default: those RFC 9110 §9.2.2 calls idempotent.
    public static let defaultMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]
    /// The statuses retried by default: request timeout, too many requests, and the server errors
    /// that say "try again" (500, 502, 503, 504).
    public static let defaultStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The base delay by default, in seconds.
    public static let defaultDelay = 0.5
    /// The longest wait by default, in seconds.
    public static let defaultMaximumDelay = 30.0

    /// The longest `Retry-After` read, in seconds (about 31 years); a longer one is read as this.
    static let longestRetryAfter = 1e9

    /// The most retries (0...100 where users give it).
    public var limit: Int
    /// The first retry's backoff in seconds, doubled for each retry after it.
    public var delay: Double
    /// The longest wait, in seconds: caps the backoff and `Retry-After`.
    public var maximumDelay: Double
    /// The methods retried (upper case).
    public var methods: Set<String>
    /// The statuses retried.
    public var statuses: Set<Int>
    /// The errors retried.
    public var errors: Set<RetryableError>
    /// A random number in `0..<1` for the jitter; tests inject a fixed one.
    public var random: @Sendable () -> Double
    /// The time now, for a `Retry-After` date; tests inject a fixed one.
    public var now: @Sendable () -> Date

    /// Retries made so far by this copy.
    private var retries = 0

    /// Creates a policy; only `limit` is required.
    public init(
        limit: Int,
        delay: Double = RetryPolicy.defaultDelay,
        maximumDelay: Double = RetryPolicy.defaultMaximumDelay,
        methods: Set<String> = RetryPolicy.defaultMethods,
        statuses: Set<Int> = RetryPolicy.defaultStatuses,
        errors: Set<RetryableError> = Set(RetryableError.allCases),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.limit = max(0, limit)
        self.delay = max(0, delay)
        self.maximumDelay = max(0, maximumDelay)
        self.methods = Set(methods.map { $0.uppercased() })
        self.statuses = statuses
        self.errors = errors
        self.random = random
        self.now = now
    }

    // MARK: - Deciding

    /// Retries a listed status or error of a listed method until the limit, after ``wait(before:retryAfter:)``;
    /// says why not (``RetryDecision/doNotRetryBecause(_:)``) for a method not listed, the limit
    /// reached, or a body that cannot be sent again.
    public mutating func retry(_ attempt: RequestAttempt) -> RetryDecision {
        guard limit > 0, let cause = cause(of: attempt) else { return .doNotRetry }
        let method = attempt.request.method.uppercased()
        guard methods.contains(method) else {
            return .doNotRetryBecause("\(cause) not retried: \(method) is not one of the retried methods (\(methods.sorted().joined(separator: ", ")))")
        }
        guard retries < limit else {
            return .doNotRetryBecause("\(cause): gave up after \(limit) \(limit == 1 ? "retry" : "retries")")
        }
        guard attempt.request.body.isReplayable else {
            return .doNotRetryBecause("\(cause) not retried: the body is streamed from a source that cannot be read twice")
        }
        retries += 1
        var retryAfter: Double?
        if case .status(_, let after) = cause { retryAfter = after }
        let seconds = wait(before: retries, retryAfter: retryAfter)
        return .retry(.transient(cause, attempt: retries, delay: seconds), after: seconds)
    }

    /// The policy in words, for the Explain view.
    public var explanation: String {
        let errors = RetryableError.allCases.filter(errors.contains).map(\.words)
        let failures = (statuses.isEmpty ? [] : ["status " + statuses.sorted().map(String.init).joined(separator: ", ")])
            + (errors.isEmpty ? [] : ["a connection " + (errors.count > 1 ? errors.dropLast().joined(separator: ", ") + " or " : "") + (errors.last ?? "")])
        return "Up to \(limit) \(limit == 1 ? "retry" : "retries") of \(methods.sorted().joined(separator: ", ")): \(failures.joined(separator: ", or "));"
            + " the first after \(RetryReason.seconds(backoff(before: 1))), each next twice as long (at most \(RetryReason.seconds(maximumDelay)), jittered);"
            + " a Retry-After is honoured up to \(RetryReason.seconds(maximumDelay))."
    }

    /// The wait before retry number `retry` (from 1): `Retry-After` when the server gave one,
    /// else the jittered backoff; never more than ``maximumDelay``.
    public func wait(before retry: Int, retryAfter: Double? = nil) -> Double {
        if let retryAfter { return min(max(0, retryAfter), maximumDelay) }
        return backoff(before: retry) * (0.5 + 0.5 * min(max(random(), 0), 1))
    }

    /// The backoff before retry number `retry` (from 1), before jitter: `delay × 2ⁿ⁻¹`, capped.
    public func backoff(before retry: Int) -> Double {
        // A Double power cannot overflow into a trap; a huge one is capped like any other.
        min(delay * pow(2, Double(max(0, retry - 1))), maximumDelay)
    }

    /// What in `attempt` this policy retries, or nil for nothing.
    func cause(of attempt: RequestAttempt) -> RetryCause? {
        if let response = attempt.response {
            guard statuses.contains(response.statusCode) else { return nil }
            return .status(response.statusCode, retryAfter: Self.retryAfter(response.headers["Retry-After"], now: now()))
        }
        guard let error = attempt.error else { return nil }
        switch error.reason {
        case .cannotConnect(let detail) where errors.contains(.connectionRefused): return .connectionRefused(detail)
        case .connectionClosed(let detail) where errors.contains(.connectionReset): return .connectionReset(detail)
        case .timedOut(.idle, _) where errors.contains(.timedOut): return .timedOut(.idle)
        case .timedOut(.connect, _) where errors.contains(.timedOut): return .timedOut(.connect)
        default: return nil
        }
    }

    /// The seconds a `Retry-After` value asks for (RFC 9110 §10.2.3): a number of seconds, or an
    /// HTTP date (a date in the past is 0); nil when it is absent or neither.
    public static func retryAfter(_ value: String?, now: Date) -> Double? {
        guard let value = value?.trimmingWhitespace(), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
            // Digits only: a huge number is a long wait (kept finite for reports), never an overflow.
            return min(Double(value) ?? Self.longestRetryAfter, Self.longestRetryAfter)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), Self.longestRetryAfter)
    }
}

extension RequestBody {
    /// Whether the body can be sent again, as a retry needs: bytes in memory and files can (a
    /// file is opened anew; standard input was read whole into memory); a multipart body with a
    /// stream part cannot, since its opener may hand back a stream that was read already.
    public var isReplayable: Bool {
        guard case .multipart(let form) = self else { return true }
        return !form.parts.contains { if case .stream = $0.content { true } else { false } }
    }
}
