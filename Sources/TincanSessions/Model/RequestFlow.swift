import TincanCore

/// How one saved request is sent beyond the request itself, as Hurl's per-entry options do:
/// whether redirects are followed and how many, re-sending until the checks pass (polling), a
/// pause before it goes, and how many times it runs. Every field is nil when the file says
/// nothing, so the defaults (redirects followed up to 10, one send, no pause) stay implicit.
public struct RequestFlow: Sendable, Equatable {
    /// `follow-redirects:`: false returns a redirect response as it is, so a 302 and its
    /// `Location` can be asserted.
    public var followRedirects: Bool?
    /// `max-redirects:`: the most redirects followed (0 follows none).
    public var maxRedirects: Int?
    /// `retry:`: how many times the request is sent again while its checks fail (or nothing
    /// arrives), after ``retryInterval``; 0 or nil sends it once.
    public var retry: Int?
    /// `retry-interval:`: seconds between the sends of a retried request (default 1).
    public var retryInterval: Double?
    /// `delay:`: seconds to wait before the request is sent, each time it runs.
    public var delay: Double?
    /// `repeat:`: how many times the request runs, each run checked and reported on its own.
    public var repeatCount: Int?

    /// The wait between the sends of a retried request when `retry-interval:` is not given, as Hurl's.
    public static let defaultRetryInterval = 1.0

    /// Creates a flow that changes nothing.
    public init() {}

    /// Whether any setting is given.
    public var isEmpty: Bool { self == RequestFlow() }

    /// The redirect policy the settings give, or nil to keep the default.
    public var redirectPolicy: RedirectPolicy? {
        if followRedirects == false { return .doNotFollow }
        if let maxRedirects { return RedirectPolicy(maximum: maxRedirects) }
        return followRedirects == true ? .standard : nil
    }

    /// How many times the request runs (at least once).
    public var runs: Int { max(1, repeatCount ?? 1) }

    /// How many times each run may send it (at least once).
    public var sends: Int { 1 + max(0, retry ?? 0) }

    /// Whether send number `attempt` (from 1) of a run is followed by another: it failed, the
    /// request as built passed its own checks (else sending it again cannot help), and `retry:`
    /// allows one more. What a replay and a send from the TUI both go by.
    public func sendsAgain(after attempt: Int, failed: Bool, requestChecksPassed: Bool) -> Bool {
        failed && requestChecksPassed && attempt < sends
    }

    /// The pause before a retried request is sent again.
    public var pauseBeforeResend: Double { retryInterval ?? Self.defaultRetryInterval }
}

extension NumericRange {
    /// How many times a request is sent again while its checks fail: 0 up to 10,000, so a
    /// replay always ends.
    public static let pollingRetries = NumericRange(name: "retry", minimum: 0, maximum: 10_000, isInteger: true)

    /// How many times a request runs: once up to 100,000 times.
    public static let repeats = NumericRange(name: "repeat", minimum: 1, maximum: 100_000, isInteger: true)

    /// A request's deadline in a session (`max-time:`): `NumericRange.deadline`'s range, with
    /// `500ms` and `2s` allowed as `delay:` allows them.
    public static let maxTime = NumericRange(
        name: "max-time", minimum: 0.001, maximum: 2_147_483, isInteger: false, unit: "seconds", suffixes: ["ms": 0.001, "s": 1],
        examples: "30, 2.5, 500ms or 2s")

    /// A pause in a session (`delay:`, `retry-interval:`): 0 up to a day; `500ms` and `2s` are
    /// allowed, a plain number is seconds.
    public static let pause = NumericRange(
        name: "delay", minimum: 0, maximum: 86_400, isInteger: false, unit: "seconds", suffixes: ["ms": 0.001, "s": 1],
        examples: "2s, 500ms or 1.5")
}
