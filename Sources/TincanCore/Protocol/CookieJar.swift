import Foundation
import OrderedCollections
import Synchronization

/// A cookie as RFC 6265 stores it.
public struct Cookie: Sendable, Hashable {
    public var name: String
    public var value: String
    /// The domain, lower case, without a leading dot.
    public var domain: String
    public var path: String
    /// When it expires, or nil for a session cookie.
    public var expires: Date?
    /// Sent to `domain` only, not to its subdomains (no Domain attribute was given).
    public var hostOnly: Bool
    public var secure: Bool
    public var httpOnly: Bool
    /// The SameSite attribute as given, or nil.
    public var sameSite: String?
    /// When it was first stored; older cookies come first among equal paths.
    public var created: Date

    /// Whether the cookie lasts only as long as the session.
    public var isSessionOnly: Bool { expires == nil }

    /// `name=value`, as a Cookie header carries it.
    public var pair: String { "\(name)=\(value)" }
}

/// The cookie jar: stores what `Set-Cookie` sends and adds the `Cookie` header each request
/// should carry (RFC 6265: domain and path matching, Max-Age over Expires, Secure, host-only).
///
/// Foundation's `HTTPCookie` on Linux ignores Max-Age (so `Max-Age=0` deletes nothing),
/// defaults Path to `/`, and accepts a Domain the response's host is not in; and
/// `HTTPCookieStorage` writes even session cookies to a file in the home folder. The rules here
/// are therefore Tincan's own, and the jar lives in memory.
///
/// A cookie for a public suffix (`Domain=com`, `Domain=co.uk`) is refused (RFC 6265 §5.3 step 5,
/// through the system's ``PublicSuffixList``), and the jar is bounded as browsers and curl bound
/// theirs (``Limits``). Cookies are kept by site (the registrable domain, `example.co.uk`): any
/// cookie a request can carry is one of its host's site, so a lookup reads one site's cookies
/// (at most ``Limits/perSite``), and a store finds the cookie it replaces by its key; no
/// operation walks the whole jar except to drop expired cookies, and then only once one has
/// expired. Without the list (the file is missing), every cookie is kept for the host that set
/// it only, and the site is the host.
public final class CookieJar: Sendable {
    /// How much the jar holds and sends. The defaults are Chrome's and curl's numbers.
    public struct Limits: Sendable, Hashable {
        /// Cookies kept per site (Chrome and Firefox: 180); past it, the oldest
        /// ``perSitePurge`` of the site go (Chrome purges 30 at a time).
        public var perSite = 180
        public var perSitePurge = 30
        /// Cookies kept in all (Chrome: 3,300, purged by 300; Firefox: 3,000).
        public var total = 3_300
        public var totalPurge = 300
        /// The most cookies one `Cookie` header carries (curl: 150, `MAX_COOKIE_SEND_AMOUNT`).
        public var perRequest = 150
        /// The longest `Cookie` value sent, in bytes (curl: 8,190, `MAX_COOKIE_HEADER_LEN`);
        /// cookies that would pass it are left out, the most specific kept.
        public var headerBytes = 8_190
        /// The longest name and value of one cookie together, in bytes (RFC 6265bis §5.6: 4,096);
        /// a longer cookie is ignored.
        public var cookieBytes = 4_096

        /// The defaults.
        public init() {}
    }

    /// The key a stored cookie replaces another by (RFC 6265 §5.3 step 11).
    private struct Key: Hashable {
        var name: String
        var domain: String
        var path: String
    }

    private struct Store {
        /// Each site's cookies, oldest first (a replaced cookie keeps its place and creation time).
        var sites: [String: OrderedDictionary<Key, Cookie>] = [:]
        var count = 0
        /// The earliest expiry among the stored cookies: until then nothing needs dropping.
        var nextExpiry: Date?
        /// The last host whose site was worked out, and that site: a replay asks for one host
        /// again and again.
        var lastSite: (host: String, site: String)?
        /// Cookies whose `Domain` named a parent domain, kept host-only because the public
        /// suffix list was missing.
        var narrowed = 0
    }

    private let state = Mutex(Store())
    private let limits: Limits
    /// The list, asked for only when a site is first worked out (most runs set no cookie).
    private let suffixes: @Sendable () -> PublicSuffixList

    /// Creates an empty jar.
    ///
    /// - Parameters:
    ///   - limits: How much it holds and sends.
    ///   - publicSuffixes: The public suffix list, read when first needed (the system's by default).
    public init(limits: Limits = Limits(), publicSuffixes: @escaping @Sendable () -> PublicSuffixList = { .system }) {
        self.limits = limits
        self.suffixes = publicSuffixes
    }

    /// Every cookie stored, expired ones included until the next store or lookup, oldest first.
    public var all: [Cookie] {
        state.withLock { store in store.sites.values.flatMap(\.values).sorted { $0.created < $1.created } }
    }

    /// How many cookies were kept for their host only, their `Domain` unchecked because the
    /// public suffix list was missing (see ``PublicSuffixList``); 0 when the list is there.
    public var narrowedForMissingList: Int { state.withLock { $0.narrowed } }

    /// Adds cookies as they are (a cookie file's, see ``CookieFile``), each replacing a stored
    /// one with the same name, domain and path, within the jar's limits.
    public func insert(_ loaded: [Cookie]) {
        let list = suffixes()
        state.withLock { store in
            for cookie in loaded { add(cookie, to: &store, site: Self.site(of: cookie.domain, list), now: nil) }
        }
    }

    /// Removes the cookie with `cookie`'s name, domain and path.
    public func remove(_ cookie: Cookie) {
        let list = suffixes()
        state.withLock { store in
            let site = Self.site(of: cookie.domain, list)
            if store.sites[site]?.removeValue(forKey: Key(name: cookie.name, domain: cookie.domain, path: cookie.path)) != nil { store.count -= 1 }
        }
    }

    /// Empties the jar.
    public func removeAll() {
        state.withLock { store in
            store.sites.removeAll()
            store.count = 0
            store.nextExpiry = nil
        }
    }

    /// Stores the cookies of `response`'s `Set-Cookie` fields, as sent for `url`.
    ///
    /// - Returns: The cookies stored (a deletion is stored as an expired cookie and removed).
    @discardableResult
    public func store(from response: HTTPResponse, for url: URLReference, now: Date = Date()) -> [Cookie] {
        let values = response.headers.values(named: "Set-Cookie")
        guard !values.isEmpty else { return [] }
        return store(setCookie: values, for: url, now: now)
    }

    /// Stores the cookies that the `Set-Cookie` values describe, as sent for `url`.
    @discardableResult
    public func store(setCookie values: [String], for url: URLReference, now: Date = Date()) -> [Cookie] {
        guard !values.isEmpty, let host = url.host?.lowercased(), !host.isEmpty else { return [] }
        let list = suffixes()
        var narrowed = 0
        let parsed = values.compactMap { value -> Cookie? in
            guard var cookie = Self.parse(value, for: url, now: now, limits: limits) else { return nil }
            guard !cookie.hostOnly else { return cookie }
            guard list.isAvailable else {
                // Whether the domain is a public suffix cannot be known: the cookie goes to the
                // host that set it only, never wider.
                narrowed += 1
                cookie.domain = host
                cookie.hostOnly = true
                return cookie
            }
            // RFC 6265 §5.3 step 5: a cookie for a public suffix would reach every site under it,
            // unless the suffix is the host itself, which then gets a host-only cookie.
            guard list.isPublicSuffix(cookie.domain) else { return cookie }
            guard cookie.domain == host else { return nil }
            cookie.hostOnly = true
            return cookie
        }
        guard !parsed.isEmpty else { return [] }
        state.withLock { store in
            store.narrowed += narrowed
            let site = Self.site(ofHost: host, list, cache: &store.lastSite)
            for cookie in parsed { add(cookie, to: &store, site: site, now: now) }
        }
        return parsed
    }

    /// Puts `cookie` in its site, replacing the one with its key (keeping that one's creation
    /// time), or drops both when it has expired; then keeps the jar within its limits.
    private func add(_ cookie: Cookie, to store: inout Store, site: String, now: Date?) {
        let expired = now.flatMap { now in cookie.expires.map { $0 <= now } } ?? false
        // The site's cookies are changed where they lie (no copy of the site per cookie).
        let change = Self.put(cookie, expired: expired, into: &store.sites[site, default: [:]], limits: limits)
        store.count += change
        if store.sites[site]?.isEmpty == true { store.sites.removeValue(forKey: site) }
        if let expires = cookie.expires, !expired { store.nextExpiry = min(store.nextExpiry ?? expires, expires) }
        if store.count > limits.total { purgeOldest(&store) }
    }

    /// Puts `cookie` among its site's `cookies`, keeping the creation time of the one it
    /// replaces (or removing that one when `cookie` has expired), and the site within its limit.
    ///
    /// - Returns: How the number of cookies changed.
    private static func put(_ cookie: Cookie, expired: Bool, into cookies: inout OrderedDictionary<Key, Cookie>, limits: Limits) -> Int {
        let key = Key(name: cookie.name, domain: cookie.domain, path: cookie.path)
        if let index = cookies.index(forKey: key) {
            if expired {
                cookies.remove(at: index)
                return -1
            }
            var replacement = cookie
            replacement.created = cookies.values[index].created
            cookies.values[index] = replacement
            return 0
        }
        guard !expired else { return 0 }
        cookies[key] = cookie
        guard cookies.count > limits.perSite else { return 1 }
        let purged = min(cookies.count, limits.perSitePurge)
        cookies.removeFirst(purged)
        return 1 - purged
    }

    /// Drops the oldest cookies of the whole jar, ``Limits/totalPurge`` of them (a batch, so
    /// that a full jar is sorted once per purge, not once per cookie).
    private func purgeOldest(_ store: inout Store) {
        let oldest = store.sites.values.flatMap(\.values).sorted { $0.created < $1.created }.prefix(limits.totalPurge)
        let list = suffixes()
        for cookie in oldest {
            let site = Self.site(of: cookie.domain, list)
            if store.sites[site]?.removeValue(forKey: Key(name: cookie.name, domain: cookie.domain, path: cookie.path)) != nil { store.count -= 1 }
            if store.sites[site]?.isEmpty == true { store.sites.removeValue(forKey: site) }
        }
    }

    /// Drops expired cookies once the earliest expiry has passed.
    private static func dropExpired(_ store: inout Store, now: Date) {
        guard let next = store.nextExpiry, next <= now else { return }
        var earliest: Date?
        for (site, cookies) in store.sites {
            let kept = cookies.filter { $0.value.expires.map { $0 > now } ?? true }
            store.count -= cookies.count - kept.count
            store.sites[site] = kept.isEmpty ? nil : kept
            for case let expires? in kept.values.lazy.map(\.expires) { earliest = min(earliest ?? expires, expires) }
        }
        store.nextExpiry = earliest
    }

    /// The cookies to send to `url`, longest path first, then oldest first.
    public func cookies(for url: URLReference, now: Date = Date()) -> [Cookie] {
        let matching = state.withLock { store -> [Cookie] in
            Self.dropExpired(&store, now: now)
            // Most requests meet an empty jar: the URL's parts are read only when a cookie is there.
            guard store.count > 0, let host = url.host?.lowercased() else { return [] }
            let site = Self.site(ofHost: host, suffixes(), cache: &store.lastSite)
            guard let candidates = store.sites[site] else { return [] }
            let secure = url.scheme?.lowercased() == "https"
            let path = url.path.isEmpty ? "/" : url.path
            return candidates.values.filter { (cookie: Cookie) -> Bool in
                let hostMatches = cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain)
                return hostMatches && Self.pathMatches(path, cookie.path) && (!cookie.secure || secure)
            }
        }
        return matching.sorted { (lhs: Cookie, rhs: Cookie) -> Bool in
            lhs.path.count != rhs.path.count ? lhs.path.count > rhs.path.count : lhs.created < rhs.created
        }
    }

    /// The `Cookie` header value for `url`, or nil when no cookie applies: at most
    /// ``Limits/perRequest`` cookies in at most ``Limits/headerBytes`` bytes, the most specific first.
    public func headerValue(for url: URLReference, now: Date = Date()) -> String? {
        var value = ""
        var sent = 0
        for cookie in cookies(for: url, now: now) {
            guard sent < limits.perRequest else { break }
            let length = cookie.name.utf8.count + 1 + cookie.value.utf8.count
            let separator = sent == 0 ? 0 : 2
            if value.utf8.count + separator + length > limits.headerBytes { continue }
            if sent > 0 { value += "; " }
            value += cookie.pair
            sent += 1
        }
        return sent == 0 ? nil : value
    }

    /// The site a cookie for `domain` is kept under: its registrable domain, or the domain itself
    /// (a public suffix from a cookie file, an IP address, or no list).
    private static func site(of domain: String, _ list: PublicSuffixList) -> String {
        list.registrableDomain(domain) ?? domain
    }

    private static func site(ofHost host: String, _ list: PublicSuffixList, cache: inout (host: String, site: String)?) -> String {
        if let cache, cache.host == host { return cache.site }
        let site = site(of: host, list)
        cache = (host, site)
        return site
    }

    // MARK: - RFC 6265 rules

    /// The name and value of one `Set-Cookie` value (RFC 6265 §5.2: up to the first `;`, split
    /// at the first `=`, trimmed), or nil when it has no `=` or no name and must be ignored.
    public static func nameAndValue(ofSetCookie header: some StringProtocol) -> (name: String, value: String)? {
        let pair = header.prefix { $0 != ";" }
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingWhitespace()
        return name.isEmpty ? nil : (name, pair[pair.index(after: equals)...].trimmingWhitespace())
    }

    /// Parses one `Set-Cookie` value (RFC 6265 §5.2 and §5.3), or nil when it must be ignored
    /// (a name and value longer than `limits` allow among the reasons). The public suffix check
    /// is the jar's, which knows the list.
    static func parse(_ header: String, for url: URLReference, now: Date, limits: Limits = Limits()) -> Cookie? {
        guard let host = url.host?.lowercased(), !host.isEmpty, let (name, value) = nameAndValue(ofSetCookie: header) else { return nil }
        guard name.utf8.count + value.utf8.count <= limits.cookieBytes else { return nil }
        let parts = header.split(separator: ";", omittingEmptySubsequences: false).dropFirst()

        var cookie = Cookie(name: name, value: value, domain: host, path: defaultPath(url.path), expires: nil,
                            hostOnly: true, secure: false, httpOnly: false, sameSite: nil, created: now)
        var maxAge: Date?
        var expires: Date?
        for attribute in parts {
            let pieces = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pieces[0].trimmingWhitespace().lowercased()
            let argument = pieces.count > 1 ? pieces[1].trimmingWhitespace() : ""
            switch key {
            case "expires":
                if let date = HTTPDate.parse(argument) { expires = date }
            case "max-age":
                guard let first = argument.first, first == "-" || first.isNumber, argument.dropFirst().allSatisfy(\.isNumber) else { continue }
                // Digits too many for an Int still mean "very long" or "already expired".
                let seconds = Int(argument) ?? (first == "-" ? Int.min : Int.max)
                maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(Double(min(seconds, 400 * 86_400)))
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                // A Domain the host is not in would let one site set cookies for another.
                guard domainMatches(host, domain) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                cookie.path = argument.hasPrefix("/") ? argument : defaultPath(url.path)
            case "secure":
                cookie.secure = true
            case "httponly":
                cookie.httpOnly = true
            case "samesite":
                cookie.sameSite = argument
            default:
                continue
            }
        }
        cookie.expires = maxAge ?? expires
        return cookie
    }

    /// RFC 6265 §5.1.3: the host is the domain, or ends with "." and the domain, and is not an IP address.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        let isAddress = host.allSatisfy { $0.isNumber || $0 == "." } || host.contains(":")
        return !isAddress && host.hasSuffix("." + domain)
    }

    /// RFC 6265 §5.1.4.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath[requestPath.index(requestPath.startIndex, offsetBy: cookiePath.count)] == "/"
    }

    /// RFC 6265 §5.1.4: the request path up to, not including, its last `/`; or `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
