/// A URI reference split into its RFC 3986 components, with reference resolution.
///
/// Foundation's URL on Linux returns nil for `URL(string: "", relativeTo: base)`, while RFC 3986
/// says the empty reference means the base itself. Tincan resolves references here, by the RFC's
/// own algorithm (section 5.2), so every platform agrees and the explain view can show each step.
public struct URLReference: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, without `:`; nil for a relative reference.
    public var scheme: String?
    /// The authority (`user@host:port`), without `//`; nil when absent.
    public var authority: String?
    /// The path, possibly empty.
    public var path: String
    /// The query, without `?`; nil when absent (an empty string is a present, empty query).
    public var query: String?
    /// The fragment, without `#`; nil when absent.
    public var fragment: String?

    /// Creates a reference from components.
    public init(scheme: String? = nil, authority: String? = nil, path: String = "", query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` into components with the grammar of RFC 3986 appendix B; any text splits.
    public init(parsing text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[afterSlashes..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20) else { return false }
        return text.utf8.allSatisfy { byte in
            switch byte | 0x20 {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): true
            default: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
        }
    }

    /// The reference recomposed (RFC 3986 section 5.3).
    public var string: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    public var description: String { string }

    /// Whether this reference has a scheme (it is a URI, not a relative reference).
    public var isAbsolute: Bool { scheme != nil }

    // MARK: - Resolution

    /// Resolves this reference against `base` (RFC 3986 section 5.2.2, strict parser).
    ///
    /// The empty reference resolves to the base without its fragment.
    public func resolved(against base: URLReference) -> URLReference {
        var target = URLReference()
        if let scheme {
            target.scheme = scheme
            target.authority = authority
            target.path = Self.removingDotSegments(path)
            target.query = query
        } else {
            if let authority {
                target.authority = authority
                target.path = Self.removingDotSegments(path)
                target.query = query
            } else {
                if path.isEmpty {
                    target.path = base.path
                    target.query = query ?? base.query
                } else {
                    if path.hasPrefix("/") {
                        target.path = Self.removingDotSegments(path)
                    } else {
                        target.path = Self.removingDotSegments(Self.merge(base: base, path: path))
                    }
                    target.query = query
                }
                target.authority = base.authority
            }
            target.scheme = base.scheme
        }
        target.fragment = fragment
        return target
    }

    /// Merges a relative path with the base's (RFC 3986 section 5.2.3).
    static func merge(base: URLReference, path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// Removes `.` and `..` segments (RFC 3986 section 5.2.4).
    public static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    // MARK: - Authority

    /// The host from the authority, without brackets for IPv6 literals; nil when there is no authority.
    public var host: String? {
        guard let hostPort = hostAndPort else { return nil }
        if hostPort.hasPrefix("["), let close = hostPort.utf8.firstIndex(of: UInt8(ascii: "]")) {
            return String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
        }
        if let colon = hostPort.utf8.lastIndex(of: UInt8(ascii: ":")) { return String(hostPort[..<colon]) }
        return String(hostPort)
    }

    /// The explicit port, if the authority names one.
    public var port: Int? {
        guard let hostPort = hostAndPort else { return nil }
        let afterHost: Substring
        if hostPort.hasPrefix("["), let close = hostPort.utf8.firstIndex(of: UInt8(ascii: "]")) {
            afterHost = hostPort[hostPort.index(after: close)...]
        } else if let colon = hostPort.utf8.lastIndex(of: UInt8(ascii: ":")) {
            afterHost = hostPort[colon...]
        } else {
            return nil
        }
        guard afterHost.hasPrefix(":") else { return nil }
        return Int(afterHost.dropFirst())
    }

    /// The user information before `@` in the authority, if any.
    public var userInfo: String? {
        guard let authority, let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return String(authority[..<at])
    }

    /// The authority after any user information. The delimiters are ASCII, so they are found
    /// byte by byte rather than character by character (a request reads these for every hop).
    private var hostAndPort: Substring? {
        guard let authority else { return nil }
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) { return authority[authority.index(after: at)...] }
        return Substring(authority)
    }

    /// The port that will be used: the explicit one, or the scheme's default.
    public var effectivePort: Int? {
        if let port { return port }
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// The origin-form request target: the path (`/` when empty) and the query.
    public var requestTarget: String {
        let target = path.isEmpty ? "/" : path
        guard let query else { return target }
        return target + "?" + query
    }

    /// The value of the Host header for this URL: the host, plus the port when it is not the default.
    public var hostHeaderValue: String? {
        guard let hostPort = hostAndPort else { return nil }
        if let port, let scheme, port == URLReference(scheme: scheme).effectivePort,
           let colon = hostPort.utf8.lastIndex(of: UInt8(ascii: ":")) {
            return String(hostPort[..<colon])
        }
        return String(hostPort)
    }

    // MARK: - Typed text

    /// Escapes the characters a person may type that cannot stand in a URI: spaces, non-ASCII,
    /// `"<>\^`{|}` and a `%` that does not start an escape. Everything else is left as typed.
    public static func escapingInvalidCharacters(_ text: String) -> String {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        output.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                output.append(byte)
            } else if isURICharacter(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(Array("0123456789ABCDEF".utf8)[Int(byte >> 4)])
                output.append(Array("0123456789ABCDEF".utf8)[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    private static func isURICharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("-._~:/?#[]@!$&'()*+,;=".utf8).contains(byte)
        }
    }
}
