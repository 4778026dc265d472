import Foundation
import Synchronization
import TincanCore

/// The last requests a demo server received, as bytes (``ReceivedRequest``), for the
/// `/__received` routes and `tincan serve --show`.
///
/// Bounded whatever clients send: the newest ``capacity`` requests (a request still arriving is
/// kept before finished ones), each head and body kept up to ``bytesLimit`` with its true length
/// beside it.
public final class ReceivedRequests: Sendable {
    /// How many requests are kept.
    public let capacity: Int
    /// How many bytes of each head, and of each body, are kept.
    public let bytesLimit: Int
    private let state = Mutex(State())
    private let onComplete: (@Sendable (ReceivedRequest) -> Void)?

    private struct State {
        var nextID = 1
        /// Oldest first.
        var requests: [ReceivedRequest] = []
    }

    /// Creates an empty record.
    ///
    /// - Parameter onComplete: Called with each request once its last byte arrived (or its
    ///   connection closed first), on the connection's thread.
    public init(capacity: Int = 32, bytesLimit: Int = 64 * 1024, onComplete: (@Sendable (ReceivedRequest) -> Void)? = nil) {
        self.capacity = max(1, capacity)
        self.bytesLimit = max(0, bytesLimit)
        self.onComplete = onComplete
    }

    /// The requests kept, oldest first.
    public var all: [ReceivedRequest] { state.withLock { $0.requests } }

    /// The request numbered `id`, while it is kept.
    public func request(_ id: Int) -> ReceivedRequest? {
        state.withLock { state in state.requests.first { $0.id == id } }
    }

    /// Starts a request whose head arrived, returning its number.
    func begin(head: [UInt8], remote: String, source: ReceivedRequest.Source, tls: Bool) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            let record = ReceivedRequest(id: id, time: Date(), remote: remote, source: source, tls: tls,
                                         head: Array(head.prefix(bytesLimit)), headBytes: head.count)
            if state.requests.count >= capacity {
                // The oldest finished request makes room, so one still arriving (a long upload)
                // is not forgotten before `serve --show` prints it; when all are arriving, the oldest.
                state.requests.remove(at: state.requests.firstIndex(where: \.isComplete) ?? 0)
            }
            state.requests.append(record)
            return id
        }
    }

    /// Adds body bytes to request `id`: kept up to the limit, counted whatever their number.
    func append(_ bytes: some Collection<UInt8>, to id: Int) {
        guard !bytes.isEmpty else { return }
        let limit = bytesLimit
        update(id) { record in
            let room = limit - record.body.count
            if room > 0 { record.body.append(contentsOf: bytes.prefix(room)) }
            record.bodyBytes += bytes.count
        }
    }

    /// Marks request `id` ended: `complete` when its framing ended, false when its connection
    /// closed first.
    func finish(_ id: Int, complete: Bool) {
        var finished: ReceivedRequest?
        update(id) { record in
            record.isComplete = complete
            finished = record
        }
        if let finished { onComplete?(finished) }
    }

    private func update(_ id: Int, _ change: (inout ReceivedRequest) -> Void) {
        state.withLock { state in
            // The request being received is nearly always the newest.
            guard let index = state.requests.lastIndex(where: { $0.id == id }) else { return }
            change(&state.requests[index])
        }
    }
}
