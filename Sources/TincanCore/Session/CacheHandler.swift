import Foundation

/// The response cache's part in a task (Alamofire's `CachedResponseHandler`, with RFC 9111's
/// conditional requests): before a request, whether the cache answers it, or the server is asked
/// to revalidate what the cache holds; after it, a 304 refreshes the entry and a final response
/// may be stored. A download never uses the cache, nor does a request that carries its own
/// conditional or range headers.
struct CacheHandler: Sendable {
    let cache: ResponseCache
    let policy: CachePolicy
    /// False for a download: its body goes to a file, never to the cache.
    let isEnabled: Bool
    /// The date freshness and age are measured against.
    let date: @Sendable () -> Date

    /// What the cache does with a request.
    enum Lookup {
        /// The cache answers: the request is not sent.
        case answer(ResponseCache.Entry, age: Double)
        /// The request is sent with the entry's validators, to revalidate it.
        case revalidate(ResponseCache.Entry)
        /// The request is sent as it is.
        case load
        /// The policy forbids loading, and the cache has no answer.
        case notCached
    }

    /// Looks `outgoing` up; when the answer is ``Lookup/revalidate(_:)`` it has the validators.
    /// - Parameter original: The request before adapters, cookies and validators: whether it
    ///   asked for a conditional or partial answer itself.
    func lookup(_ outgoing: inout HTTPRequest, original: HTTPRequest) -> Lookup {
        let userConditional = ["If-None-Match", "If-Modified-Since", "Range", "If-Range"].contains { original.headers.contains(name: $0) }
        if isEnabled, !userConditional, policy.readsCache, let entry = cache.entry(for: outgoing) {
            let now = date()
            let usable = policy == .returnCacheDataElseLoad || policy == .returnCacheDataDontLoad
                || (policy == .useProtocolCachePolicy && entry.isFresh(now: now) && !CacheControl(original.headers).has("no-cache"))
            if usable { return .answer(entry, age: entry.age(now: now)) }
            if !entry.validators.isEmpty {
                for (name, value) in entry.validators { outgoing.headers.set(name: name, value: value) }
                return .revalidate(entry)
            }
        }
        return policy == .returnCacheDataDontLoad ? .notCached : .load
    }

    /// The entry a 304 revalidated, with the 304's headers.
    func refresh(_ entry: ResponseCache.Entry, with notModified: HTTPResponse, for request: HTTPRequest) -> ResponseCache.Entry {
        cache.refresh(entry, with: notModified, for: request, now: date())
    }

    /// Stores a final response when its policy and RFC 9111 allow; says whether it did.
    func store(_ response: HTTPResponse, data: [UInt8], for request: HTTPRequest) -> Bool {
        guard isEnabled, policy != .reloadIgnoringLocalAndRemoteCacheData else { return false }
        return cache.store(response, data: data, for: request, now: date())
    }
}
