import Foundation

/// A proxy that requests go through: an HTTP proxy (plain http in absolute form, https through
/// a `CONNECT` tunnel, as curl does; see ``ProxyRoute/forwardsInAbsoluteForm``) or a SOCKS5
/// proxy, as a `--proxy` URL or a proxy variable names it.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// How Tincan speaks to the proxy.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An HTTP proxy: plain http sent to it in absolute form; https (or plain http with
        /// `--proxytunnel`) through `CONNECT host:port`, then the request inside the tunnel.
        case http
        /// A SOCKS5 proxy. Host names are sent to the proxy to resolve (curl's `socks5h`); a
        /// `socks5://` URL is read the same way.
        case socks5
    }

    /// The schemes a proxy URL may have, and the kind each means.
    static let schemes: [String: Kind] = ["http": .http, "socks5": .socks5, "socks5h": .socks5]
    /// Proxy schemes curl knows that AsyncHTTPClient cannot speak, named in the error.
    static let unsupportedSchemes: Set<String> = ["https", "socks4", "socks4a"]
    /// The port when the URL names none, as curl assumes for every kind of proxy.
    public static let defaultPort = 1080

    /// The kind of proxy.
    public var kind: Kind
    /// The proxy's host (an IPv6 address without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user and password sent as `Proxy-Authorization: Basic` (with `CONNECT`, or with a
    /// request in absolute form), if any.
    public var credential: Credential?

    /// Creates a proxy.
    public init(kind: Kind, host: String, port: Int = ProxyServer.defaultPort, credential: Credential? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.credential = credential
    }

    /// Reads a proxy URL as curl does: `[scheme://][user:password@]host[:port][/]`, http when
    /// the scheme is left out, port 1080 when the port is; the user and password are
    /// percent-decoded.
    ///
    /// - Throws: ``ProxyError`` for an unknown or unsupported scheme, no host, a bad port, a path,
    ///   or credentials for a SOCKS proxy (AsyncHTTPClient has no SOCKS authentication).
    public init(parsing text: String) throws(ProxyError) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw ProxyError(text, .noHost) }
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        let reference = URLReference(parsing: withScheme)
        guard let rawScheme = reference.scheme, withScheme.hasPrefix(rawScheme + "://") else { throw ProxyError(text, .unknownScheme(String(trimmed.prefix { $0 != ":" }))) }
        let scheme = rawScheme.lowercased()
        guard let kind = Self.schemes[scheme] else {
            throw ProxyError(text, Self.unsupportedSchemes.contains(scheme) ? .unsupportedScheme(scheme) : .unknownScheme(scheme))
        }
        guard reference.query == nil, reference.fragment == nil, reference.path.isEmpty || reference.path == "/" else {
            throw ProxyError(text, .hasPath)
        }
        guard let authority = reference.authority, let host = reference.host, !host.isEmpty else { throw ProxyError(text, .noHost) }
        if URLReference.typedTextProblem(host) != nil || host.contains(where: { $0 == " " || $0 == "/" }) {
            throw ProxyError(text, .badHost(host))
        }
        var port = Self.defaultPort
        if let portText = Self.portText(ofAuthority: authority) {
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText), (1...65_535).contains(number) else {
                throw ProxyError(text, .badPort(String(portText)))
            }
            port = number
        }
        var credential: Credential?
        if let userInfo = reference.userInfo {
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let user = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let password = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            credential = Credential(user: user, password: password)
        }
        if kind == .socks5, credential != nil { throw ProxyError(text, .socksCredentials) }
        self.init(kind: kind, host: host, port: port, credential: credential)
    }

    /// What follows the host's `:` in an authority (`user@host:port`, `[::1]:port`), or nil
    /// when it names no port.
    private static func portText(ofAuthority authority: String) -> Substring? {
        let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? Substring(authority)
        let afterHost = hostPort.hasPrefix("[") ? hostPort[(hostPort.firstIndex(of: "]").map { hostPort.index(after: $0) } ?? hostPort.endIndex)...] : hostPort
        guard let colon = afterHost.lastIndex(of: ":") else { return nil }
        return afterHost[afterHost.index(after: colon)...]
    }

    /// `host:port`, as Explain and errors name the proxy (IPv6 in brackets).
    public var address: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The proxy as curl's `-x` takes it, credentials percent-encoded (for an export the user runs).
    public var curlURL: String {
        let user = credential.map { credential in
            let escape = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
            return "\(escape(credential.user)):\(escape(credential.password))@"
        } ?? ""
        return "\(kind == .http ? "http" : "socks5h")://\(user)\(address)"
    }

    /// The proxy as a URL with its password hidden: `http://user:***@127.0.0.1:8888`.
    public var description: String {
        let user = credential.map { "\($0.user):***@" } ?? ""
        return "\(kind == .http ? "http" : "socks5h")://\(user)\(address)"
    }
}

/// Why a proxy URL was refused.
public struct ProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the URL.
    public enum Reason: Sendable, Equatable {
        case unknownScheme(String)
        case unsupportedScheme(String)
        case noHost
        case badHost(String)
        case badPort(String)
        case hasPath
        case socksCredentials
    }

    /// The URL as given; its password is never shown.
    public var text: String
    /// What is wrong with it.
    public var reason: Reason

    /// Creates an error about `text`.
    public init(_ text: String, _ reason: Reason) {
        self.text = text
        self.reason = reason
    }

    /// The URL with the password of its user information hidden.
    public var redactedText: String {
        guard let schemeEnd = text.range(of: "://"), let at = text[schemeEnd.upperBound...].lastIndex(of: "@") else { return text }
        let userInfo = text[schemeEnd.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }

    public var description: String {
        let expected = "expected [http://|socks5://|socks5h://][user:password@]host[:port]"
        return switch reason {
        case .unknownScheme(let scheme): "'\(redactedText)' has the unknown proxy scheme '\(scheme)' (\(expected))"
        case .unsupportedScheme(let scheme): "'\(redactedText)': \(scheme) proxies are not supported (http, socks5 and socks5h are)"
        case .noHost: "'\(redactedText)' names no proxy host (\(expected))"
        case .badHost(let host): "'\(redactedText)' has an invalid proxy host '\(host)' (\(expected))"
        case .badPort(let port): "'\(redactedText)' has an invalid port '\(port)' (expected 1…65535)"
        case .hasPath: "'\(redactedText)' has a path, query or fragment; a proxy URL names only a host and port (\(expected))"
        case .socksCredentials: "'\(redactedText)': SOCKS proxies with a user and password are not supported (AsyncHTTPClient has no SOCKS authentication)"
        }
    }
}
