import Foundation
import TincanCore

/// The live cookie jars and response caches, for the TUI's cookie and cache views (issue 17 §3).
extension ManagerPool {
    /// Runs a store command on every manager and lists what the jar or the cache holds after it.
    func perform(_ command: StoreCommand, now: Date) -> StoreListing {
        switch command {
        case .listCookies: break
        case let .deleteCookie(cookie): deleteCookie(cookie)
        case .deleteAllCookies: deleteCookie(nil)
        case .listCache: break
        case let .deleteCacheEntry(key): for manager in allManagers { manager.cache.remove(key: key) }
        case .clearCache: for manager in allManagers { manager.cache.removeAll() }
        }
        guard command.isAboutCache else { return .cookies(cookies, at: now) }
        var seen = Set<String>()
        var entries: [CacheEntrySummary] = []
        for manager in allManagers {
            for (key, entry) in manager.cache.entries where seen.insert(key).inserted {
                entries.append(CacheEntrySummary(key: key, entry: entry, now: now))
            }
        }
        return .cache(entries, at: now)
    }
}
