import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// The transport on swift-server/async-http-client's delegate API.
///
/// The delegate API runs at curl's speed with flat memory; iterating the body with `for try await`
/// measured 2.5 to 3 times slower here. AsyncHTTPClient's own redirect handling is off: the
/// session manager follows redirects so that each hop is recorded and cookies apply per hop.
public final class AsyncHTTPClientTransport: Transport {
    /// The clients, one per connection setting met so far: AsyncHTTPClient sets the proxy and
    /// the client certificate per client, so requests that differ in them cannot share one (nor
    /// its connections, which is right: a pooled connection made through a proxy or with a
    /// certificate must not serve a request without). The direct, certificate-less client is
    /// made at once; the others on first use, and all live until ``shutdown()``.
    private let clients: Mutex<Clients>
    /// The one event loop of this transport's requests and connections: a body stream can then
    /// end in the same turn as its last write on the connection's own loop (see UploadStream).
    private let eventLoop: any EventLoop
    /// The loop as a task executor: a task that runs on it sends, receives and decodes on one thread.
    public let taskExecutor: (any TaskExecutor)?
    /// What server certificates are checked against, to say why one was refused.
    private let trust: TLSDiagnosis.Trust
    private let tlsConfiguration: TLSConfiguration
    private let connectTimeout: Double

    private struct Clients {
        var byConnection: [ConnectionOptions: HTTPClient] = [:]
        var isShutDown = false
    }

    /// Creates a transport with its own client.
    ///
    /// - Parameters:
    ///   - tlsConfiguration: TLS settings; certificate verification is on by default.
    ///   - connectTimeout: Seconds to set up a connection.
    ///   - trust: What `tlsConfiguration` trusts, for the words of a refused certificate.
    public init(tlsConfiguration: TLSConfiguration = .tincanClient(), connectTimeout: Double = 30, trust: TLSDiagnosis.Trust = .system) {
        self.trust = trust
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        self.eventLoop = eventLoop
        self.taskExecutor = EventLoopExecutor(eventLoop)
        self.tlsConfiguration = tlsConfiguration
        self.connectTimeout = connectTimeout
        let direct = Self.makeClient(ConnectionOptions(), tlsConfiguration: tlsConfiguration, connectTimeout: connectTimeout, eventLoop: eventLoop)
        clients = Mutex(Clients(byConnection: [ConnectionOptions(): direct]))
    }

    /// Starts the event-loop threads that every transport shares, on a thread of its own, and
    /// returns at once: a command that will send can have them start while it builds its
    /// request (0.7 ms of `tincan send`'s start-up). A transport made before they are up
    /// waits for them, as it would have started them.
    ///
    /// The thread then warms the runtime's caches for what the first connection will ask of
    /// them. The first time a type is described or cast to a protocol, the Swift runtime looks
    /// for its conformances in a table of about 11,000 entries, one by one, and a first request
    /// does that over a hundred times (half its 4 ms). Three of those lookups do not depend on
    /// the request and are done here, on the other core, while the command still builds it;
    /// each answer is cached for the process, so nothing else changes (1.0 ms off a `tincan
    /// send`, measured):
    /// - AsyncHTTPClient describes the event loop in each connection's logger metadata: here,
    ///   one of the loops describes itself (on its own thread, so nothing of it is read from
    ///   another; the transport may take the other loop, which is of the same types);
    /// - it describes its pool's key, an enumeration inside, through `Mirror`, whose own types
    ///   are looked up on its first use;
    /// - a cast from a class instance to a protocol first looks up Foundation's value box.
    public static func startEventLoopsInBackground() {
        Thread.detachNewThread {
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            loop.execute { _ = loop.description }
            _ = String(describing: WarmUp.reflected)
            let object: Any = WarmUp.Object()
            _ = object as? any CustomDebugStringConvertible
        }
    }

    /// What ``startEventLoopsInBackground()`` describes and casts.
    private enum WarmUp {
        case reflected
        final class Object {}
    }

    private static func makeClient(_ connection: ConnectionOptions, tlsConfiguration: TLSConfiguration, connectTimeout: Double, eventLoop: any EventLoop) -> HTTPClient {
        // Bodies are decoded by each request's ContentDecoder, within its limits.
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: connection.clientIdentity.map { $0.configuring(tlsConfiguration) } ?? tlsConfiguration,
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(seconds: connectTimeout)),
            decompression: .disabled
        )
        // A request forwarded to an HTTP proxy in absolute form is sent to the proxy as to a
        // server, without AsyncHTTPClient's proxy (which would tunnel it; see AbsoluteFormWriter).
        configuration.proxy = connection.forwardsToProxy ? nil : connection.proxy.map { proxy in
            switch proxy.kind {
            case .http: .server(host: proxy.host, port: proxy.port, authorization: proxy.credential.map { .basic(username: $0.user, password: $0.password) })
            case .socks5: .socksServer(host: proxy.host, port: proxy.port)
            }
        }
        let forwards = connection.forwardsToProxy
        // HTTP/2 is offered in ALPN unless only HTTP/1.1 is wanted (`.http2` and `.automatic`
        // both offer h2 and http/1.1, as curl does; the server chooses).
        configuration.httpVersion = connection.httpVersion == .http1_1 ? .http1Only : .automatic
        // Keeps swift-nio-http2's read buffer from growing with a download (see the aligner),
        // ends a connection at its first connection error with every request on it (the guard),
        // and announces the header list size the connection accepts.
        let headerListLimit = connection.maximumHeaderBytes
        configuration.http2ConnectionDebugInitializer = { HTTP2ConnectionGuard.install(on: $0, headerListLimit: headerListLimit) }
        configuration.http2StreamChannelDebugInitializer = HTTP2ConnectionGuard.register
        // Reads of up to 512 KiB instead of NIO's 64 KiB: a fast body (a download, an NDJSON
        // stream) takes an eighth of the read calls and writes (1.2 to 1.6 times the download
        // throughput measured).
        configuration.http1_1ConnectionDebugInitializer = { channel in
            channel.setOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 512 << 10)).flatMap {
                // NIO pools a read buffer per read of a readable event and keeps them while the
                // connection lives: one read each time bounds a connection's buffers to 512 KiB
                // (four of NIO's 64 KiB held 256 KiB; four of these would hold 2 MiB).
                channel.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
            }.flatMap {
                guard forwards else { return channel.eventLoop.makeSucceededVoidFuture() }
                return channel.eventLoop.submit { try AbsoluteFormWriter.install(on: channel) }
            }
        }
        // Tincan records no traces; without a tracer AsyncHTTPClient makes no span per request
        // (the default is the process's no-op tracer, which still had each span built and described).
        configuration.tracing.tracer = nil
        // Certificate errors must come back at once with their reason, not after retrying until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        // The client's group is the one loop, so every connection is on it; asking for the loop
        // per request instead (`.delegateAndChannel(on:)`) made AsyncHTTPClient 1.37 open a
        // second, unused connection for the first request to each host. No upstream issue is
        // known; AsyncHTTPClient is pinned to 1.37.0 in Package.swift, so an upgrade re-checks it.
        return HTTPClient(eventLoopGroupProvider: .shared(eventLoop), configuration: configuration)
    }

    /// The client for `connection`, made on first use.
    private func client(for connection: ConnectionOptions) throws(TransportError) -> HTTPClient {
        try clients.withLock { clients throws(TransportError) in
            guard !clients.isShutDown else { throw TransportError(.invalidRequest("the transport was shut down")) }
            if let client = clients.byConnection[connection] { return client }
            let client = Self.makeClient(connection, tlsConfiguration: tlsConfiguration, connectTimeout: connectTimeout, eventLoop: eventLoop)
            clients.byConnection[connection] = client
            return client
        }
    }

    /// A transport dropped without ``shutdown()`` (a session never invalidated) still shuts its
    /// clients down, in the background, instead of leaking their connections.
    deinit {
        let open = clients.withLock { $0.isShutDown ? [] : Array($0.byConnection.values) }
        for client in open { _ = client.shutdown() }
    }

    public func shutdown() async throws {
        let open = clients.withLock { clients -> [HTTPClient] in
            defer { clients.isShutDown = true }
            return clients.isShutDown ? [] : Array(clients.byConnection.values)
        }
        // Every client is shut down even when one fails; the first failure is then thrown.
        var failure: (any Error)?
        for client in open {
            do {
                try await client.shutdown()
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    public func send(
        _ request: HTTPRequest,
        options: TransportOptions,
        events: @escaping @Sendable (TransportEvent) throws -> Void
    ) async throws -> HTTPResponse {
        let head = request.wireHead
        var clientRequest: HTTPClient.Request
        do {
            var url = request.url
            url.fragment = nil
            var address = url.string
            if options.connection.forwardsToProxy, let proxy = options.connection.proxy {
                // To the proxy, as to a server; AbsoluteFormWriter puts the target back into the
                // request line from the Host header, which the wire head always carries.
                address = "http://\(proxy.host.contains(":") ? "[\(proxy.host)]" : proxy.host):\(proxy.port)\(head.target)"
            }
            clientRequest = try HTTPClient.Request(url: address, method: .init(rawValue: request.method))
        } catch {
            throw TransportError(.invalidRequest("\(error)"))
        }
        clientRequest.headers = NIOHTTP1.HTTPHeaders(head.headers.fields.map { ($0.name, $0.value) })
        if options.connection.forwardsToProxy, let credential = options.connection.proxy?.credential, !clientRequest.headers.contains(name: "Proxy-Authorization") {
            clientRequest.headers.add(name: "Proxy-Authorization", value: "Basic " + Data("\(credential.user):\(credential.password)".utf8).base64EncodedString())
        }
        let client = try client(for: options.connection)
        let pauses = options.stageGate.map { StagePauses(gate: $0, eventLoop: eventLoop, timing: options.timing) }
        let upload = request.body.length.flatMap { length in
            length > 0 ? UploadStream(body: request.body, length: length, bytesPerSecond: options.uploadBytesPerSecond, timing: options.timing, eventLoop: eventLoop, pauses: pauses) : nil
        }
        if let upload, let length = request.body.length {
            clientRequest.body = .stream(contentLength: length) { writer in upload.start(writer) }
        } else if request.body.length == 0 {
            // AsyncHTTPClient sends the head with its end and never starts a stream of length 0.
            clientRequest.body = .bytes([UInt8]())
        }
        let delegate = ResponseDelegate(url: request.url, upload: upload, uploadLength: request.body.length, options: options, pauses: pauses, eventLoop: eventLoop, events: events)
        let task = client.execute(
            request: clientRequest,
            delegate: delegate,
            eventLoop: .delegate(on: eventLoop),
            deadline: options.deadline.map { .now() + .milliseconds(seconds: $0) }
        )
        delegate.attach(task, deadline: options.deadline)
        return try await withTaskCancellationHandler {
            do {
                let response = try await task.futureResult.get()
                // 407 comes from a proxy only: one that the request was forwarded to wants
                // credentials, as when it answers CONNECT so.
                if options.connection.forwardsToProxy, response.statusCode == 407, let proxy = options.connection.proxy,
                   let reason = Self.proxyReason(HTTPClientError.proxyAuthenticationRequired, proxy: proxy) {
                    throw TransportError(.proxy(reason))
                }
                return response
            } catch is UploadStream.UploadStopped {
                // A response of 300 or more arrived before the whole body was sent, which HTTP
                // allows: AsyncHTTPClient sent no more of the body, and the response stands.
                guard let response = delegate.completeEarly() else {
                    throw TransportError(.connectionClosed("no response head arrived"))
                }
                return response
            } catch is BodyNotNeeded {
                // The caller has what it needs of this response (a redirect's body, say).
                guard let response = delegate.completeEarly() else {
                    throw TransportError(.connectionClosed("no response head arrived"))
                }
                return response
            } catch let error as HTTPClientError where error == .requestStreamCancelled {
                // The whole response arrived before the body's end was handed over: the response stands.
                guard let response = delegate.completeEarly() else {
                    throw Self.transportError(error, idleTimeout: options.idleTimeout, deadline: options.deadline, proxy: options.connection.proxy)
                }
                return response
            } catch {
                let failure = Self.transportError(error, idleTimeout: options.idleTimeout, deadline: options.deadline, proxy: options.connection.proxy)
                // BoringSSL gives one code for every refused certificate; a second look says which
                // refusal it was (directly: a second look through a proxy would not be the same look).
                if options.connection.proxy == nil, "\(error)".contains("CERTIFICATE_VERIFY_FAILED"), let host = request.url.host,
                   let reason = await TLSDiagnosis.reason(host: host, port: request.url.port ?? 443, trust: trust, eventLoop: eventLoop) {
                    throw TransportError(.tls(reason))
                }
                // Over HTTP/2, a TLS 1.3 server's refusal of the client certificate reaches
                // AsyncHTTPClient as a closed connection; a second look reads the alert (over
                // HTTP/1.1 the alert reaches the request itself). It never outlasts the deadline.
                if options.connection.proxy == nil, options.connection.httpVersion != .http1_1, case .connectionClosed = failure.reason,
                   !delegate.receivedHead, request.url.scheme?.lowercased() == "https", let host = request.url.host,
                   let alert = await TLSDiagnosis.alert(host: host, port: request.url.port ?? 443,
                                                        configuration: options.connection.clientIdentity.map { $0.configuring(tlsConfiguration) } ?? tlsConfiguration,
                                                        eventLoop: eventLoop,
                                                        limit: options.deadline.map { min(TLSDiagnosis.timeLimit, .milliseconds(seconds: $0)) } ?? TLSDiagnosis.timeLimit) {
                    let refused = Self.transportError(alert, idleTimeout: options.idleTimeout, deadline: options.deadline)
                    if case .tls = refused.reason { throw refused }
                }
                // AsyncHTTPClient drops the status of a refused CONNECT; a second ask reads it.
                if let proxy = options.connection.proxy, proxy.kind == .http, let error = error as? HTTPClientError, error == .invalidProxyResponse,
                   let host = request.url.host, let port = request.url.effectivePort,
                   let status = await ProxyDiagnosis.refusal(by: proxy, target: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)", eventLoop: eventLoop) {
                    throw TransportError(.proxy("the proxy \(proxy.address) refused to open a tunnel (it answered \(status))"))
                }
                throw failure
            }
        } onCancel: {
            pauses?.end()
            upload?.abort(TransportError(.cancelled))
            task.cancel()
        }
    }

    /// Maps AsyncHTTPClient, NIO and TLS errors to a ``TransportError`` that says what happened.
    static func transportError(_ error: any Error, idleTimeout: Double, deadline: Double?, proxy: ProxyServer? = nil) -> TransportError {
        if let error = error as? TransportError { return error }
        if let error = error as? HTTP2ConnectionError { return TransportError(.connectionClosed(error.description)) }
        if let proxy {
            if let reason = proxyReason(error, proxy: proxy) { return TransportError(.proxy(reason)) }
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded: return TransportError(.timedOut(.deadline, seconds: deadline))
            case .readTimeout: return TransportError(.timedOut(.idle, seconds: idleTimeout))
            case .connectTimeout: return TransportError(.timedOut(.connect, seconds: nil))
            case .cancelled: return TransportError(.cancelled)
            case .remoteConnectionClosed: return TransportError(.connectionClosed("the server closed the connection"))
            default: return TransportError(.other("\(error)"))
            }
        }
        // NIO's parser names a body cut short by the server closing the connection "stream ended at
        // an unexpected time"; it is a connection closed early, which a retry policy may retry.
        if let error = error as? HTTPParserError, error == .invalidEOFState {
            return TransportError(.connectionClosed("the server closed the connection before the response was complete"))
        }
        if let error = error as? NIOSSLError { return TransportError(.tls(tlsReason(error))) }
        if let error = error as? BoringSSLError { return TransportError(.tls(tlsReason(boringSSL: "\(error)"))) }
        if let error = error as? NIOSSLExtraError {
            if error == .failedToValidateHostname { return TransportError(.tls("the certificate does not name this host (\(error))")) }
            return TransportError(.tls("\(error)"))
        }
        if let error = error as? NIOConnectionError {
            let reason = error.connectionErrors.first.map { "\($0.error)" } ?? error.dnsAAAAError.map { "\($0)" } ?? "\(error)"
            return TransportError(.cannotConnect("\(error.host):\(error.port): \(reason)"))
        }
        if let error = error as? IOError { return TransportError(.cannotConnect(String(cString: strerror(error.errnoCode)))) }
        if error is CancellationError { return TransportError(.cancelled) }
        return TransportError(.other("\(error)"))
    }

    /// What went wrong with `proxy`, when `error` is the proxy's doing: it could not be reached,
    /// or it refused the tunnel. Nil for errors past the proxy (TLS with the target, timeouts).
    static func proxyReason(_ error: any Error, proxy: ProxyServer) -> String? {
        let name = "the proxy \(proxy.address)"
        if let error = error as? HTTPClientError {
            switch error {
            case .invalidProxyResponse: return "\(name) refused to open a tunnel (it answered CONNECT with a status other than 2xx)"
            case .proxyAuthenticationRequired: return "\(name) wants credentials (407 Proxy Authentication Required)\(proxy.credential == nil ? "; give them in the proxy URL" : ", and refused the ones given")"
            case .httpProxyHandshakeTimeout: return "\(name) did not answer CONNECT in time"
            case .socksHandshakeTimeout: return "\(name) did not answer the SOCKS handshake in time"
            case .remoteConnectionClosed: return nil
            default: break
            }
        }
        if let error = error as? NIOConnectionError {
            let reason = error.connectionErrors.first.map { "\($0.error)" } ?? error.dnsAAAAError.map { "\($0)" } ?? "\(error)"
            return "cannot connect to \(name): \(reason)"
        }
        if let error = error as? IOError { return "cannot connect to \(name): \(String(cString: strerror(error.errnoCode)))" }
        if String(describing: type(of: error)).hasPrefix("SOCKS") { return "\(name) refused the SOCKS connection (\(error))" }
        return nil
    }

    /// BoringSSL's error text in words, without its internal codes and source paths
    /// (`… at …/handshake.cc:320`), which say nothing to a user.
    static func tlsReason(boringSSL text: String) -> String {
        let known: [(String, String)] = [
            ("CERTIFICATE_VERIFY_FAILED", "the server's certificate could not be verified: it has expired, is self-signed, or was issued by an authority this machine does not trust (--ca-file names one to trust)"),
            ("NO_CERTIFICATE_OR_CRL_FOUND", "the CA file holds no certificate"),
            ("WRONG_VERSION_NUMBER", "the server did not answer in TLS (is it plain http?)"),
            ("TLSV1_ALERT_PROTOCOL_VERSION", "the server and Tincan share no TLS version (Tincan accepts TLS 1.2 and later unless --tls-min says otherwise)"),
            ("UNSUPPORTED_PROTOCOL", "the server speaks only a TLS version older than 1.2, which Tincan refuses (\(TLSMinimum.deprecationReason); --tls-min 1.0 allows it)"),
            ("SSLV3_ALERT_HANDSHAKE_FAILURE", "the server refused the handshake (no shared cipher, or it wants a client certificate)"),
            ("CERTIFICATE_REQUIRED", "the server wants a client certificate"),
            ("UNKNOWN_CA", "the server does not trust the client certificate's issuer"),
        ]
        if let (_, words) = known.first(where: { text.contains($0.0) }) { return words }
        // Unknown errors keep BoringSSL's reason name, without the path of the file that raised it.
        let withoutPaths = text.replacingOccurrences(of: #" at /[^\]\)]*"#, with: "", options: .regularExpression)
        return "handshake failed: \(withoutPaths)"
    }

    static func tlsReason(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let underlying): return tlsReason(boringSSL: "\(underlying)")
        case .unableToValidateCertificate: return "the certificate could not be validated"
        case .uncleanShutdown: return "the server closed the connection without a TLS close"
        default: return "\(error)"
        }
    }
}

/// Receives one response through AsyncHTTPClient's delegate callbacks.
///
/// AsyncHTTPClient calls these on the task's event loop; the state still sits behind one
/// `Mutex`, so that `attach` (from the caller) and the idle timer are safe too.
final class ResponseDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = HTTPResponse

    private struct State {
        var task: HTTPClient.Task<HTTPResponse>?
        var response: HTTPResponse?
        var uploaded: Int64 = 0
        var downloaded: Int64 = 0
        /// A body part arrived (an empty first part counts: a slow-motion send stops at one only).
        var receivedBodyPart = false
        /// Content-Length, read once from the head rather than on every chunk.
        var expectedLength: Int64?
        /// The body length after which a response that stopped the upload is complete.
        var stoppedUploadCompletesAt: Int64?
        /// When a byte last moved, on ``timing``.
        var lastActivity = Duration.zero
        var idleTimer: Timing.ScheduledAction?
        var deadlineTimer: Scheduled<Void>?
    }

    private let url: URLReference
    private let upload: UploadStream?
    private let uploadLength: Int64?
    private let idleTimeout: Duration
    private let idleSeconds: Double
    /// The clock of the idle timeout: the session manager's.
    private let timing: Timing
    private let maximumHeaderBytes: Int
    private let events: @Sendable (TransportEvent) throws -> Void
    private let state = Mutex(State())
    private let decompression: DecompressionLimits?
    /// The current response's decoder, when its body is gzip or deflate; used on the event loop only.
    private let decoder: NIOLoopBoundBox<ContentDecoder?>
    /// The request's slow-motion stops, or nil (almost always): then no stop is looked at.
    private let pauses: StagePauses?

    init(url: URLReference, upload: UploadStream?, uploadLength: Int64?, options: TransportOptions, pauses: StagePauses? = nil, eventLoop: any EventLoop, events: @escaping @Sendable (TransportEvent) throws -> Void) {
        self.pauses = pauses
        self.url = url
        self.upload = upload
        self.uploadLength = uploadLength
        self.idleSeconds = options.idleTimeout
        self.maximumHeaderBytes = options.connection.maximumHeaderBytes
        self.idleTimeout = .seconds(options.idleTimeout)
        self.timing = options.timing
        self.decompression = options.decompression
        self.decoder = .makeEmptyBox(valueType: ContentDecoder.self, eventLoop: eventLoop)
        self.events = events
    }

    func attach(_ task: HTTPClient.Task<HTTPResponse>, deadline: Double?) {
        state.withLock {
            $0.task = task
            $0.lastActivity = timing.now()
        }
        armIdleTimer(on: task.eventLoop, in: idleTimeout)
        if let upload, let deadline {
            // AsyncHTTPClient's own deadline cannot end a request whose body stream is still
            // open (see UploadStream.abort): this one ends the stream first.
            let scheduled = task.eventLoop.scheduleTask(in: .milliseconds(seconds: deadline)) { [weak self] in
                guard let self, let task = self.state.withLock({ $0.task }) else { return }
                let error = TransportError(.timedOut(.deadline, seconds: deadline))
                upload.abort(error)
                task.fail(reason: error)
            }
            state.withLock { $0.deadlineTimer = scheduled }
        }
    }

    /// Notes that a byte moved. The per-chunk path only stores a time; the one pending timer
    /// looks at it when it fires, rather than being cancelled and scheduled again on every chunk.
    private func touch() {
        let now = timing.now()
        state.withLock { $0.lastActivity = now }
    }

    /// Arms the idle check `delay` from now, on ``timing`` (the event loop's own timer for the
    /// real clock); when it finds bytes kept moving, or a slow-motion stop holding the request,
    /// it arms again for the time left, and otherwise fails the task with an idle timeout.
    private func armIdleTimer(on eventLoop: any EventLoop, in delay: Duration) {
        let scheduled = timing.schedule(delay, eventLoop) { [weak self] in
            guard let self, let (task, lastActivity) = self.state.withLock({ state in state.task.map { ($0, state.lastActivity) } }) else { return }
            let now = self.timing.now()
            guard let next = IdleTimeout.nextCheck(now: now, lastActivity: lastActivity, timeout: self.idleTimeout,
                                                   paused: self.pauses?.isPaused ?? false, resumedAt: self.pauses?.resumedAt) else {
                let error = TransportError(.timedOut(.idle, seconds: self.idleSeconds))
                self.upload?.abort(error)
                task.fail(reason: error)
                return
            }
            self.armIdleTimer(on: eventLoop, in: next - now)
        }
        state.withLock { $0.idleTimer = scheduled }
    }

    private func cancelIdleTimer() {
        pauses?.end()
        state.withLock {
            $0.idleTimer?.cancel()
            $0.deadlineTimer?.cancel()
            $0.task = nil
        }
    }

    /// Delivers an event the request itself does not depend on; a handler error there is ignored.
    private func report(_ event: TransportEvent) {
        try? events(event)
    }

    /// Delivers an event whose handler may stop the request: its error fails the task.
    private func deliver(_ event: TransportEvent, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        do {
            try events(event)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func didSendRequestHead(task: HTTPClient.Task<HTTPResponse>, _ head: HTTPRequestHead) {
        touch()
        report(.requestHeadSent)
    }

    func didSendRequestPart(task: HTTPClient.Task<HTTPResponse>, _ part: IOData) {
        let uploaded = state.withLock { state in
            state.lastActivity = timing.now()
            state.uploaded += Int64(part.readableBytes)
            return state.uploaded
        }
        report(.uploadProgress(TransferProgress(completed: uploaded, expected: uploadLength)))
    }

    func didSendRequest(task: HTTPClient.Task<HTTPResponse>) {
        report(.requestSent)
    }

    func didReceiveHead(task: HTTPClient.Task<HTTPResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        touch()
        // The header fields as HTTP/2 counts them (RFC 9113 §6.5.2: name, value and 32 bytes a
        // field), over either version: NIO holds HTTP/1.1 heads to 80 KiB and HTTP/2 blocks to the
        // size the connection announced, and this holds both to the request's own limit.
        let headerBytes = head.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
        if headerBytes > maximumHeaderBytes {
            return task.eventLoop.makeFailedFuture(TransportError(.limitExceeded(
                "the response's header fields take \(headerBytes) bytes, more than the \(maximumHeaderBytes) allowed (--max-header-size)")))
        }
        let response = HTTPResponse(
            url: url, statusCode: Int(head.status.code), headers: TincanCore.HTTPHeaders(head.headers.map { ($0.name, $0.value) }),
            version: HTTPVersion(major: head.version.major, minor: head.version.minor) ?? .http1_1)
        state.withLock {
            $0.response = response
            $0.expectedLength = response.expectedContentLength
        }
        if let decompression {
            decoder.value = ContentDecoder(contentEncoding: response.headers["Content-Encoding"], limits: decompression)
        }
        let early = upload?.responseHeadArrived(status: response.statusCode) ?? UploadStream.EarlyHead.none
        if let upload, case .stopped = early {
            // The writer ends the body stream once this response is complete: when its length
            // (counted on the wire, before any decoding) says so, else now. A 204 or 304 has no
            // body whatever its Content-Length says.
            if let length = response.expectedContentLength, length > 0, ![204, 304].contains(response.statusCode) {
                state.withLock { $0.stoppedUploadCompletesAt = length }
            } else {
                upload.responseCompleted()
            }
        }
        let delivered = if let pauses {
            // Slow motion: the head waits here before the delegate hears of it, and AsyncHTTPClient
            // reads no body until this future completes.
            pauses.pause(before: .responseHead).flatMap { self.deliver(.responseHead(response), on: task.eventLoop) }
        } else {
            deliver(.responseHead(response), on: task.eventLoop)
        }
        guard case .held(let held) = early else { return delivered }
        return delivered.flatMap { held }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<HTTPResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        // One lock per chunk: the idle timestamp and the count together.
        let (downloaded, expected, completesUpload, isFirst) = state.withLock { state in
            state.lastActivity = timing.now()
            let isFirst = !state.receivedBodyPart
            state.receivedBodyPart = true
            state.downloaded += Int64(buffer.readableBytes)
            return (state.downloaded, state.expectedLength, state.stoppedUploadCompletesAt.map { state.downloaded >= $0 } ?? false, isFirst)
        }
        if isFirst, let pauses {
            // Slow motion: the first part waits, and with it the socket (AsyncHTTPClient's backpressure).
            return pauses.pause(before: .responseBody).flatMap { self.didReceiveBodyPartNow(buffer, downloaded: downloaded, expected: expected, completesUpload: completesUpload, on: task.eventLoop) }
        }
        return didReceiveBodyPartNow(buffer, downloaded: downloaded, expected: expected, completesUpload: completesUpload, on: task.eventLoop)
    }

    /// Hands a body part on: every part of an ungated request (inlined, so its per-chunk path is
    /// what it was), and a gated first part once its stop is let through.
    @inline(__always)
    private func didReceiveBodyPartNow(_ buffer: ByteBuffer, downloaded: Int64, expected: Int64?, completesUpload: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        if completesUpload { upload?.responseCompleted() }
        // Progress counts the bytes on the wire, as Content-Length does; the body gets them decoded.
        let progress = TransferProgress(completed: downloaded, expected: expected)
        guard let decoder = decoder.value else {
            return deliver(.bodyChunk(buffer, progress), on: eventLoop)
        }
        do {
            try decoder.decode(buffer) { decoded in try events(.bodyChunk(decoded, progress)) }
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    /// Whether a response head arrived.
    var receivedHead: Bool { state.withLock { $0.response != nil } }

    /// The response head, for a response that arrived whole before the request body was sent;
    /// stops the idle timer.
    func completeEarly() -> HTTPResponse? {
        cancelIdleTimer()
        return state.withLock { $0.response }
    }

    func didReceiveError(task: HTTPClient.Task<HTTPResponse>, _ error: any Error) {
        cancelIdleTimer()
        upload?.responseCompleted()
    }

    func didFinishRequest(task: HTTPClient.Task<HTTPResponse>) throws -> HTTPResponse {
        cancelIdleTimer()
        upload?.responseCompleted()
        guard let response = state.withLock({ $0.response }) else {
            throw TransportError(.connectionClosed("no response head arrived"))
        }
        try decoder.value?.finish()
        return response
    }
}

extension TimeAmount {
    /// Seconds as a time amount that cannot trap: the numbers users give are range-checked
    /// where they are read (NumericRange), and this keeps any other caller's NaN, infinity or
    /// 1e17 from overflowing the conversion (clamped to 0…1e9 seconds, about 31 years).
    static func milliseconds(seconds: Double) -> TimeAmount {
        .milliseconds(Int64((seconds.isNaN ? 0 : min(max(seconds, 0), 1e9)) * 1000))
    }
}
