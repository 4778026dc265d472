import Foundation
import TerminalUI
import TincanCore

/// The cookie jar and cache views (issue 17 §3): lists of the live stores the runner's managers
/// send with, read when the view opens and again after each deletion. A cookie's value stays
/// hidden until it is revealed.
extension AppState {
    /// Opens the cookie jar view: the runner lists the jar, then ``showStores(_:)`` shows it.
    mutating func openCookieJar() -> [Effect] {
        [.inspectStores(.listCookies)]
    }

    /// Opens the cache view.
    mutating func openCache() -> [Effect] {
        [.inspectStores(.listCache)]
    }

    /// Shows a listing: a picker of its entries, or a message when there are none.
    mutating func showStores(_ listing: StoreListing, revealed: Int? = nil, selected: Int = 0) {
        switch listing {
        case let .cookies(cookies, at):
            guard !cookies.isEmpty else {
                mode = .modal(.message(Dialog(title: "Cookie jar", lines: [[Span("The cookie jar is empty: no response has set a cookie, and the session's cookie file had none.")]], hint: "esc close")))
                return
            }
            let rows = cookies.enumerated().map { Self.cookieRow($0.element, revealed: $0.offset == revealed, at: at) }
            showStorePicker(Picker(.cookieJar(cookies, revealed: revealed, at: at), title: "Cookie jar: \(Self.counted(cookies.count, "cookie")) (enter: reveal or delete)", options: rows, selected: ""), selected: selected)
        case let .cache(entries, at):
            guard !entries.isEmpty else {
                mode = .modal(.message(Dialog(title: "Response cache", lines: [[Span("The cache is empty: GET responses with max-age, Expires or a validator (ETag, Last-Modified) are kept here.")]], hint: "esc close")))
                return
            }
            let rows = entries.map { Self.cacheRow($0, at: at) }
            showStorePicker(Picker(.responseCache(entries, at: at), title: "Response cache: \(Self.counted(entries.count, "response")) (enter: delete)", options: rows, selected: ""), selected: selected)
        }
    }

    private mutating func showStorePicker(_ picker: Picker, selected: Int) {
        var picker = picker
        picker.list.select(selected, count: picker.options.count)
        mode = .modal(.picker(picker))
    }

    /// What a choice in a store view does: an entry opens its actions; an action deletes
    /// (through the runner) or goes back to the list.
    mutating func chooseStoreAction(_ option: String, at index: Int, for purpose: Picker.Purpose) -> [Effect] {
        switch purpose {
        case let .cookieJar(cookies, revealed, at):
            let cookie = cookies[index]
            let reveal = revealed == index ? "Hide the value" : "Reveal the value"
            mode = .modal(.picker(Picker(.cookieAction(index, cookies, revealed: revealed, at: at), title: "\(cookie.name) (\(cookie.domain)\(cookie.path))", options: [reveal, "Delete this cookie", "Delete every cookie (\(cookies.count))", "Back to the list"], selected: reveal)))
        case let .cookieAction(index, cookies, revealed, at):
            switch option {
            case "Reveal the value": showStores(.cookies(cookies, at: at), revealed: index, selected: index)
            case "Hide the value": showStores(.cookies(cookies, at: at), selected: index)
            case "Delete this cookie":
                status = StatusMessage("Deleted the cookie \(cookies[index].name) of \(cookies[index].domain).", .success)
                return [.inspectStores(.deleteCookie(cookies[index]))]
            case _ where option.hasPrefix("Delete every cookie"):
                status = StatusMessage("Deleted every cookie (\(cookies.count)).", .success)
                return [.inspectStores(.deleteAllCookies)]
            default: showStores(.cookies(cookies, at: at), revealed: revealed, selected: index)
            }
        case let .responseCache(entries, at):
            mode = .modal(.picker(Picker(.cacheAction(index, entries, at: at), title: entries[index].key, options: ["Delete this response", "Delete every response (\(entries.count))", "Back to the list"], selected: "")))
        case let .cacheAction(index, entries, at):
            switch option {
            case "Delete this response":
                status = StatusMessage("Deleted the cached response of \(entries[index].key).", .success)
                return [.inspectStores(.deleteCacheEntry(entries[index].key))]
            case _ where option.hasPrefix("Delete every response"):
                status = StatusMessage("Emptied the cache (\(Self.counted(entries.count, "response"))).", .success)
                return [.inspectStores(.clearCache)]
            default: showStores(.cache(entries, at: at), selected: index)
            }
        default:
            break
        }
        return []
    }

    // MARK: - Rows

    /// A cookie as the jar view lists it, what matters most first (a row is cut at the screen's
    /// edge): its name and value (hidden unless revealed), where it goes, its flags, and when it
    /// expires (time left, and the moment).
    static func cookieRow(_ cookie: Cookie, revealed: Bool, at now: Date) -> String {
        let value = revealed ? cookie.value : (cookie.value.isEmpty ? "(empty)" : "•••• (\(cookie.value.count) chars)")
        let expiry: String
        if let expires = cookie.expires {
            expiry = expires <= now ? "expired \(timestamp(expires))" : "expires in \(duration(expires.timeIntervalSince(now))), \(timestamp(expires))"
        } else {
            expiry = "session cookie"
        }
        var flags: [String] = []
        if cookie.secure { flags.append("secure") }
        if cookie.httpOnly { flags.append("httpOnly") }
        if let sameSite = cookie.sameSite { flags.append("SameSite=\(sameSite)") }
        return ["\(cookie.name)=\(value)", "\(cookie.hostOnly ? "" : ".")\(cookie.domain)\(cookie.path)", flags.joined(separator: " "), expiry].filter { !$0.isEmpty }.joined(separator: "  ")
    }

    /// A cached response as the cache view lists it, what matters most first: its URL and
    /// status, the freshness left (or stale), its validators, and when it was stored.
    static func cacheRow(_ entry: CacheEntrySummary, at now: Date) -> String {
        let freshness = entry.isFresh ? "fresh, \(duration(entry.freshnessLifetime - entry.age)) left" : "stale (age \(duration(entry.age)))"
        var parts = [entry.key, "\(entry.status)", freshness]
        if let etag = entry.etag { parts.append("ETag \(etag)") }
        if let modified = entry.lastModified { parts.append("Last-Modified \(modified)") }
        if entry.etag == nil, entry.lastModified == nil { parts.append("no validator") }
        parts.append("stored \(duration(now.timeIntervalSince(entry.storedAt))) ago, \(timestamp(entry.storedAt))")
        return parts.joined(separator: "  ")
    }

    /// A time in UTC to the second: `2026-11-26T11:14:08Z`.
    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter.string(from: date, timeZone: TimeZone(secondsFromGMT: 0) ?? .current, formatOptions: [.withInternetDateTime])
    }

    /// Seconds as `45s`, `4m 10s`, `3h 5m`, `2d 4h`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(max(0, min(seconds, 1e12)))
        switch total {
        case ..<60: return "\(total)s"
        case ..<3_600: return "\(total / 60)m \(total % 60)s"
        case ..<86_400: return "\(total / 3_600)h \(total % 3_600 / 60)m"
        default: return "\(total / 86_400)d \(total % 86_400 / 3_600)h"
        }
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
