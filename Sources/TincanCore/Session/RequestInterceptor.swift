/// Changes each request of a task just before it is sent (Alamofire's `RequestAdapter`).
///
/// A task holds its own copy of each adapter (they are values in ``TaskOptions/interceptors``),
/// so an adapter may keep per-task state in its stored properties: the authorization it answered
/// a challenge with, a count of retries.
public protocol RequestAdapter: Sendable {
    /// Adapts `request`, the next hop of the task (its first request, a redirect's, or a retry),
    /// before it is sent. Cookies, cache validators and a resumed download's range are added
    /// after every adapter has run.
    mutating func adapt(_ request: inout HTTPRequest)
}

/// Decides whether a request is sent again after a response head or a transport error
/// (Alamofire's `RequestRetrier`).
///
/// The runner asks a response's retriers as soon as its head arrives, so the body of a response
/// that is retried is dropped rather than read into memory; a redirect that is followed, and a
/// 304 that refreshes the cache, are never offered. It asks again after a transport error
/// (a cancelled task, or one past its deadline, is never offered).
public protocol RequestRetrier: Sendable {
    /// Whether the request in `attempt` is sent again, after how long, and why.
    mutating func retry(_ attempt: RequestAttempt) -> RetryDecision
}

/// Adapts and retries a task's requests (Alamofire's `RequestInterceptor`).
///
/// A task runs its interceptors in order: every adapter before each send, then the retriers
/// after each response head or transport error until one says ``RetryDecision/retry(_:after:)``.
/// The built-in ones are ``AuthenticationInterceptor`` (answers a 401 challenge with
/// ``TaskOptions/credential``, always first) and ``RetryPolicy`` (``TaskOptions/retryPolicy``,
/// always last); ``TaskOptions/interceptors`` run between them.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Leaves the request as it is.
    public mutating func adapt(_ request: inout HTTPRequest) {}

    /// Never retries.
    public mutating func retry(_ attempt: RequestAttempt) -> RetryDecision { .doNotRetry }
}

/// One sending of a request and how it ended, as a ``RequestRetrier`` sees it.
public struct RequestAttempt: Sendable {
    /// The request as it was sent (adapted, with cookies and validators).
    public var request: HTTPRequest
    /// The response head, or nil when the request failed below HTTP.
    public var response: HTTPResponse?
    /// The transport error, or nil when a response head arrived.
    public var error: TransportError?
    /// How many times the task has been retried so far, for any reason.
    public var retryCount: Int

    /// Creates an attempt.
    public init(request: HTTPRequest, response: HTTPResponse? = nil, error: TransportError? = nil, retryCount: Int = 0) {
        self.request = request
        self.response = response
        self.error = error
        self.retryCount = retryCount
    }
}

/// What a retrier decided about an attempt.
public enum RetryDecision: Sendable, Equatable {
    /// The attempt stands; the next retrier is asked.
    case doNotRetry
    /// The attempt stands, and the report says why it was not retried although it could have
    /// been (the limit was reached, the body cannot be sent again); no other retrier is asked.
    case doNotRetryBecause(String)
    /// Send the request again after `delay` seconds (0 for at once).
    case retry(RetryReason, after: Double)
}
