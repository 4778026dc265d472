import Foundation

/// Which proxy a task's requests go through, decided per request (each redirect hop too) by
/// curl's rules, so a task and curl given the same options and environment agree.
///
/// - `--proxy URL` (``Choice/server(_:)``) replaces the proxy variables; `--proxy ''`
///   (``Choice/direct``) turns every proxy off.
/// - Otherwise the environment decides (``Choice/environment``): `http_proxy` for an http
///   target (lowercase only: curl ignores `HTTP_PROXY`, which a CGI server can be made to
///   set from a request's `Proxy:` header); `https_proxy`, else `HTTPS_PROXY`, for https;
///   else `all_proxy`, else `ALL_PROXY`. An empty variable counts as unset.
/// - `--noproxy LIST` replaces `no_proxy`/`NO_PROXY` (lowercase read first); its `''` proxies
///   every host. The list applies to a `--proxy` server too. See ``NoProxyList`` for matching.
public struct ProxySettings: Sendable, Hashable {
    /// Where the proxy comes from.
    public enum Choice: Sendable, Hashable {
        /// The proxy variables in ``environment`` decide.
        case environment
        /// No proxy at all (`--proxy ''`).
        case direct
        /// This proxy (`--proxy URL`), whatever the variables say.
        case server(ProxyServer)
    }

    /// Where the proxy comes from.
    public var choice: Choice
    /// The hosts reached directly (`--noproxy`), replacing `no_proxy`/`NO_PROXY`; nil reads them.
    public var noProxy: NoProxyList?
    /// The proxy variables, as read when the settings were made.
    public var environment: ProxyEnvironment
    /// Whether plain http goes through an HTTP proxy in a `CONNECT` tunnel too (curl's
    /// `--proxytunnel`), rather than to the proxy in absolute form (RFC 9112 §3.2.2).
    public var tunnelsPlainHTTP = false

    /// Creates settings.
    public init(choice: Choice = .environment, noProxy: NoProxyList? = nil, environment: ProxyEnvironment = ProxyEnvironment(), tunnelsPlainHTTP: Bool = false) {
        self.choice = choice
        self.noProxy = noProxy
        self.environment = environment
        self.tunnelsPlainHTTP = tunnelsPlainHTTP
    }

    /// No proxy at all, whatever the environment says: the core's default, since a library
    /// should not read its caller's environment unasked.
    public static let direct = ProxySettings(choice: .direct)

    /// The process environment's proxy variables decide.
    public static var fromEnvironment: ProxySettings {
        ProxySettings(choice: .environment, environment: .current)
    }

    /// The proxy variables, from the environment, with `--proxy TEXT` (empty for none) and
    /// `--noproxy LIST` over them.
    ///
    /// - Throws: ``ProxyError`` for a proxy URL that cannot be used.
    public init(proxy: String?, noProxy: String?, environment: ProxyEnvironment = .current) throws(ProxyError) {
        let choice: Choice = switch proxy {
        case nil: .environment
        case let text? where text.trimmingWhitespace().isEmpty: .direct
        case let text?: .server(try ProxyServer(parsing: text))
        }
        self.init(choice: choice, noProxy: noProxy.map(NoProxyList.init), environment: environment)
    }

    /// The route to `url` and why it was chosen.
    ///
    /// - Throws: ``ProxyError`` when the variable that applies holds a URL that cannot be used
    ///   (the variable is named in the error's text).
    public func route(to url: URLReference) throws(ProxyError) -> ProxyRoute {
        let server: ProxyServer
        let source: ProxyRoute.Source
        switch choice {
        case .direct:
            return ProxyRoute(server: nil, because: .disabled)
        case .server(let given):
            server = given
            source = .option
        case .environment:
            guard let (name, value) = environment.proxyVariable(forScheme: url.scheme?.lowercased() ?? "http") else {
                return ProxyRoute(server: nil, because: .noneSet)
            }
            do {
                server = try ProxyServer(parsing: value)
            } catch {
                var named = error
                named.text = "\(name)=\(value)"
                throw named
            }
            source = .variable(name)
        }
        let bypass: (list: NoProxyList, name: String)? = if let noProxy { (noProxy, "--noproxy (a session's noproxy:)") } else { environment.noProxy }
        if let bypass, let host = url.host, let entry = bypass.list.match(host: host) {
            return ProxyRoute(server: nil, because: .bypassed(entry: entry, list: bypass.name, proxy: server))
        }
        var route = ProxyRoute(server: server, because: source)
        // As curl: plain http goes to an HTTP proxy in absolute form, which every forwarding
        // proxy takes (one that allows CONNECT only to port 443 refuses a tunnel to port 80)
        // and a caching proxy can cache; https, and plain http when asked, through a tunnel.
        route.forwardsInAbsoluteForm = server.kind == .http && url.scheme?.lowercased() == "http" && !tunnelsPlainHTTP
        return route
    }
}

/// The route a request takes, and why: what the Explain view says and the transport uses.
public struct ProxyRoute: Sendable, Hashable, CustomStringConvertible {
    /// Why a route was chosen.
    public enum Source: Sendable, Hashable {
        /// `--proxy URL` (or the session's `proxy:`).
        case option
        /// The proxy variable of this name.
        case variable(String)
        /// `--proxy ''`: proxies are off.
        case disabled
        /// No proxy is set anywhere.
        case noneSet
        /// An entry of a no-proxy list (`--noproxy` or the variable named) matches the host.
        case bypassed(entry: String, list: String, proxy: ProxyServer)
    }

    /// The proxy, or nil to connect directly.
    public var server: ProxyServer?
    /// Why.
    public var because: Source
    /// Whether the request goes to the HTTP proxy in absolute form (`GET http://host/path`)
    /// rather than through a `CONNECT` tunnel: plain http, unless ``ProxySettings/tunnelsPlainHTTP``.
    public var forwardsInAbsoluteForm = false

    /// Creates a route.
    public init(server: ProxyServer?, because: Source) {
        self.server = server
        self.because = because
    }

    /// The route in words: "via proxy 127.0.0.1:8888 because HTTPS_PROXY is set".
    public var description: String {
        let via = server.map { "via \($0.kind == .socks5 ? "SOCKS5 proxy" : "proxy") \($0.address)" } ?? "direct"
        return switch because {
        case .option: "\(via) because --proxy (a session's proxy:) names it"
        case .variable(let name): "\(via) because \(name) is set"
        case .disabled: "direct because proxies are turned off (--proxy '', a session's proxy: \"\")"
        case .noneSet: "direct because no proxy is set (--proxy, http_proxy, https_proxy, all_proxy)"
        case .bypassed(let entry, let list, let proxy): "direct because \(list) matches (entry `\(entry)`), bypassing proxy \(proxy.address)"
        }
    }
}

/// The proxy variables of an environment, read with curl's names and precedence.
public struct ProxyEnvironment: Sendable, Hashable {
    /// The names curl reads, lowercase before uppercase for each.
    public static let names = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]

    /// The variables that are set and not empty, by name.
    public var variables: [String: String]

    /// Creates an environment from `variables` (only the proxy names are kept).
    public init(_ variables: [String: String] = [:]) {
        self.variables = variables.filter { Self.names.contains($0.key) && !$0.value.isEmpty }
    }

    /// This process's proxy variables.
    public static var current: ProxyEnvironment { processEnvironment }

    /// The process's variables (`ProcessEnvironment.values`, read once at start) read once too:
    /// a replay resolves every request with them.
    private static let processEnvironment = ProxyEnvironment(ProcessEnvironment.values)

    /// The variable that names the proxy for a target of `scheme`, and its value.
    public func proxyVariable(forScheme scheme: String) -> (name: String, value: String)? {
        let names = scheme == "https" ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"]
        for name in names + ["all_proxy", "ALL_PROXY"] {
            if let value = variables[name] { return (name, value) }
        }
        return nil
    }

    /// The no-proxy list, and the name of the variable it came from.
    public var noProxy: (list: NoProxyList, name: String)? {
        for name in ["no_proxy", "NO_PROXY"] {
            if let value = variables[name] { return (NoProxyList(value), name) }
        }
        return nil
    }
}
