import TincanCore

/// A session's `retry-policy:` (in `defaults:` or on a request, whose own replaces the
/// defaults'): how a transient failure is retried, as ``RetryPolicy`` does it. Only `limit` is
/// required; what is left out takes the policy's defaults.
public struct SavedRetryPolicy: Sendable, Equatable {
    /// The most retries, 0...100.
    public var limit: Int
    /// The first retry's backoff in seconds (0...3600), or nil for the default.
    public var delay: Double?
    /// The longest wait in seconds (0...3600), or nil for the default.
    public var maximumDelay: Double?
    /// The methods retried (upper case), or nil for the idempotent ones.
    public var methods: [String]?
    /// The statuses retried, or nil for 408, 429, 500, 502, 503 and 504.
    public var statuses: [Int]?

    /// Creates a policy.
    public init(limit: Int, delay: Double? = nil, maximumDelay: Double? = nil, methods: [String]? = nil, statuses: [Int]? = nil) {
        self.limit = limit
        self.delay = delay
        self.maximumDelay = maximumDelay
        self.methods = methods
        self.statuses = statuses
    }

    /// The core's policy.
    public var policy: RetryPolicy {
        RetryPolicy(limit: limit, delay: delay ?? RetryPolicy.defaultDelay, maximumDelay: maximumDelay ?? RetryPolicy.defaultMaximumDelay,
                    methods: methods.map(Set.init) ?? RetryPolicy.defaultMethods, statuses: statuses.map(Set.init) ?? RetryPolicy.defaultStatuses)
    }

    /// The mapping as the session writer writes it.
    func yamlPairs() -> [(String, YAMLValue)] {
        var pairs = KeyedPairs<SessionKey.RetryPolicy>()
        pairs.append((.limit, .literal(String(limit))))
        if let delay { pairs.append((.delay, .string(Assertion.durationText(delay)))) }
        if let maximumDelay { pairs.append((.maxDelay, .string(Assertion.durationText(maximumDelay)))) }
        if let methods { pairs.append((.methods, .sequence(methods.map(YAMLValue.string)))) }
        if let statuses { pairs.append((.statuses, .sequence(statuses.map { .literal(String($0)) }))) }
        return pairs.pairs
    }
}
