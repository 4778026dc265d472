/// Everything one task needs beyond its request, given when the task is made, as Alamofire's
/// `Session` takes each request's options with the call.
///
/// What is truly session-wide stays on ``URLSessionManager``: the cookie jar, the cache, the
/// trust roots (its security policy) and the default headers (its request serializer). Nothing
/// here outlives the task, so two tasks of one manager never share a setting by accident.
///
/// The idle timeout is not here: it is the request's own observed `timeoutInterval`, as in
/// AFNetworking, so the preview and the Explain view show it with the request.
public struct TaskOptions: Sendable {
    /// The response serializer that validates and decodes the response.
    public var responseSerializer: any ResponseSerializer = JSONResponseSerializer()
    /// The credential answered to a 401's Basic or Digest challenge, or nil to answer none.
    /// (Basic sent up front is the request's `Authorization` header, built by its draft.)
    public var credential: Credential?
    /// A file streamed from disk as the body, making the task an upload task; nil sends the
    /// request's own body.
    public var uploadFile: String?
    /// The most request-body bytes sent per second, or nil for no limit.
    public var uploadBytesPerSecond: Int?
    /// Where the response body is streamed, making the task a download task; nil keeps it in memory.
    public var download: Download?
    /// Bodies seen as they arrive (server-sent events, NDJSON lines, raw bytes) rather than kept
    /// whole, or nil to keep every body (a download's goes to its file either way).
    public var stream: StreamOptions?
    /// Whether redirects are followed, and how many.
    public var redirects = RedirectPolicy.standard
    /// Seconds the whole task may take (redirects, challenges, retries and their waits included),
    /// or nil for no limit.
    public var deadline: Double?
    /// The most response-body bytes kept in memory (a download's file is not limited), or nil
    /// for no limit. A body past it fails the task with ``TransportError/Reason/limitExceeded(_:)``.
    public var maximumBodyBytes: Int64? = TaskOptions.defaultMaximumBodyBytes
    /// How far a gzip or deflate body may grow when decoded, or nil to keep it encoded.
    public var decompression: DecompressionLimits? = .standard
    /// The most bytes a response's header fields may take (see
    /// ``ConnectionOptions/maximumHeaderBytes``); past it, the task fails with
    /// ``TransportError/Reason/limitExceeded(_:)``, or over HTTP/2 the connection ends.
    public var maximumHeaderBytes = ConnectionOptions.standardMaximumHeaderBytes
    /// Which proxy each request goes through (decided per request, redirects included); by
    /// default none, whatever the environment says: front ends pass ``ProxySettings/fromEnvironment``.
    public var proxy = ProxySettings.direct
    /// The client certificate presented to servers that ask for one, or nil.
    public var clientIdentity: ClientIdentity?
    /// The HTTP versions offered: automatic negotiation by default.
    public var httpVersion = HTTPVersionPreference.automatic
    /// How a transient failure (a 503, a refused connection) is retried, or nil for never.
    public var retryPolicy: RetryPolicy?
    /// The OAuth 2.0 grant whose access token is sent as `Authorization: Bearer` to the
    /// request's own origin (never to another a redirect names), or nil. The token comes from
    /// the manager's ``URLSessionManager/oauth2Tokens``; a 401 from that origin refreshes it once.
    public var oauth2: OAuth2Authorization?
    /// The task's own request interceptors, run after the credential's
    /// ``AuthenticationInterceptor`` and before ``retryPolicy``; each task gets its own copies.
    public var interceptors: [any RequestInterceptor] = []
    /// Stops the task before each stage until it is let through (a slow-motion send), or nil
    /// for none, which costs nothing.
    public var stageGate: StageGate?

    /// Where a download task streams its body.
    public struct Download: Sendable, Equatable {
        /// The file that receives the body; the bytes go to `path.part` until they are complete.
        public var path: String
        /// Whether an existing `path.part` is continued with `Range` and `If-Range`.
        public var resuming: Bool

        public init(path: String, resuming: Bool = false) {
            self.path = path
            self.resuming = resuming
        }
    }

    /// The default of ``maximumBodyBytes``: 256 MiB.
    public static let defaultMaximumBodyBytes: Int64 = 256 << 20

    /// The in-memory body limit `text` gives (`500k`, `256M`, `2G`), or nil for `0`, no limit.
    ///
    /// - Parameter name: The option or key it came from, for the error.
    /// - Throws: ``NumericRangeError`` naming `name` for a value that is not a size in range.
    public static func maximumBodyBytes(parsing text: String, name: String = "max-body") throws(NumericRangeError) -> Int64? {
        let bytes = try NumericRange.bodySize.named(name).integer(parsing: text)
        return bytes == 0 ? nil : Int64(bytes)
    }

    /// Creates the defaults: the JSON serializer, redirects followed up to 10, a 256 MiB body limit.
    public init() {}

    /// The options with `responseSerializer`.
    public init(responseSerializer: any ResponseSerializer) {
        self.responseSerializer = responseSerializer
    }

    /// Every interceptor of a task, in the order they run: the credential's, the task's own,
    /// then the retry policy.
    var interceptorChain: [any RequestInterceptor] {
        var chain: [any RequestInterceptor] = credential.map { [AuthenticationInterceptor(credential: $0)] } ?? []
        chain += interceptors
        if let retryPolicy { chain.append(retryPolicy) }
        return chain
    }

    /// What the task does with the response body, as these options decide it.
    var kind: SessionTask.Kind {
        if let download { return .download(path: download.path, resuming: download.resuming) }
        return uploadFile == nil ? .data : .upload
    }
}

/// A task's OAuth 2.0 grant and how it reaches the user.
public struct OAuth2Authorization: Sendable {
    /// The grant and its endpoints, every value resolved.
    public var configuration: OAuth2Configuration
    /// How the user is shown an authorization URL or a device code.
    public var interaction: OAuth2Interaction

    /// Creates an authorization.
    public init(configuration: OAuth2Configuration, interaction: OAuth2Interaction = .none) {
        self.configuration = configuration
        self.interaction = interaction
    }
}

/// Whether a task follows redirects, and how many.
public enum RedirectPolicy: Sendable, Equatable {
    /// Every redirect response is returned as it is.
    case doNotFollow
    /// Up to `maximum` redirects are followed; the response to the next one is returned as it is.
    case follow(maximum: Int)

    /// Up to 10 redirects, as `tincan send` and a replay follow by default.
    public static let standard = RedirectPolicy.follow(maximum: 10)

    /// The most redirects followed: 0 for ``doNotFollow``.
    public var limit: Int {
        switch self {
        case .doNotFollow: 0
        case .follow(let maximum): max(0, maximum)
        }
    }

    /// The policy for a user's maximum: 0 does not follow.
    public init(maximum: Int) {
        self = maximum <= 0 ? .doNotFollow : .follow(maximum: maximum)
    }
}
