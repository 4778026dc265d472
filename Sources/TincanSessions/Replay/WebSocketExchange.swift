import Foundation
import TincanCore

/// A WebSocket request's conversation as the replay carries it out: connect, send every
/// message, wait for ``SavedWebSocket/expectedMessages`` messages back (or the server's close),
/// close with 1000; then the exchange as a ``TaskResult`` the checks read, whose `stream` holds
/// the messages received (``WebSocketFrameLog/streamSummary``).
public enum WebSocketExchange {
    /// What one conversation gave.
    public struct Outcome: Sendable {
        /// The exchange as the checks see it: status 101 once the handshake was answered, the
        /// received messages as the stream, the failure as a transport error.
        public var result: TaskResult
        /// Every frame, both ways, bounded.
        public var log: WebSocketFrameLog
    }

    /// Runs `webSocket`'s conversation on the handshake `request` with the task's proxy, client
    /// certificate and OAuth 2.0 grant (its bearer token from `manager`'s store), and `manager`'s
    /// trust and cookie jar (the 101's `Set-Cookie` stored in it).
    ///
    /// The wait for messages lasts the request's `max-time:` when it has one, else its timeout
    /// (`properties: timeout:`, 60 s by default): a server that stays silent fails the request
    /// with the messages it did send kept for the checks.
    ///
    /// - Parameter more: Messages typed after the saved ones (the TUI): given, the connection
    ///   stays open, neither counting messages nor timing the wait, until it finishes.
    public static func run(_ webSocket: SavedWebSocket, request: HTTPRequest, options: TaskOptions, manager: URLSessionManager,
                           more: AsyncStream<String>? = nil, onFrame: @escaping @Sendable (WebSocketFrameRecord) -> Void = { _ in }) async -> Outcome {
        let limits = webSocket.limits
        var request = request
        // An OAuth 2.0 grant's token goes on the handshake, got as a task gets it.
        let (tokenRequests, failure) = await manager.authorizeWithBearer(&request, options: options)
        if let failure {
            var result = TaskResult(request: request)
            result.transportError = failure
            result.tokenRequests = tokenRequests
            return Outcome(result: result, log: WebSocketFrameLog(capacity: limits.keptFrames))
        }
        let seconds = options.deadline ?? request.properties.timeoutInterval
        let connection = WebSocketConnection(request: request, securityPolicy: manager.securityPolicy, proxy: options.proxy, clientIdentity: options.clientIdentity,
                                             cookieJar: manager.cookieJar, limits: limits, connectTimeout: .seconds(request.properties.timeoutInterval))
        let (outgoing, continuation) = AsyncStream<WebSocketOutgoing>.makeStream()
        let expected = webSocket.expectedMessages
        let log = SharedState(WebSocketFrameLog(capacity: limits.keptFrames))
        for message in webSocket.messages { continuation.yield(message) }
        if expected == 0, more == nil { continuation.finish() }
        let started = ContinuousClock.now
        let timedOut = SharedState(false)
        let timer = Task {
            if let more {
                for await text in more { continuation.yield(.text(text)) }
            } else {
                try await Task.sleep(for: .seconds(seconds))
                timedOut.withLock { $0 = true }
            }
            continuation.finish()
        }
        let counts = more == nil
        var result = TaskResult(request: request)
        result.tokenRequests = tokenRequests
        do {
            _ = try await connection.run(outgoing: outgoing) { frame in
                let received = log.withLock { log in
                    log.append(frame)
                    return log.receivedMessages
                }
                if counts, frame.direction == .received, frame.kind != .close, received >= expected { continuation.finish() }
                onFrame(frame)
            }
            result.response = HTTPResponse(url: request.url, statusCode: 101)
        } catch {
            result.transportError = error
        }
        timer.cancel()
        let frames = log.value
        if frames.total > 0 { result.response = HTTPResponse(url: request.url, statusCode: 101) }
        if result.transportError == nil, timedOut.value, frames.receivedMessages < expected {
            result.transportError = TransportError(.other("timed out: \(frames.receivedMessages) of \(expected) WebSocket messages came back within \(DecimalText.fixed(seconds, decimals: seconds.rounded() == seconds ? 0 : 3)) s (max-time:, else properties: timeout:)"))
        }
        result.stream = frames.streamSummary
        result.metrics = TaskMetrics(total: ContinuousClock.now - started, requestCount: 1)
        return Outcome(result: result, log: frames)
    }
}
