import Foundation
import TincanCore

/// What to do to the live cookie jars or response caches (the runner owns them).
public enum StoreCommand: Sendable, Equatable {
    case listCookies
    case deleteCookie(Cookie)
    case deleteAllCookies
    case listCache
    /// Deletes the entry stored under this key (its URL).
    case deleteCacheEntry(String)
    case clearCache

    /// Whether the command is about the cache (else the cookie jar).
    var isAboutCache: Bool {
        switch self {
        case .listCookies, .deleteCookie, .deleteAllCookies: false
        case .listCache, .deleteCacheEntry, .clearCache: true
        }
    }
}

/// A cached response as the cache view lists it, read at one moment.
public struct CacheEntrySummary: Sendable, Hashable {
    /// The key it is stored under: its URL.
    public var key: String
    public var status: Int
    public var storedAt: Date
    /// Seconds it stays fresh from when it was generated; its age when listed.
    public var freshnessLifetime: Double
    public var age: Double
    /// Whether it may be used without asking the server (no `no-cache`, age within lifetime).
    public var isFresh: Bool
    public var etag: String?
    public var lastModified: String?

    /// Reads an entry at `now`.
    public init(key: String, entry: ResponseCache.Entry, now: Date) {
        self.key = key
        status = entry.response.statusCode
        storedAt = entry.storedAt
        freshnessLifetime = entry.freshnessLifetime
        age = entry.age(now: now)
        isFresh = entry.isFresh(now: now)
        etag = entry.response.headers["ETag"]
        lastModified = entry.response.headers["Last-Modified"]
    }
}

/// The cookie jar or the cache as listed at `at`.
public enum StoreListing: Sendable, Equatable {
    case cookies([Cookie], at: Date)
    case cache([CacheEntrySummary], at: Date)
}
