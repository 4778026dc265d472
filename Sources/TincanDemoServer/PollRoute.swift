import Hummingbird
import OrderedCollections
import Synchronization
import TincanCore

/// `/poll/{id}/{n}`: a job that is ready on its nth call, for sessions that poll (`retry:`) and
/// the lessons that teach it. Calls before the nth answer 202 `{"id", "calls", "ready": false}`;
/// the nth and later answer 200 with `"ready": true`. Each id counts on its own, so tests and
/// learners sharing one server do not disturb each other.
final class PollJobs: Sendable {
    /// The most ids remembered; the oldest is forgotten first, so the server's memory stays
    /// bounded whatever clients send.
    static let capacity = 10_000
    /// The largest n: a poll that needs more calls is a mistake in the URL.
    static let maximumCalls = 1_000

    private let calls = Mutex<OrderedDictionary<String, Int>>([:])

    /// Counts one call for `id`, returning how many there have been.
    func call(_ id: String) -> Int {
        calls.withLock { calls in
            let count = (calls.removeValue(forKey: id) ?? 0) + 1
            if calls.count >= Self.capacity { calls.removeFirst() }
            calls[id] = count
            return count
        }
    }

    func respond(_ context: BasicRequestContext) throws -> Response {
        let id = try context.parameters.require("id")
        let needed = try context.parameters.require("n", as: Int.self)
        guard (1...Self.maximumCalls).contains(needed) else {
            throw HTTPError(.badRequest, message: "n must be 1-\(Self.maximumCalls)")
        }
        let count = call(id)
        return DemoRoutes.json(["id": .string(id), "calls": .integer(Int64(count)), "ready": .bool(count >= needed)],
                               status: count < needed ? .accepted : .ok)
    }
}
