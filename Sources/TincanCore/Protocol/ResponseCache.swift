import Foundation
import Synchronization

/// What the response cache did for a task.
public enum CacheOutcome: Sendable, Hashable {
    /// The cached response was used without asking the server; `age` in seconds.
    case hit(age: Double)
    /// A conditional request (If-None-Match / If-Modified-Since) went to the server.
    case revalidating
    /// The server answered 304 and the cached body was used, its headers refreshed.
    case notModified
    /// The response was stored.
    case stored
}

/// Cache-Control directives, lower-cased, with their arguments.
struct CacheControl {
    private var directives: [String: String] = [:]

    init(_ headers: HTTPHeaders) {
        for field in headers.fields where HTTPHeaders.same(field.name, "Cache-Control") {
            for part in field.value.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                let name = pieces[0].trimmingWhitespace().lowercased()
                guard !name.isEmpty else { continue }
                directives[name] = pieces.count > 1 ? pieces[1].trimmingScalars { $0 == " " || $0 == "\"" } : ""
            }
        }
    }

    func has(_ name: String) -> Bool { directives[name] != nil }
    func seconds(_ name: String) -> Double? { directives[name].flatMap { Double($0) } }
}

/// An in-memory HTTP cache for a session (RFC 9111, as a private cache): GET responses with
/// freshness or validators, looked up by URL and the request headers that `Vary` names.
///
/// The session manager consults it according to each request's ``CachePolicy``.
public final class ResponseCache: Sendable {
    /// A stored response.
    public struct Entry: Sendable {
        public var response: HTTPResponse
        public var data: [UInt8]
        /// The values of the request headers that the response's Vary names, lower-cased names.
        var varying: [String: String]
        /// When the response arrived.
        public var storedAt: Date

        /// Seconds since the response was generated (RFC 9111 §4.2.3, without clock skew).
        public func age(now: Date) -> Double {
            let ageHeader = response.headers["Age"].flatMap { Double($0.trimmingWhitespace()) } ?? 0
            return max(0, now.timeIntervalSince(storedAt)) + max(0, ageHeader)
        }

        /// How long the response stays fresh (§4.2.1): max-age, then Expires − Date, then 10 % of
        /// the time since Last-Modified (the heuristic of §4.2.2), else zero.
        public var freshnessLifetime: Double {
            let control = CacheControl(response.headers)
            if let maxAge = control.seconds("max-age") { return maxAge }
            let date = response.headers["Date"].flatMap(HTTPDate.parse) ?? storedAt
            if let expires = response.headers["Expires"] {
                return HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
            }
            if let modified = response.headers["Last-Modified"].flatMap(HTTPDate.parse) {
                return max(0, date.timeIntervalSince(modified)) / 10
            }
            return 0
        }

        /// Whether the entry may be used without asking the server.
        public func isFresh(now: Date) -> Bool {
            let control = CacheControl(response.headers)
            return !control.has("no-cache") && age(now: now) < freshnessLifetime
        }

        /// The conditional headers that revalidate this entry, or empty when it has no validator.
        public var validators: [(String, String)] {
            var headers: [(String, String)] = []
            if let etag = response.headers["ETag"] { headers.append(("If-None-Match", etag)) }
            if let modified = response.headers["Last-Modified"] { headers.append(("If-Modified-Since", modified)) }
            return headers
        }
    }

    private struct Store {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var bytes = 0
    }

    /// The most bytes of bodies kept; the least recently stored go first.
    public let capacity: Int
    private let store = Mutex(Store())

    /// Creates a cache that keeps at most `capacity` bytes of response bodies.
    public init(capacity: Int = 32 << 20) {
        self.capacity = capacity
    }

    /// How many responses are stored.
    public var count: Int { store.withLock { $0.entries.count } }

    /// Forgets every response.
    public func removeAll() {
        store.withLock { $0 = Store() }
    }

    /// Every stored response with the key it is stored under (its URL without the fragment),
    /// the least recently stored first: what the TUI's cache view lists.
    public var entries: [(key: String, entry: Entry)] {
        store.withLock { store in store.order.compactMap { key in store.entries[key].map { (key, $0) } } }
    }

    /// Forgets the response stored under `key` (one of ``entries``' keys); nothing when none is.
    public func remove(key: String) {
        store.withLock { store in
            guard let old = store.entries.removeValue(forKey: key) else { return }
            store.bytes -= old.data.count
            store.order.removeAll { $0 == key }
        }
    }

    /// The stored response for `request`, fresh or not, or nil.
    public func entry(for request: HTTPRequest) -> Entry? {
        guard request.method == "GET" else { return nil }
        return store.withLock { $0.entries[Self.key(request.url)] }.flatMap { entry in
            entry.varying.allSatisfy { name, value in (request.headers[name] ?? "") == value } ? entry : nil
        }
    }

    /// Stores the response when RFC 9111 §3 allows a private cache to, and says whether it did.
    @discardableResult
    public func store(_ response: HTTPResponse, data: [UInt8], for request: HTTPRequest, now: Date = Date()) -> Bool {
        guard request.method == "GET", [200, 203, 300, 301, 308, 404, 410].contains(response.statusCode),
              data.count <= capacity / 4
        else { return false }
        let control = CacheControl(response.headers)
        let requestControl = CacheControl(request.headers)
        guard !control.has("no-store"), !requestControl.has("no-store") else { return false }
        let vary = (response.headers["Vary"] ?? "").split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
        guard !vary.contains("*") else { return false }
        let entry = Entry(response: response, data: data, varying: Dictionary(vary.map { ($0, request.headers[$0] ?? "") }, uniquingKeysWith: { $1 }), storedAt: now)
        guard control.has("max-age") || response.headers["Expires"] != nil || !entry.validators.isEmpty else { return false }
        let key = Self.key(request.url)
        store.withLock { store in
            if let old = store.entries.removeValue(forKey: key) {
                store.bytes -= old.data.count
                store.order.removeAll { $0 == key }
            }
            store.entries[key] = entry
            store.order.append(key)
            store.bytes += data.count
            while store.bytes > capacity, let oldest = store.order.first {
                store.order.removeFirst()
                store.bytes -= store.entries.removeValue(forKey: oldest)?.data.count ?? 0
            }
        }
        return true
    }

    /// Refreshes the stored entry with a 304's headers (RFC 9111 §4.3.4) and returns it.
    public func refresh(_ entry: Entry, with notModified: HTTPResponse, for request: HTTPRequest, now: Date = Date()) -> Entry {
        var updated = entry
        for field in notModified.headers.fields where !["content-length", "content-encoding", "transfer-encoding"].contains(field.name.lowercased()) {
            updated.response.headers.set(name: field.name, value: field.value)
        }
        updated.storedAt = now
        store.withLock { store in
            let key = Self.key(request.url)
            if store.entries[key] != nil { store.entries[key] = updated }
        }
        return updated
    }

    private static func key(_ url: URLReference) -> String {
        var url = url
        url.fragment = nil
        return url.string
    }
}
