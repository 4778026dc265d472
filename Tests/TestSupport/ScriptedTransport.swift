import NIOCore
import Synchronization
import TincanCore

/// A transport with no socket: each request it is given is answered by a script, and kept.
///
/// The session manager's pipeline (redirects, cookies, the cache, authentication challenges,
/// retries) runs over it as over the real transport, so each rule can be tested without a server
/// and without waiting: a reply can also be held until the test lets it through.
public final class ScriptedTransport: Transport {
    /// What the script answers one request with.
    public enum Reply: Sendable {
        /// A response head and its body, delivered in chunks of at most `chunkSize` bytes.
        case response(HTTPResponse, body: [UInt8] = [], chunkSize: Int = 16_384)
        /// A failure below HTTP.
        case failure(TransportError)
    }

    private let script: @Sendable (_ request: HTTPRequest, _ index: Int) async throws -> Reply
    private let sent = Mutex<[HTTPRequest]>([])
    private let waiters = Mutex<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])

    /// A transport that answers the request numbered `index` (from 0) with what `script` gives.
    public init(_ script: @escaping @Sendable (_ request: HTTPRequest, _ index: Int) async throws -> Reply) {
        self.script = script
    }

    /// A transport that answers the requests in order with `replies`; a request beyond them fails.
    public convenience init(replies: [Reply]) {
        self.init { _, index in
            index < replies.count ? replies[index] : .failure(TransportError(.other("the script has no reply for request \(index + 1)")))
        }
    }

    /// Every request given so far, in order.
    public var requests: [HTTPRequest] { sent.withLock { $0 } }

    /// Returns once at least `count` requests have been given.
    public func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = sent.withLock { sent in
                if sent.count >= count { return true }
                waiters.withLock { $0.append((count, continuation)) }
                return false
            }
            if reached { continuation.resume() }
        }
    }

    public func send(_ request: HTTPRequest, options: TransportOptions, events: @escaping @Sendable (TransportEvent) throws -> Void) async throws -> HTTPResponse {
        let (index, ready) = sent.withLock { sent in
            sent.append(request)
            let count = sent.count
            let ready = waiters.withLock { waiters in
                let ready = waiters.filter { $0.count <= count }.map(\.continuation)
                waiters.removeAll { $0.count <= count }
                return ready
            }
            return (count - 1, ready)
        }
        for waiter in ready { waiter.resume() }
        try events(.requestHeadSent)
        try events(.requestSent)
        let reply: Reply
        do {
            reply = try await script(request, index)
        } catch is CancellationError {
            throw TransportError(.cancelled)
        }
        switch reply {
        case .failure(let error):
            throw error
        case .response(let response, let body, let chunkSize):
            try events(.responseHead(response))
            let expected = response.headers["Content-Length"].flatMap { Int64($0) }
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + max(1, chunkSize))
                try events(.bodyChunk(ByteBuffer(bytes: body[offset..<end]), TransferProgress(completed: Int64(end), expected: expected)))
                offset = end
            }
            return response
        }
    }

    public func shutdown() async throws {}
}
