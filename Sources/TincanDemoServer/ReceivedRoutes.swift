import Hummingbird
import TincanCore

/// `GET /__received`, `/__received/last` and `/__received/{id}`: what the server received, as
/// ``ReceivedRequest/json`` objects. Requests to these routes are not recorded themselves, so
/// reading them never changes what they show.
enum ReceivedRoutes {
    /// The routes' common path.
    static let path = "/__received"

    static func register(on router: Router<DemoRoutes.Context>, received: ReceivedRequests) {
        router.getAndHead("\(path)") { _, _ in
            DemoRoutes.json(.dictionary([
                "capacity": .integer(Int64(received.capacity)),
                "bytesLimit": .integer(Int64(received.bytesLimit)),
                "requests": .array(received.all.map(\.json)),
            ]))
        }
        router.getAndHead("\(path)/last") { _, _ in
            guard let last = received.all.last else { throw HTTPError(.notFound, message: "no request received yet") }
            return DemoRoutes.json(last.json)
        }
        router.getAndHead("\(path)/:id") { _, context in
            let id = try context.parameters.require("id", as: Int.self)
            guard let request = received.request(id) else {
                throw HTTPError(.notFound, message: "request \(id) is not kept (the newest \(received.capacity) are)")
            }
            return DemoRoutes.json(request.json)
        }
    }

    /// Whether a request for `target` (its query aside) reads these routes.
    static func isReadingRoute(target: String) -> Bool {
        let bare = target.prefix { $0 != "?" }
        return bare == path || bare.hasPrefix(path + "/")
    }

    /// Whether the request whose head is `head` reads these routes: its request line's target.
    static func isReadingRoute(head: [UInt8]) -> Bool {
        let firstLine = head.prefix { $0 != 0x0A && $0 != 0x0D }
        let parts = firstLine.split(separator: UInt8(ascii: " "))
        guard parts.count >= 2 else { return false }
        return isReadingRoute(target: String(decoding: parts[1], as: UTF8.self))
    }
}
