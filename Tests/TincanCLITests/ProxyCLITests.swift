import Foundation
import Synchronization
import TestSupport
import Testing
@testable import tincan

/// `tincan send` through a real proxy (tinyproxy on loopback), chosen by `--proxy` or by the
/// environment with curl's rules, and refused with the reason when the proxy says no.
@Suite("Sending through a proxy")
struct ProxyCLITests {
    /// Runs the built binary with extra environment variables (proxy variables of the test
    /// process itself are cleared, so the machine's settings cannot leak in).
    func tincan(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        var variables = Dictionary(uniqueKeysWithValues: ["http_proxy", "https_proxy", "HTTPS_PROXY", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"].map { ($0, "") })
        variables["LANG"] = "en_US.UTF-8"
        variables.merge(environment) { _, new in new }
        return try await run(BuiltProducts.tincan, arguments, environment: variables)
    }

    @Test("Plain http goes to the proxy in absolute form, through --proxy and http_proxy alike, even to one that tunnels only to port 443")
    func plainHTTPThroughProxy() async throws {
        try await withDemoServer { server in
            // tinyproxy's ConnectPort 443, as Squid's default SSL_ports: no tunnel to the demo server's port.
            try await Tinyproxy.with(connectPorts: [443]) { proxy in
                let result = try await tincan(["send", "--proxy", proxy.url, "GET", server.baseURL + "/get?via=option", "--format", "json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                #expect(result.stdout.contains("\"status\":200") || result.stdout.contains("\"status\": 200"), "\(result.stdout)")
                #expect(proxy.log.contains("GET http://127.0.0.1:\(server.port)/get?via=option HTTP/1.1"), "\(proxy.log)")
                let variable = try await tincan(["send", "GET", server.baseURL + "/get?via=variable"], environment: ["http_proxy": proxy.url])
                #expect(variable.status == 0, "\(variable.stdout)\(variable.stderr)")
                #expect(proxy.log.contains("GET http://127.0.0.1:\(server.port)/get?via=variable HTTP/1.1"), "\(proxy.log)")
                #expect(!proxy.log.contains("CONNECT 127.0.0.1:\(server.port)"), "\(proxy.log)")
                // Asked to tunnel, the same proxy refuses, as it refused every plain-http request before.
                let tunnelled = try await tincan(["send", "--proxytunnel", "--proxy", proxy.url, "GET", server.baseURL + "/get"])
                #expect(tunnelled.status == 4)
                #expect(tunnelled.stderr.contains("refused to open a tunnel (it answered 403"), "\(tunnelled.stderr)")
            }
        }
    }

    @Test("The request in absolute form carries the target's Host and the proxy's credentials, never the proxy's password in the URL")
    func absoluteFormOnTheWire() async throws {
        let heads = RecordedHeads()
        let proxy = try RawHTTPServer { head, socket in
            heads.append(head)
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        }
        defer { proxy.stop() }
        let result = try await tincan(["send", "--proxy", "http://ann:s%3Acret@127.0.0.1:\(proxy.port)", "GET", "http://example.test:8080/a/b?q=1#frag"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let head = try #require(heads.all.first)
        let lines = head.components(separatedBy: "\r\n")
        #expect(lines.first == "GET http://example.test:8080/a/b?q=1 HTTP/1.1")
        #expect(lines.contains("Host: example.test:8080"))
        #expect(lines.contains("Proxy-Authorization: Basic " + Data("ann:s:cret".utf8).base64EncodedString()))
    }

    @Test("https goes through a CONNECT tunnel to the demo server's TLS mode, verified end to end")
    func httpsThroughTunnel() async throws {
        let authority = try TestCertificate.authority()
        let certificate = try TestCertificate.issued(by: authority)
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            try await Tinyproxy.with { proxy in
                let result = try await tincan(["send", "--ca-file", caFile, "GET", server.baseURL + "/get"], environment: ["HTTPS_PROXY": proxy.url])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                #expect(proxy.log.contains("CONNECT 127.0.0.1:\(server.port)"), "\(proxy.log)")
            }
        }
    }

    @Test("NO_PROXY that matches the host bypasses the proxy variable; uppercase HTTP_PROXY is ignored for http")
    func environmentBypass() async throws {
        try await withDemoServer { server in
            try await Tinyproxy.with { proxy in
                let bypassed = try await tincan(["send", "GET", server.baseURL + "/get"], environment: ["http_proxy": proxy.url, "NO_PROXY": "localhost, 127.0.0.0/8"])
                #expect(bypassed.status == 0, "\(bypassed.stdout)\(bypassed.stderr)")
                let ignored = try await tincan(["send", "GET", server.baseURL + "/get"], environment: ["HTTP_PROXY": proxy.url])
                #expect(ignored.status == 0, "\(ignored.stdout)\(ignored.stderr)")
                #expect(!proxy.carried(toPort: server.port), "\(proxy.log)")
                let proxied = try await tincan(["send", "GET", server.baseURL + "/get"], environment: ["http_proxy": proxy.url, "NO_PROXY": "example.com"])
                #expect(proxied.status == 0, "\(proxied.stdout)\(proxied.stderr)")
                #expect(proxy.carried(toPort: server.port), "\(proxy.log)")
            }
        }
    }

    @Test("--noproxy and --proxy '' override the environment")
    func optionsOverrideEnvironment() async throws {
        try await withDemoServer { server in
            try await Tinyproxy.with { proxy in
                let off = try await tincan(["send", "--proxy", "", "GET", server.baseURL + "/get"], environment: ["http_proxy": "127.0.0.1:1"])
                #expect(off.status == 0, "\(off.stdout)\(off.stderr)")
                let listed = try await tincan(["send", "--noproxy", "127.0.0.1", "GET", server.baseURL + "/get"], environment: ["http_proxy": "127.0.0.1:1"])
                #expect(listed.status == 0, "\(listed.stdout)\(listed.stderr)")
                let forced = try await tincan(["send", "--noproxy", "", "GET", server.baseURL + "/get"], environment: ["http_proxy": proxy.url, "no_proxy": "*"])
                #expect(forced.status == 0, "\(forced.stdout)\(forced.stderr)")
                #expect(proxy.carried(toPort: server.port), "\(proxy.log)")
            }
        }
    }

    @Test("A SOCKS5 proxy carries http from --proxy and https from ALL_PROXY (microsocks' log shows each)")
    func throughSOCKS5() async throws {
        let authority = try TestCertificate.authority()
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
        try await withDemoServer { plain in
            try await withDemoServer(tls: try TestCertificate.issued(by: authority).serverConfiguration()) { secure in
                try await Microsocks.with { socks in
                    let http = try await tincan(["send", "--proxy", socks.url, "GET", plain.baseURL + "/get"])
                    #expect(http.status == 0, "\(http.stdout)\(http.stderr)")
                    #expect(socks.log.contains("connected to 127.0.0.1:\(plain.port)"), "\(socks.log)")
                    let https = try await tincan(["send", "--ca-file", caFile, "GET", secure.baseURL + "/get"], environment: ["ALL_PROXY": "socks5://127.0.0.1:\(socks.port)"])
                    #expect(https.status == 0, "\(https.stdout)\(https.stderr)")
                    #expect(socks.log.contains("connected to 127.0.0.1:\(secure.port)"), "\(socks.log)")
                }
            }
        }
    }

    @Test("A proxy that refuses the tunnel (403) is exit 4 with the reason; its refusal of a plain-http request is its response")
    func refusingProxy() async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            try await Tinyproxy.with(allowing: "10.9.9.9") { proxy in
                let result = try await tincan(["send", "--proxy", proxy.url, "GET", server.baseURL + "/get"])
                #expect(result.status == 4)
                #expect(result.stderr.contains("proxy failed: the proxy 127.0.0.1:\(proxy.port) refused to open a tunnel (it answered 403 Access denied)"), "\(result.stdout)\(result.stderr)")
                // Plain http is the proxy's to answer, as curl shows it: its 403 page (the body, into a pipe).
                let plain = try await tincan(["send", "--proxy", proxy.url, "GET", "http://127.0.0.1:\(server.port)/get"])
                #expect(plain.status == 3)
                #expect(plain.stdout.contains("Access denied"), "\(plain.stdout)")
            }
        }
    }

    @Test("A proxy that wants credentials gets them from the URL, and says so without them; the password is never printed")
    func proxyCredentials() async throws {
        try await withDemoServer { server in
            try await Tinyproxy.with(basicAuth: ("ann", "s3cret")) { proxy in
                let with = try await tincan(["send", "--proxy", "http://ann:s3cret@127.0.0.1:\(proxy.port)", "GET", server.baseURL + "/get"])
                #expect(with.status == 0, "\(with.stdout)\(with.stderr)")
                let without = try await tincan(["send", "--proxy", proxy.url, "GET", server.baseURL + "/get"])
                #expect(without.status == 4)
                #expect(without.stderr.contains("wants credentials (407 Proxy Authentication Required)"), "\(without.stdout)")
                let wrong = try await tincan(["send", "--proxy", "http://ann:wrong@127.0.0.1:\(proxy.port)", "GET", server.baseURL + "/get", "--format", "json"])
                // tinyproxy answers a request in absolute form with wrong credentials 401 (a
                // tunnel, 407): a response as any other, which curl shows too.
                #expect(wrong.status == 3)
                #expect(!(wrong.stdout + wrong.stderr).contains("wrong"), "\(wrong.stdout)")
                let tunnelled = try await tincan(["send", "--proxytunnel", "--proxy", "http://ann:wrong@127.0.0.1:\(proxy.port)", "GET", server.baseURL + "/get"])
                #expect(tunnelled.status == 4)
                #expect(!(tunnelled.stdout + tunnelled.stderr).contains("wrong"), "\(tunnelled.stdout)")
            }
        }
    }

    @Test("A proxy port with nothing listening is exit 4, naming the proxy")
    func proxyNotListening() async throws {
        let port = try Tinyproxy.freePort()
        let result = try await tincan(["send", "GET", "http://127.0.0.1:9/get"], environment: ["http_proxy": "127.0.0.1:\(port)"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("proxy failed: cannot connect to the proxy 127.0.0.1:\(port)"), "\(result.stdout)")
    }

    @Test("Malformed proxy URLs are exit 2 naming --proxy", arguments: [
        (["--proxy", "ftp://proxy"], "--proxy 'ftp://proxy' has the unknown proxy scheme 'ftp'"),
        (["--proxy", "http://"], "--proxy 'http://' names no proxy host"),
        (["--proxy", "http://proxy:70000"], "--proxy 'http://proxy:70000' has an invalid port '70000'"),
        (["--proxy", "http://u:pw@proxy:x"], "--proxy 'http://u:***@proxy:x' has an invalid port 'x'"),
    ])
    func malformedProxy(arguments: [String], message: String) async {
        let ending = await ending(of: ["send"] + arguments + ["--offline", "GET", "http://127.0.0.1:9/"])
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains(message) == true, "\(ending.standardError ?? "")")
    }

    @Test("A proxy variable that cannot be used is exit 2 naming the variable")
    func malformedVariable() async throws {
        let result = try await tincan(["send", "--offline", "GET", "https://127.0.0.1:9/"], environment: ["HTTPS_PROXY": "gopher://proxy"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("proxy variable 'HTTPS_PROXY=gopher://proxy' has the unknown proxy scheme 'gopher'"), "\(result.stderr)")
    }
}

/// Request heads a raw server received, in order.
private final class RecordedHeads: Sendable {
    private let heads = Mutex<[String]>([])
    var all: [String] { heads.withLock { $0 } }
    func append(_ head: String) { heads.withLock { $0.append(head) } }
}
