import Foundation
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
public final class CookieJar: Sendable {
    private let cookies = Mutex<[Cookie]>([])

    /// Creates an empty jar.
    public init() {}

    /// Every cookie stored, expired ones included until the next store or lookup.
    public var all: [Cookie] { cookies.withLock { $0 } }

    /// Adds cookies as they are (a cookie file's, see ``CookieFile``), each replacing a stored
    /// one with the same name, domain and path.
    public func insert(_ loaded: [Cookie]) {
        cookies.withLock { stored in
            for cookie in loaded {
                stored.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                stored.append(cookie)
            }
        }
    }

    /// Removes the cookie with `cookie`'s name, domain and path.
    public func remove(_ cookie: Cookie) {
        cookies.withLock { $0.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path } }
    }

    /// Empties the jar.
    public func removeAll() {
        cookies.withLock { $0.removeAll() }
    }

    /// Stores the cookies of `response`'s `Set-Cookie` fields, as sent for `url`.
    ///
    /// - Returns: The cookies stored (a deletion is stored as an expired cookie and removed).
    @discardableResult
    public func store(from response: HTTPResponse, for url: URLReference, now: Date = Date()) -> [Cookie] {
        let values = response.headers.values(named: "Set-Cookie")
        return store(setCookie: values, for: url, now: now)
    }

    /// Stores the cookies that the `Set-Cookie` values describe, as sent for `url`.
    @discardableResult
    public func store(setCookie values: [String], for url: URLReference, now: Date = Date()) -> [Cookie] {
        let parsed = values.compactMap { Self.parse($0, for: url, now: now) }
        guard !parsed.isEmpty else { return [] }
        cookies.withLock { stored in
            for var cookie in parsed {
                if let index = stored.firstIndex(where: { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }) {
                    cookie.created = stored[index].created
                    stored.remove(at: index)
                }
                if cookie.expires.map({ $0 > now }) ?? true { stored.append(cookie) }
            }
            stored.removeAll { $0.expires.map { $0 <= now } ?? false }
        }
        return parsed
    }

    /// The cookies to send to `url`, longest path first, then oldest first.
    public func cookies(for url: URLReference, now: Date = Date()) -> [Cookie] {
        let matching = cookies.withLock { stored -> [Cookie] in
            stored.removeAll { $0.expires.map { $0 <= now } ?? false }
            // Most requests meet an empty jar: the URL's parts are read only when a cookie is there.
            guard !stored.isEmpty, let host = url.host?.lowercased() else { return [] }
            let secure = url.scheme?.lowercased() == "https"
            let path = url.path.isEmpty ? "/" : url.path
            return stored.filter { cookie in
                let hostMatches = cookie.hostOnly ? host == cookie.domain : Self.domainMatches(host, cookie.domain)
                return hostMatches && Self.pathMatches(path, cookie.path) && (!cookie.secure || secure)
            }
        }
        return matching.sorted { lhs, rhs in
            lhs.path.count != rhs.path.count ? lhs.path.count > rhs.path.count : lhs.created < rhs.created
        }
    }

    /// The `Cookie` header value for `url`, or nil when no cookie applies.
    public func headerValue(for url: URLReference, now: Date = Date()) -> String? {
        let matching = cookies(for: url, now: now)
        return matching.isEmpty ? nil : matching.map(\.pair).joined(separator: "; ")
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

    /// Parses one `Set-Cookie` value (RFC 6265 §5.2 and §5.3), or nil when it must be ignored.
    static func parse(_ header: String, for url: URLReference, now: Date) -> Cookie? {
        guard let host = url.host?.lowercased(), !host.isEmpty, let (name, value) = nameAndValue(ofSetCookie: header) else { return nil }
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
