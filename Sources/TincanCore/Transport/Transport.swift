import NIOCore

/// How many bytes of a transfer are done, and how many are expected.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public var completed: Int64
    /// Bytes expected in all, or nil when the length is unknown (the progress is indeterminate).
    public var expected: Int64?

    /// Creates a progress value.
    public init(completed: Int64 = 0, expected: Int64? = nil) {
        self.completed = completed
        self.expected = expected
    }

    /// The fraction done, from 0 to 1, or nil when indeterminate.
    public var fractionCompleted: Double? {
        guard let expected, expected > 0 else { return expected == 0 ? 1 : nil }
        return min(1, Double(completed) / Double(expected))
    }
}

/// What a transport reports while it sends one request, in order.
public enum TransportEvent: Sendable {
    /// The request head was written: the connection is up (DNS, TCP and TLS are done).
    case requestHeadSent
    /// Body bytes were written.
    case uploadProgress(TransferProgress)
    /// The whole request was written.
    case requestSent
    /// The response head arrived.
    case responseHead(HTTPResponse)
    /// Body bytes arrived, as the transport received them (not copied).
    case bodyChunk(ByteBuffer, TransferProgress)
}

/// How one request is sent.
public struct TransportOptions: Sendable {
    /// Seconds without any byte sent or received before the request fails.
    public var idleTimeout: Double
    /// Seconds the whole request may take, or nil for no limit.
    public var deadline: Double?
    /// The most body bytes sent per second, or nil for no limit (for demonstrations: progress you can watch).
    public var uploadBytesPerSecond: Int?
    /// How far a gzip or deflate body may grow as it is decoded, or nil to keep such bodies
    /// encoded, as they came.
    public var decompression: DecompressionLimits?
    /// How the connection is made: through which proxy, presenting which client certificate.
    public var connection: ConnectionOptions
    /// Where the request stops until it is let through: before the body's first write, and
    /// before the response head and the first body part are handed on; nil for no stops.
    public var stageGate: StageGate?
    /// The clock an upload is paced by (``uploadBytesPerSecond``): the session manager's.
    public var timing: Timing

    public init(idleTimeout: Double = 60, deadline: Double? = nil, uploadBytesPerSecond: Int? = nil, decompression: DecompressionLimits? = .standard,
                connection: ConnectionOptions = ConnectionOptions(), stageGate: StageGate? = nil, timing: Timing = .continuous) {
        self.stageGate = stageGate
        self.timing = timing
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.uploadBytesPerSecond = uploadBytesPerSecond
        self.decompression = decompression
        self.connection = connection
    }
}

/// What a connection is made with, beyond the transport's trust settings: the proxy it goes
/// through, the client certificate it presents and the HTTP versions it offers. AsyncHTTPClient
/// sets these per client, not
/// per request, so ``AsyncHTTPClientTransport`` keeps one client for each value it meets.
public struct ConnectionOptions: Sendable, Hashable {
    /// The proxy, or nil to connect directly.
    public var proxy: ProxyServer?
    /// Whether requests go to the HTTP proxy in absolute form rather than through a tunnel
    /// (``ProxyRoute/forwardsInAbsoluteForm``).
    public var forwardsToProxy: Bool
    /// The client certificate and key, or nil to present none.
    public var clientIdentity: ClientIdentity?
    /// The HTTP versions offered (AsyncHTTPClient sets it per client too).
    public var httpVersion: HTTPVersionPreference
    /// The most bytes a response's header fields may take (names and values, and 32 a field, as
    /// HTTP/2 counts them); an HTTP/2 connection announces it as `SETTINGS_MAX_HEADER_LIST_SIZE`.
    public var maximumHeaderBytes: Int

    /// The default header limit, 64 KiB: nghttp2's limit on one header field (curl's limit on a
    /// whole response head is 300 KiB; swift-nio's 80 KiB for HTTP/1.1 and 16 KiB for HTTP/2).
    public static let standardMaximumHeaderBytes = 64 * 1024

    public init(proxy: ProxyServer? = nil, forwardsToProxy: Bool = false, clientIdentity: ClientIdentity? = nil, httpVersion: HTTPVersionPreference = .automatic,
                maximumHeaderBytes: Int = ConnectionOptions.standardMaximumHeaderBytes) {
        self.proxy = proxy
        self.forwardsToProxy = forwardsToProxy && proxy?.kind == .http
        self.clientIdentity = clientIdentity
        self.httpVersion = httpVersion
        self.maximumHeaderBytes = maximumHeaderBytes
    }
}

/// Thrown by a transport event handler to stop reading a response whose body it does not need
/// (a redirect's or a challenge's that goes on and on): the response stands as it is, and the
/// connection is closed rather than drained.
public struct BodyNotNeeded: Error, Sendable {
    public init() {}
}

/// Sends one request and streams back the response, without following redirects.
///
/// Redirects, cookies, caching and authentication are the session manager's work, so that
/// every hop is visible and each rule is Tincan's own.
public protocol Transport: Sendable {
    /// Sends `request`, reporting each step through `events`, and returns the response head once
    /// the body has been delivered in `.bodyChunk` events. When `events` throws (a full disk, a
    /// resume the server got wrong), the request stops and fails with that error.
    ///
    /// - Parameters:
    ///   - request: The request; its wire head is sent as ``HTTPRequest/wireHead`` shows it.
    ///   - options: Timeouts and the upload rate limit.
    /// - Throws: ``TransportError``.
    func send(
        _ request: HTTPRequest,
        options: TransportOptions,
        events: @escaping @Sendable (TransportEvent) throws -> Void
    ) async throws -> HTTPResponse

    /// Stops the transport; requests still running fail.
    func shutdown() async throws

    /// An executor on the thread that does the transport's I/O, or nil when it has none. Tasks
    /// of a manager made with ``URLSessionManager/TaskScheduling/transportLoop`` run there.
    var taskExecutor: (any TaskExecutor)? { get }
}

extension Transport {
    public var taskExecutor: (any TaskExecutor)? { nil }
}

/// Why a request failed below HTTP: connecting, TLS, a timeout, or cancellation.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// Which timeout fired.
    public enum Timeout: String, Sendable {
        /// No byte was sent or received for the idle timeout.
        case idle
        /// The whole request took longer than its deadline.
        case deadline
        /// The connection could not be set up in time.
        case connect
    }

    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        case cannotConnect(String)
        case tls(String)
        case timedOut(Timeout, seconds: Double?)
        case cancelled
        case connectionClosed(String)
        case invalidRequest(String)
        /// The cache policy allows only cached data, and there is none.
        case notCached
        /// Writing a download to disk failed.
        case fileWrite(path: String, reason: String)
        /// The server's response could not be used (a resume that starts at the wrong byte, say).
        case badResponse(String)
        /// The response passed a limit that keeps memory and disk bounded (the body kept in
        /// memory, or how far a compressed body may grow).
        case limitExceeded(String)
        /// The proxy could not be reached, or refused to open the tunnel.
        case proxy(String)
        /// No OAuth 2.0 access token could be had for the request (``OAuth2Error``'s words).
        case authorization(String)
        case other(String)
    }

    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .cannotConnect(let detail): "cannot connect: \(detail)"
        case .tls(let detail): "TLS failed: \(detail)"
        case .timedOut(.idle, let seconds): "timed out: no data for \(seconds.map(Self.seconds) ?? "the idle timeout") (idle timeout)"
        case .timedOut(.deadline, let seconds): "timed out: the request took longer than \(seconds.map(Self.seconds) ?? "its deadline") (request deadline)"
        case .timedOut(.connect, _): "timed out while connecting (connect timeout)"
        case .cancelled: "cancelled"
        case .connectionClosed(let detail): "the connection closed: \(detail)"
        case .invalidRequest(let detail): "invalid request: \(detail)"
        case .notCached: "no cached response, and the cache policy forbids loading"
        case .fileWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .badResponse(let detail): "unusable response: \(detail)"
        case .limitExceeded(let detail): "response too large: \(detail)"
        case .proxy(let detail): "proxy failed: \(detail)"
        case .authorization(let detail): detail
        case .other(let detail): detail
        }
    }

    private static func seconds(_ value: Double) -> String {
        "\(ParameterValue.format(value)) s"
    }
}
