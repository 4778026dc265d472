import Foundation
import Synchronization
import Testing
import TestSupport
import TincanCore
import TincanDemoServer
import TincanSessions
@testable import tincan

/// `tincan serve` for a classroom (issue 20 §3): `--host` and `--show`.
@Suite("tincan serve for a classroom")
struct ServeClassroomTests {
    @Test("--host takes IP addresses and localhost; loopback ones need no warning, others get one")
    func hostAddresses() throws {
        for (text, host, loopback) in [("127.0.0.1", "127.0.0.1", true), ("127.1.2.3", "127.1.2.3", true), ("::1", "::1", true), ("[::1]", "::1", true),
                                       ("localhost", "localhost", true), ("LocalHost", "localhost", true), ("::ffff:127.0.0.1", "::ffff:127.0.0.1", true),
                                       ("0.0.0.0", "0.0.0.0", false), ("192.168.1.20", "192.168.1.20", false), ("::", "::", false)] {
            let address = try ServeAddress.parse(text)
            #expect(address == ServeAddress(host: host, isLoopback: loopback), "\(text)")
            #expect((address.warning == nil) == loopback, "\(text)")
        }
        let warning = try #require(try ServeAddress.parse("0.0.0.0").warning)
        #expect(warning.hasPrefix("warning: tincan serve listens on 0.0.0.0"))
        #expect(warning.contains("anyone on the network"))
        #expect(warning.contains("echoes back"))
        #expect(warning.contains("/__received"))
        #expect(try ServeAddress.parse("fe80::1").warning?.contains("listens on [fe80::1]") == true)
    }

    @Test("--host refuses anything but an IP address or localhost, exit 2 naming --host", arguments: ["example.com", "300.1.1.1", "", "127.0.0.1:80", "localhost.", "1.2.3"])
    func badHost(text: String) async throws {
        #expect(throws: CLIFailure.self) { try ServeAddress.parse(text) }
        let ending = await ending(of: ["serve", "--port", "0", "--host", text])
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains("--host: \"\(text)\" is not an IP address") == true, "\(String(describing: ending.standardError))")
    }

    @Test("a server bound to ::1 (serve --host ::1) is reached at its bracketed base URL, and names IPv6 clients in brackets")
    func bindsIPv6Loopback() async throws {
        let address = try ServeAddress.parse("::1")
        let server = try await DemoServer.start(host: address.host)
        let result = try await send(draft("GET", "/get", on: server))
        await server.stop()
        #expect(server.baseURL.hasPrefix("http://[::1]:"))
        #expect(result.response?.statusCode == 200, "\(String(describing: result.transportError))")
        #expect(server.received.all.first?.remote.hasPrefix("[::1]:") == true)
    }

    @Test("serve --show prints each request's head as received and its text body, as it arrives")
    func showPrintsRequests() async throws {
        let printed = Mutex<[String]>([])
        let server = try await DemoServer.start(host: "127.0.0.1", onReceived: { request in
            printed.withLock { $0.append(ReceivedPrinter.text(request)) }
        })
        let result = try await send(draft("POST", "/post", ["name=Ada", "X-Class:42"], on: server))
        await server.stop()
        #expect(result.response?.statusCode == 200)
        let text = try #require(printed.withLock { $0 }.first)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "", "a blank line sets each request off from the one before")
        #expect(lines[1].hasPrefix("── #1 from 127.0.0.1:"))
        #expect(lines[1].count == ReceivedPrinter.ruleWidth, "the rule is as wide as a line: \(lines[1])")
        #expect(lines[2] == "POST /post HTTP/1.1")
        #expect(lines.contains("X-Class: 42"))
        #expect(lines.contains("Content-Length: 8"))
        let blank = try #require(lines.dropFirst().firstIndex(of: ""), "the empty line that ends the head")
        #expect(lines[blank + 1] == "name=Ada", "the body after the head's empty line")
    }

    @Test("the binary with --show prints each request's head and body before its log line", .timeLimit(.minutes(1)))
    func showFromTheBinary() async throws {
        let directory = try TemporaryDirectory()
        let output = directory.path + "/serve.out"
        let port = try Tinyproxy.freePort()
        let pid = try spawnDaemon(BuiltProducts.tincan, ["serve", "--port", String(port), "--host", "127.0.0.1", "--show"], output: output)
        defer { stopDaemon(pid) }
        #expect(await waitUntilAccepting(port: port))
        var draft = RequestDraft(method: "POST", url: "http://127.0.0.1:\(port)/post")
        draft.items = [try RequestItem.parse("lesson=1")]
        let result = try await send(draft)
        #expect(result.response?.statusCode == 200)
        let text = await TestSupport.output(of: output, until: "POST /post 200")
        let shown = try #require(text.range(of: "── #1 from 127.0.0.1:"), "\(text)")
        let logged = try #require(text.range(of: "POST /post 200"), "\(text)")
        #expect(shown.lowerBound < logged.lowerBound, "the request as it arrived, then the log line once answered")
        #expect(text.contains("POST /post HTTP/1.1\nHost: 127.0.0.1:\(port)\n"), "\(text)")
        #expect(text.contains("Content-Length: 8\n\nlesson=1\n"), "\(text)")
        #expect(!text.contains("warning:"), "loopback needs no warning")
    }

    @Test("--allow-host takes host names only; a server beyond loopback answers any address and the names allowed")
    func allowHost() async throws {
        let bad = await ending(of: ["serve", "--port", "0", "--allow-host", "evil host\u{1B}[2J"])
        #expect(bad.status == 2)
        #expect(bad.standardError == "tincan: error: --allow-host: \"evil host·[2J\" is not a host name; expected letters, digits, dots and hyphens, such as teacher.local")
        let classroom = try ServeAddress.hostPolicy(allowing: ["teacher.local"], listeningOn: try ServeAddress.parse("0.0.0.0"))
        #expect(classroom == DemoHostPolicy(allowedNames: ["teacher.local"], acceptsAnyAddress: true))
        let loopback = try ServeAddress.hostPolicy(allowing: [], listeningOn: try ServeAddress.parse("127.0.0.1"))
        #expect(loopback == .loopback)
    }

    @Test("--show writes a binary body as its size and first bytes, a long one cut, and control characters as dots")
    func showBinaryAndLong() {
        let binary = ReceivedRequest(id: 3, time: Date(), remote: "127.0.0.1:5000", source: .wire, tls: false,
                                     head: Array("PUT /upload HTTP/1.1\r\nX-Evil: a\u{1B}[2Jb\r\n\r\n".utf8), headBytes: 41,
                                     body: [0x00, 0xFF, 0x10] + Array(repeating: 0x41, count: 40), bodyBytes: 43, isComplete: true)
        let text = ReceivedPrinter.text(binary)
        #expect(text.contains("X-Evil: a·[2Jb"), "\(text)")
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("<binary body: 43 bytes; first bytes: 00 ff 10 41"))
        #expect(text.hasSuffix(" …>\n"))

        let long = String(repeating: "é", count: 3_000)
        var request = binary
        request.body = Array(long.utf8)
        request.bodyBytes = long.utf8.count
        let cut = ReceivedPrinter.text(request, bodyLimit: 1_001)
        #expect(cut.contains(String(repeating: "é", count: 500) + "\n<body cut at 1,000 bytes of 6,000 bytes (5.9 KiB)>"), "cut before a character, not inside one")
    }

    // MARK: - Secrets and colours

    /// A request that carries a secret in each place a client puts one.
    static let secretRequest = ReceivedRequest(
        id: 7, time: Date(), remote: "127.0.0.1:5000", source: .wire, tls: false,
        head: Array("POST /post?api_key=k3y&page=2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t0ken\r\nCookie: session=c00kie\r\nX-Api-Token: abc123\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n".utf8),
        headBytes: 190, body: Array("user=ada&password=hunter2".utf8), bodyBytes: 25, isComplete: true)

    @Test("serve --show hides Authorization, cookies, tokens and secret query and form fields unless --show-secrets")
    func showMasksSecrets() {
        let masked = ReceivedPrinter.text(Self.secretRequest)
        for secret in ["k3y", "t0ken", "c00kie", "abc123", "hunter2"] {
            #expect(!masked.contains(secret), "\(secret) shown:\n\(masked)")
        }
        #expect(masked.contains("POST /post?api_key=\(Redaction.mask)&page=2 HTTP/1.1"), "\(masked)")
        #expect(masked.contains("Authorization: Bearer \(Redaction.mask)"), "the scheme stays: \(masked)")
        #expect(masked.contains("Cookie: \(Redaction.mask)"))
        #expect(masked.contains("X-Api-Token: \(Redaction.mask)"))
        #expect(masked.contains("Host: 127.0.0.1\n"), "what is not secret is shown as it came")
        #expect(masked.contains("user=ada&password=\(Redaction.mask)"), "\(masked)")

        let shown = ReceivedPrinter.text(Self.secretRequest, style: .init(showsSecrets: true))
        for secret in ["api_key=k3y", "Bearer t0ken", "session=c00kie", "abc123", "password=hunter2"] {
            #expect(shown.contains(secret), "\(secret) hidden with --show-secrets:\n\(shown)")
        }
    }

    @Test("serve --show hides a JSON body's secret members")
    func showMasksJSONSecrets() {
        var request = Self.secretRequest
        request.head = Array("POST /post HTTP/1.1\r\nContent-Type: application/json\r\n\r\n".utf8)
        request.headBytes = request.head.count
        request.body = Array(#"{"user": "ada", "client_secret": "s3cr3t"}"#.utf8)
        request.bodyBytes = request.body.count
        let text = ReceivedPrinter.text(request)
        #expect(!text.contains("s3cr3t"), "\(text)")
        #expect(text.contains(#""user": "ada""#), "\(text)")
    }

    @Test("serve --show colours the rule, request line and header names only when asked, and the colours hold no text of their own")
    func showColours() {
        let plain = ReceivedPrinter.text(Self.secretRequest)
        #expect(!plain.contains("\u{1B}"))
        let coloured = ReceivedPrinter.text(Self.secretRequest, style: .init(colors: true))
        #expect(coloured.contains("\u{1B}[36m── #7 from"), "the rule in cyan")
        #expect(coloured.contains("\u{1B}[1mPOST /post?api_key="), "the request line in bold")
        #expect(coloured.contains("\u{1B}[34mAuthorization\u{1B}[0m: Bearer"), "header names in blue")
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
    }

    @Test("--color auto colours a terminal unless NO_COLOR is set or TERM is dumb; always and never decide alone")
    func colourChoice() {
        #expect(ColorChoice.auto.colors(terminal: true, environment: [:]))
        #expect(!ColorChoice.auto.colors(terminal: false, environment: [:]), "a pipe gets no colour")
        #expect(!ColorChoice.auto.colors(terminal: true, environment: ["NO_COLOR": "1"]))
        #expect(ColorChoice.auto.colors(terminal: true, environment: ["NO_COLOR": ""]), "an empty NO_COLOR is not set")
        #expect(!ColorChoice.auto.colors(terminal: true, environment: ["TERM": "dumb"]))
        #expect(ColorChoice.always.colors(terminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.never.colors(terminal: true, environment: [:]))
    }

    @Test("--show-secrets without --show is refused, exit 2")
    func showSecretsNeedsShow() async {
        let ending = await ending(of: ["serve", "--port", "0", "--show-secrets"])
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains("--show-secrets goes with --show") == true, "\(String(describing: ending.standardError))")
    }
}
