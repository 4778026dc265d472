import OrderedCollections
import Synchronization

/// How many requests each id has made, for the demo server's stateful routes (`/poll`, `/flaky`):
/// per server, and bounded, so memory stays flat whatever clients send: past `capacity` ids the
/// oldest is forgotten.
final class CallCounts: Sendable {
    private let capacity: Int
    /// Requests seen per id, oldest id first.
    private let counts = Mutex(OrderedDictionary<String, Int>())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Counts one more request for `id`, returning how many there have been.
    func next(_ id: String) -> Int {
        counts.withLock { counts in
            let next = (counts[id] ?? 0) + 1
            if counts[id] == nil, counts.count >= capacity { counts.removeFirst() }
            counts[id] = next
            return next
        }
    }
}
