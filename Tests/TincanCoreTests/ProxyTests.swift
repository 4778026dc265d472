import Testing
@testable import TincanCore

/// Proxy URLs, the environment's proxy variables and no-proxy lists, read by curl's rules.
@Suite("Proxy settings follow curl's rules")
struct ProxyTests {
    // MARK: - Proxy URLs

    @Test("A proxy URL without a scheme is http, and without a port 1080, as curl assumes")
    func defaultsLikeCurl() throws {
        let proxy = try ProxyServer(parsing: "proxy.example")
        #expect(proxy == ProxyServer(kind: .http, host: "proxy.example", port: 1080))
        #expect(try ProxyServer(parsing: "socks5h://127.0.0.1:9050") == ProxyServer(kind: .socks5, host: "127.0.0.1", port: 9050))
        #expect(try ProxyServer(parsing: "http://[::1]:3128/").address == "[::1]:3128")
    }

    @Test("Credentials in a proxy URL are percent-decoded and never shown")
    func credentialsAreDecodedAndHidden() throws {
        let proxy = try ProxyServer(parsing: "http://ann:s%40cret@127.0.0.1:8888")
        #expect(proxy.credential == Credential(user: "ann", password: "s@cret"))
        #expect(proxy.description == "http://ann:***@127.0.0.1:8888")
        let error = #expect(throws: ProxyError.self) { try ProxyServer(parsing: "http://ann:s3cret@127.0.0.1:99999") }
        #expect(error?.description.contains("s3cret") == false)
        #expect(error?.description.contains("ann:***@") == true)
    }

    @Test("Malformed proxy URLs are refused with the reason", arguments: [
        ("ftp://proxy:21", "unknown proxy scheme 'ftp'"),
        ("https://proxy:443", "https proxies are not supported"),
        ("socks4://proxy", "socks4 proxies are not supported"),
        ("http://", "names no proxy host"),
        ("http://:8080", "names no proxy host"),
        ("http://proxy:99999", "invalid port '99999'"),
        ("http://proxy:0", "invalid port '0'"),
        ("http://proxy:80x", "invalid port '80x'"),
        ("http://proxy:8080/path", "has a path"),
        ("socks5://u:p@proxy", "SOCKS proxies with a user and password are not supported"),
    ])
    func malformedURLs(text: String, reason: String) {
        let error = #expect(throws: ProxyError.self) { try ProxyServer(parsing: text) }
        #expect(error?.description.contains(reason) == true, "\(error.map { "\($0)" } ?? "no error")")
    }

    // MARK: - No-proxy lists

    @Test("A name matches itself and the hosts below it, not a host that merely ends with it")
    func domainSuffixMatching() {
        let list = NoProxyList("example.com")
        #expect(list.match(host: "example.com") == "example.com")
        #expect(list.match(host: "www.example.com") == "example.com")
        #expect(list.match(host: "WWW.Example.COM") == "example.com")
        #expect(list.match(host: "notexample.com") == nil)
        #expect(list.match(host: "example.com.org") == nil)
    }

    @Test("A leading dot and trailing dots are ignored; blanks and commas separate entries")
    func dotsAndSeparators() {
        let list = NoProxyList(" .internal , other.test\tlocalhost.")
        #expect(list.entries == [".internal", "other.test", "localhost."])
        #expect(list.match(host: "internal") == ".internal")
        #expect(list.match(host: "api.internal") == ".internal")
        #expect(list.match(host: "localhost") == "localhost.")
        #expect(list.match(host: "other.test.") == "other.test")
    }

    @Test("Only the whole value * is a wildcard")
    func wildcard() {
        #expect(NoProxyList("*").match(host: "anything.example") == "*")
        #expect(NoProxyList("*.example.com").match(host: "www.example.com") == nil)
        #expect(NoProxyList("example.com,*").match(host: "other.test") == nil)
    }

    @Test("IP addresses match exactly or by CIDR range, IPv6 without brackets")
    func addresses() {
        let list = NoProxyList("10.0.0.0/8,192.168.1.5,::1,fe80::/10")
        #expect(list.match(host: "10.20.30.40") == "10.0.0.0/8")
        #expect(list.match(host: "11.0.0.1") == nil)
        #expect(list.match(host: "192.168.1.5") == "192.168.1.5")
        #expect(list.match(host: "192.168.1.6") == nil)
        #expect(list.match(host: "[::1]") == "::1")
        #expect(list.match(host: "fe80::1") == "fe80::/10")
        #expect(list.match(host: "2001:db8::1") == nil)
        // A name entry never matches an address, nor an address a name.
        #expect(NoProxyList("127.0.0.1").match(host: "localhost") == nil)
    }

    @Test("An entry with a port matches nothing, as in curl; the target's port plays no part")
    func ports() throws {
        #expect(NoProxyList("localhost:8080").match(host: "localhost") == nil)
        let settings = ProxySettings(choice: .server(try ProxyServer(parsing: "127.0.0.1:3128")), noProxy: NoProxyList("example.com"))
        #expect(try settings.route(to: URLReference(parsing: "http://example.com:8080/")).server == nil)
    }

    // MARK: - The environment

    @Test("An http target reads only lowercase http_proxy; uppercase HTTP_PROXY is ignored, as curl does")
    func httpProxyIsLowercaseOnly() throws {
        let upper = ProxySettings(environment: ProxyEnvironment(["HTTP_PROXY": "127.0.0.1:1"]))
        #expect(try upper.route(to: URLReference(parsing: "http://example.com/")).server == nil)
        let lower = ProxySettings(environment: ProxyEnvironment(["http_proxy": "127.0.0.1:2"]))
        let route = try lower.route(to: URLReference(parsing: "http://example.com/"))
        #expect(route.server?.port == 2)
        #expect(route.description == "via proxy 127.0.0.1:2 because http_proxy is set")
    }

    @Test("An https target reads https_proxy, then HTTPS_PROXY, then all_proxy and ALL_PROXY")
    func httpsPrecedence() throws {
        let url = URLReference(parsing: "https://example.com/")
        let both = ProxySettings(environment: ProxyEnvironment(["https_proxy": "127.0.0.1:1", "HTTPS_PROXY": "127.0.0.1:2", "all_proxy": "127.0.0.1:3"]))
        #expect(try both.route(to: url).server?.port == 1)
        let upper = ProxySettings(environment: ProxyEnvironment(["HTTPS_PROXY": "127.0.0.1:2", "all_proxy": "127.0.0.1:3"]))
        #expect(try upper.route(to: url).because == .variable("HTTPS_PROXY"))
        let all = ProxySettings(environment: ProxyEnvironment(["ALL_PROXY": "socks5h://127.0.0.1:4", "http_proxy": "127.0.0.1:5"]))
        #expect(try all.route(to: url) == ProxyRoute(server: ProxyServer(kind: .socks5, host: "127.0.0.1", port: 4), because: .variable("ALL_PROXY")))
        // An empty variable counts as unset.
        let empty = ProxySettings(environment: ProxyEnvironment(["https_proxy": "", "HTTPS_PROXY": "127.0.0.1:2"]))
        #expect(try empty.route(to: url).server?.port == 2)
    }

    @Test("no_proxy is read before NO_PROXY; --noproxy replaces both, and its '' proxies every host")
    func noProxyPrecedence() throws {
        let url = URLReference(parsing: "https://api.internal/")
        let environment = ProxyEnvironment(["https_proxy": "127.0.0.1:1", "no_proxy": "internal", "NO_PROXY": "other"])
        let route = try ProxySettings(environment: environment).route(to: url)
        #expect(route.server == nil)
        #expect(route.description.hasPrefix("direct because no_proxy matches (entry `internal`)"))
        #expect(try ProxySettings(noProxy: NoProxyList(""), environment: environment).route(to: url).server?.port == 1)
        let option = try ProxySettings(noProxy: NoProxyList("api.internal"), environment: environment).route(to: url)
        #expect(option.description.hasPrefix("direct because --noproxy (a session's noproxy:) matches"))
    }

    @Test("--proxy replaces the variables, --proxy '' turns proxies off, and no proxy anywhere is direct")
    func optionOverEnvironment() throws {
        let environment = ProxyEnvironment(["http_proxy": "127.0.0.1:1"])
        let url = URLReference(parsing: "http://example.com/")
        let given = try ProxySettings(proxy: "127.0.0.1:9", noProxy: nil, environment: environment).route(to: url)
        #expect(given.server?.port == 9)
        #expect(given.description == "via proxy 127.0.0.1:9 because --proxy (a session's proxy:) names it")
        let off = try ProxySettings(proxy: "", noProxy: nil, environment: environment).route(to: url)
        #expect(off == ProxyRoute(server: nil, because: .disabled))
        #expect(try ProxySettings(environment: ProxyEnvironment()).route(to: url).because == .noneSet)
        #expect(try ProxySettings.direct.route(to: url).server == nil)
    }

    @Test("A proxy variable that cannot be used is an error naming the variable")
    func badVariable() {
        let settings = ProxySettings(environment: ProxyEnvironment(["https_proxy": "ftp://proxy"]))
        let error = #expect(throws: ProxyError.self) { try settings.route(to: URLReference(parsing: "https://example.com/")) }
        #expect(error?.description.contains("https_proxy=ftp://proxy") == true)
    }

    @Test("Plain http goes to an HTTP proxy in absolute form, https through a tunnel, and plain http too with --proxytunnel or a SOCKS proxy")
    func absoluteFormOrTunnel() throws {
        let http = URLReference(parsing: "http://example.com/a")
        let https = URLReference(parsing: "https://example.com/a")
        let settings = try ProxySettings(proxy: "127.0.0.1:3128", noProxy: nil, environment: ProxyEnvironment())
        #expect(try settings.route(to: http).forwardsInAbsoluteForm)
        #expect(try !settings.route(to: https).forwardsInAbsoluteForm)
        var tunnelling = settings
        tunnelling.tunnelsPlainHTTP = true
        #expect(try !tunnelling.route(to: http).forwardsInAbsoluteForm)
        let socks = try ProxySettings(proxy: "socks5h://127.0.0.1:1080", noProxy: nil, environment: ProxyEnvironment())
        #expect(try !socks.route(to: http).forwardsInAbsoluteForm)
        let variable = ProxySettings(environment: ProxyEnvironment(["http_proxy": "127.0.0.1:3128"]))
        #expect(try variable.route(to: http).forwardsInAbsoluteForm)
        var options = TaskOptions()
        options.proxy = variable
        #expect(Explanation.connection(to: http, options: options).lines.map(\.text).contains(
            "The request goes to the proxy in absolute form (`http://example.com:80/…` in the request line), as curl sends plain http: the proxy reads it whole and may cache the response."))
        options.proxy = tunnelling
        #expect(Explanation.connection(to: http, options: options).lines.map(\.text).contains(
            "The proxy opens a CONNECT tunnel to `example.com:80` (--proxytunnel), so it sees only the tunnel."))
    }
}
