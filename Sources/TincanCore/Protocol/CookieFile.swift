import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Netscape cookie file, as curl reads it with `-b FILE` and writes it with `-c FILE`, so
/// Tincan and curl can share one jar between runs.
///
/// One cookie a line, seven fields separated by tabs:
///
/// | Field | Meaning |
/// |---|---|
/// | domain | the host; a leading `.` when subdomains match too; `#HttpOnly_` before it for an HttpOnly cookie |
/// | subdomains | `TRUE` when the cookie goes to subdomains (it had a Domain attribute), else `FALSE` |
/// | path | the cookie's path |
/// | secure | `TRUE` for a Secure cookie |
/// | expiry | seconds since 1970, `0` for a session cookie |
/// | name, value | the cookie (curl accepts a line without the value field as an empty value) |
///
/// Other lines starting with `#`, and empty lines, are comments. SameSite is not in the format
/// and is not kept.
public enum CookieFile {
    /// The first line curl writes, and Tincan too.
    public static let header = "# Netscape HTTP Cookie File"
    /// The prefix of the domain field that marks an HttpOnly cookie.
    public static let httpOnlyPrefix = "#HttpOnly_"
    /// The permission bits a saved jar gets: it holds session secrets, so only its owner reads it.
    public static let mode: mode_t = 0o600

    /// The cookies in a file's text.
    ///
    /// - Parameters:
    ///   - text: The file's content.
    ///   - path: The file's name as the user gave it, for errors.
    ///   - now: The time that expired cookies are dropped at, and the order of creation begins.
    /// - Throws: ``CookieFileError`` naming `path:line` and what was expected there.
    public static func cookies(in text: String, path: String, now: Date = Date()) throws(CookieFileError) -> [Cookie] {
        var cookies: [Cookie] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            var httpOnly = false
            if line.hasPrefix(httpOnlyPrefix) {
                httpOnly = true
                line = line.dropFirst(httpOnlyPrefix.count)
            } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                continue
            }
            let place = CookieFileError.Place(path: path, line: index + 1)
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7 || fields.count == 6 else {
                throw CookieFileError(place: place, reason: .fieldCount(fields.count))
            }
            var domain = fields[0].lowercased()
            guard !domain.isEmpty, domain != "." else { throw CookieFileError(place: place, reason: .emptyDomain) }
            let subdomains = try flag(fields[1], field: "subdomains", place: place)
            if domain.hasPrefix(".") { domain.removeFirst() }
            guard fields[2].hasPrefix("/") else { throw CookieFileError(place: place, reason: .path(fields[2])) }
            let secure = try flag(fields[3], field: "secure", place: place)
            guard let seconds = Int64(fields[4]), seconds >= 0 else { throw CookieFileError(place: place, reason: .expiry(fields[4])) }
            let name = fields[5]
            guard !name.isEmpty else { throw CookieFileError(place: place, reason: .emptyName) }
            let expires = seconds == 0 ? nil : Date(timeIntervalSince1970: Double(seconds))
            if let expires, expires <= now { continue }
            // Created in file order, so that among equal paths the order of the file is kept.
            cookies.append(Cookie(name: name, value: fields.count == 7 ? fields[6] : "", domain: domain, path: fields[2],
                                  expires: expires, hostOnly: !subdomains, secure: secure, httpOnly: httpOnly,
                                  sameSite: nil, created: now.addingTimeInterval(Double(cookies.count) / 1_000_000)))
        }
        return cookies
    }

    /// The file's text for `cookies`: the header, then one line per cookie in the order given.
    public static func text(_ cookies: [Cookie]) -> String {
        var text = header + "\n# Written by Tincan; curl -b and -c read and write this file too.\n\n"
        for cookie in cookies {
            let domain = (cookie.httpOnly ? httpOnlyPrefix : "") + (cookie.hostOnly ? "" : ".") + cookie.domain
            let expiry = cookie.expires.map { String(max(1, Int64($0.timeIntervalSince1970.rounded(.up)))) } ?? "0"
            text += [domain, cookie.hostOnly ? "FALSE" : "TRUE", cookie.path, cookie.secure ? "TRUE" : "FALSE",
                     expiry, cookie.name, cookie.value].joined(separator: "\t") + "\n"
        }
        return text
    }

    /// The largest cookie file read: browsers keep about 3,000 cookies of at most 4 KiB.
    public static let maximumFileBytes = 16 << 20

    /// The cookies in the file at `path`; none when there is no file yet.
    ///
    /// - Throws: ``CookieFileError`` for a file that cannot be read, is not UTF-8, or has a
    ///   malformed line.
    public static func load(from path: String, now: Date = Date()) throws(CookieFileError) -> [Cookie] {
        let place = CookieFileError.Place(path: path, line: nil)
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return [] }
            throw CookieFileError(place: place, reason: .unreadable(String(cString: strerror(errno))))
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw CookieFileError(place: place, reason: .unreadable("it is a folder; expected a cookie file"))
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.readText(path, limit: maximumFileBytes)
        } catch {
            throw CookieFileError(place: place, reason: .unreadable(error.description))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CookieFileError(place: place, reason: .notUTF8)
        }
        return try cookies(in: text, path: path, now: now)
    }

    /// Saves `jar`'s cookies that have not expired to `path`, atomically (a temporary file renamed
    /// over it, through symbolic links) and with mode 0600.
    ///
    /// - Throws: ``FileWriteError`` naming `path`.
    public static func save(_ jar: CookieJar, to path: String, now: Date = Date()) throws(FileWriteError) {
        try save(jar.all, to: path, now: now)
    }

    /// Saves the `cookies` that have not expired to `path`, oldest first, as ``save(_:to:now:)-(CookieJar,_,_)`` does.
    public static func save(_ cookies: [Cookie], to path: String, now: Date = Date()) throws(FileWriteError) {
        let live = cookies.filter { $0.expires.map { $0 > now } ?? true }.sorted { $0.created < $1.created }
        try AtomicFile.write(Array(text(live).utf8), to: path, mode: mode)
    }

    private static func flag(_ text: String, field: String, place: CookieFileError.Place) throws(CookieFileError) -> Bool {
        switch text.uppercased() {
        case "TRUE": return true
        case "FALSE": return false
        default: throw CookieFileError(place: place, reason: .flag(field: field, found: text))
        }
    }
}

/// A cookie file that cannot be read: where, and what was expected there.
public struct CookieFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, and the line when the fault is on one.
    public struct Place: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int?

        /// The file `path`, at `line` when the fault is on one.
        public init(path: String, line: Int?) {
            self.path = path
            self.line = line
        }

        public var description: String { line.map { "\(path):\($0)" } ?? path }
    }

    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// A line without 7 tab-separated fields (6 when the value is left out).
        case fieldCount(Int)
        /// A domain field that is empty.
        case emptyDomain
        /// A `TRUE`/`FALSE` field holding something else.
        case flag(field: String, found: String)
        /// A path that does not start with `/`.
        case path(String)
        /// An expiry that is not a whole number of seconds from 0 up.
        case expiry(String)
        /// A cookie without a name.
        case emptyName
        /// The file cannot be read, with the system's reason.
        case unreadable(String)
        /// The file is not UTF-8 text.
        case notUTF8
    }

    public var place: Place
    public var reason: Reason

    /// An error at `place` for `reason`.
    public init(place: Place, reason: Reason) {
        self.place = place
        self.reason = reason
    }

    public var description: String {
        let what = switch reason {
        case .fieldCount(let count):
            "expected 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value), found \(count)"
        case .emptyDomain: "expected a domain in the first field, found none"
        case .flag(let field, let found): "expected TRUE or FALSE in the \(field) field, found '\(found)'"
        case .path(let path): "expected a path starting with / in the third field, found '\(path)'"
        case .expiry(let text): "expected the expiry as seconds since 1970 (0 for a session cookie), found '\(text)'"
        case .emptyName: "expected a cookie name in the sixth field, found none"
        case .unreadable(let reason): "cannot be read: \(reason)"
        case .notUTF8: "is not UTF-8 text; expected a Netscape cookie file"
        }
        return "\(place): \(what)"
    }
}
