import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
@testable import tincan

@Suite("tincan ws talks to a WebSocket server")
struct WebSocketCLITests {
    /// The frames of text output without their times: `→ hello`, `← close 1000`.
    static func frames(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map { line in
            // `HH:MM:SS.mmm ` first, on every line.
            #expect(line.range(of: #"^\d\d:\d\d:\d\d\.\d\d\d [→←] "#, options: .regularExpression) != nil, "\(line)")
            return String(line.dropFirst(13))
        }
    }

    @Test("each line of standard input is a text message; the echoes print, and the end of the input closes with 1000 and exits 0")
    func standardInputLinesAreMessages() async throws {
        try await withDemoServer { server in
            let url = "ws://127.0.0.1:\(server.port)/ws"
            let result = try await tincan(["ws", url], standardInput: .pipe(Array("hello\r\nwörld\n".utf8)))
            #expect(result.status == 0, "\(result.stderr)")
            let frames = Self.frames(result.stdout)
            #expect(Set(frames) == ["→ hello", "← hello", "→ wörld", "← wörld", "→ close 1000", "← close 1000"], "\(frames)")
            #expect(frames.last == "← close 1000")
            let order = { (frame: String) in frames.firstIndex(of: frame) ?? -1 }
            #expect(order("→ hello") < order("→ wörld") && order("→ wörld") < order("→ close 1000"))
            #expect(order("← hello") < order("← wörld"))
        }
    }

    @Test("--message goes first, and --format json prints one object a frame: direction, time, type, data")
    func messagesAsJSON() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["ws", "--message", "one", "--message", "{\"n\": 2}", "--format", "json", "http://127.0.0.1:\(server.port)/ws"],
                                          standardInput: .pipe(Array("three\n".utf8)))
            #expect(result.status == 0, "\(result.stderr)")
            let objects = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            func values(_ key: String, _ direction: String) -> [ParameterValue?] {
                objects.filter { field($0, "direction") == .string(direction) }.map { field($0, key) }
            }
            #expect(values("data", "sent") == [.string("one"), .string("{\"n\": 2}"), .string("three"), .string("")])
            #expect(values("type", "sent") == [.string("text"), .string("text"), .string("text"), .string("close")])
            #expect(values("data", "received") == [.string("one"), .string("{\"n\": 2}"), .string("three"), .string("")])
            #expect(values("code", "received").last == .integer(1000))
            for object in objects {
                guard case .string(let time)? = field(object, "time") else {
                    Issue.record("no time in \(object)")
                    continue
                }
                #expect(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil, "\(time)")
            }
        }
    }

    @Test("a server's control characters are shown as ·, never written to the terminal")
    func controlCharactersAreNeutralised() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["ws", "ws://127.0.0.1:\(server.port)/ws"], standardInput: .pipe(Array("a\u{1B}]52;c;eA==\u{07}b\n".utf8)))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdoutBytes.contains(0x1B) && !result.stdoutBytes.contains(0x07))
            #expect(Self.frames(result.stdout).contains("← a·]52;c;eA==·b"), "\(result.stdout)")
        }
    }

    @Test("wss:// verifies the server: refused without its authority, echoed with --ca-file, to a host name and to an IP address")
    func secureWebSocket() async throws {
        let authority = try TestCertificate.authority()
        let certificate = try TestCertificate.issued(by: authority)
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
        let server = try await DemoServer.start(tls: try certificate.serverConfiguration(), http2: false)
        defer { Task { await server.stop() } }
        let url = "wss://localhost:\(server.port)/ws"
        let refused = try await tincan(["ws", "--message", "hi", url])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("TLS failed"), "\(refused.stderr)")
        let trusted = try await tincan(["ws", "--ca-file", caFile, "--message", "hi", url])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(Self.frames(trusted.stdout).contains("← hi"), "\(trusted.stdout)")
        // An address is sent as no server name at all (RFC 6066 §3); the certificate names it.
        let address = try await tincan(["ws", "--ca-file", caFile, "--message", "hi", "wss://127.0.0.1:\(server.port)/ws"])
        #expect(address.status == 0, "\(address.stderr)")
        #expect(Self.frames(address.stdout).contains("← hi"), "\(address.stdout)")
        await server.stop()
    }

    @Test("wss:// to an IP address still checks that the certificate names the address")
    func secureWebSocketChecksTheAddress() async throws {
        // Trusted, but for localhost only: no IP address among its names.
        let named = try TestCertificate.selfSigned(dnsNames: ["localhost"], addresses: [])
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("named.pem", Array(named.certificatePEM.utf8))
        let server = try await DemoServer.start(tls: try named.serverConfiguration(), http2: false)
        defer { Task { await server.stop() } }
        let byName = try await tincan(["ws", "--ca-file", caFile, "--message", "hi", "wss://localhost:\(server.port)/ws"])
        #expect(byName.status == 0, "\(byName.stderr)")
        let byAddress = try await tincan(["ws", "--ca-file", caFile, "--message", "hi", "wss://127.0.0.1:\(server.port)/ws"])
        #expect(byAddress.status == 4, "\(byAddress.stdout)")
        #expect(byAddress.stderr.contains("127.0.0.1"), "\(byAddress.stderr)")
        #expect(byAddress.stdout.isEmpty, "no frame went out: \(byAddress.stdout)")
        await server.stop()
    }

    @Test("a Set-Cookie on the 101 goes into the jar: saved with --cookie-jar, sent with the next handshake, a foreign domain's refused")
    func upgradeCookiesAreKept() async throws {
        try await withDemoServer { server in
            let directory = try TemporaryDirectory()
            let jar = directory.path + "/jar.txt"
            let base = "ws://127.0.0.1:\(server.port)/ws"
            let first = try await tincan(["ws", "--cookie-jar", jar, "--message", "hi", base + "?set-cookie=flavour%3Doatmeal&set-cookie=evil%3D1%3B%20Domain%3Dexample.com"])
            #expect(first.status == 0, "\(first.stderr)")
            let saved = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(saved.contains("\tflavour\toatmeal"), "\(saved)")
            #expect(!saved.contains("evil"), "a cookie for another domain is refused: \(saved)")
            let second = try await tincan(["ws", "--cookie-jar", jar, "--message", "again", base])
            #expect(second.status == 0, "\(second.stderr)")
            let head = String(decoding: server.received.all.last?.head ?? [], as: UTF8.self)
            #expect(head.hasPrefix("GET /ws HTTP/1.1\r\n") && head.contains("\r\nCookie: flavour=oatmeal\r\n"), "\(head)")
            // The same jar serves HTTP: the cookie is the origin's, whichever protocol set it.
            let cookies = try await tincan(["send", "--cookie-jar", jar, "http://127.0.0.1:\(server.port)/cookies"])
            #expect(cookies.stdout.contains("\"flavour\": \"oatmeal\""), "\(cookies.stdout)")
        }
    }

    @Test("--binary-message sends its base64 bytes as a binary frame, printed as hex, or as base64 in JSON; bad base64 is exit 2")
    func binaryMessages() async throws {
        try await withDemoServer { server in
            let url = "ws://127.0.0.1:\(server.port)/ws"
            let text = try await tincan(["ws", "--message", "first", "--binary-message", "AAEC/w==", url])
            #expect(text.status == 0, "\(text.stderr)")
            let frames = Self.frames(text.stdout)
            #expect(frames.contains("→ binary 4 bytes: 000102ff") && frames.contains("← binary 4 bytes: 000102ff"), "\(frames)")
            #expect(frames.firstIndex(of: "→ first")! < frames.firstIndex(of: "→ binary 4 bytes: 000102ff")!, "text first, then binary: \(frames)")
            let json = try await tincan(["ws", "--binary-message", "AAEC/w==", "--format", "json", url])
            #expect(json.status == 0, "\(json.stderr)")
            let objects = try json.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            let received = objects.first { field($0, "direction") == .string("received") && field($0, "type") == .string("binary") }
            #expect(received.flatMap { field($0, "data") } == .string("AAEC/w=="), "\(json.stdout)")
        }
        let bad = await ending(of: ["ws", "--binary-message", "not base64!", "ws://127.0.0.1/ws"])
        #expect(bad.status == 2)
        #expect(bad.standardError?.contains("--binary-message 'not base64!' is not base64") == true, "\(bad)")
    }

    @Test("-a sends Basic credentials with the handshake, --auth-type oauth2 a grant's Bearer token; digest, which answers a challenge, is refused")
    func authentication() async throws {
        try await withDemoServer { server in
            let url = "ws://127.0.0.1:\(server.port)/ws"
            let result = try await tincan(["ws", "-a", "ada:lovelace", "--message", "hi", url])
            #expect(result.status == 0, "\(result.stderr)")
            let head = String(decoding: server.received.all.last?.head ?? [], as: UTF8.self)
            #expect(head.contains("\r\nAuthorization: Basic YWRhOmxvdmVsYWNl\r\n"), "\(head)")

            let grant = ["--auth-type", "oauth2", "--grant", "client-credentials", "--token-url", server.baseURL + "/oauth/token", "--client-id", "tincan-demo"]
            let bearer = try await tincan(["ws"] + grant + ["--client-secret", "demo-secret", "--message", "hi", url])
            #expect(bearer.status == 0, "\(bearer.stderr)")
            let requests = server.received.all.suffix(2).map { String(decoding: $0.head, as: UTF8.self) }
            #expect(requests.first?.hasPrefix("POST /oauth/token HTTP/1.1\r\n") == true, "the token request first: \(requests)")
            #expect(requests.last?.hasPrefix("GET /ws HTTP/1.1\r\n") == true && requests.last?.contains("\r\nAuthorization: Bearer at-") == true, "\(requests)")
            let refused = try await tincan(["ws"] + grant + ["--client-secret", "wrong", "--message", "hi", url])
            #expect(refused.status == 4)
            #expect(refused.stderr.contains("invalid_client"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("wrong"), "the secret is not shown: \(refused.stderr)")
            #expect(refused.stdout.isEmpty, "nothing was sent: \(refused.stdout)")
        }
        let digest = await ending(of: ["ws", "-a", "ada:x", "--auth-type", "digest", "ws://127.0.0.1/ws"])
        #expect(digest.status == 2)
        #expect(digest.standardError?.contains("--auth-type digest answers a challenge") == true, "\(digest)")
    }

    @Test("through an HTTP proxy the connection is a CONNECT tunnel")
    func throughHTTPProxy() async throws {
        try await withDemoServer { server in
            try await Tinyproxy.with { proxy in
                let result = try await tincan(["ws", "--proxy", proxy.url, "--message", "via proxy", "ws://127.0.0.1:\(server.port)/ws"])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(Self.frames(result.stdout).contains("← via proxy"), "\(result.stdout)")
                #expect(proxy.log.contains("CONNECT 127.0.0.1:\(server.port)"), "\(proxy.log)")
            }
        }
    }

    @Test("through a SOCKS5 proxy, wss:// to an IP address is verified at the far end of the tunnel")
    func throughSOCKS5() async throws {
        let authority = try TestCertificate.authority()
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
        let server = try await DemoServer.start(tls: try TestCertificate.issued(by: authority).serverConfiguration(), http2: false)
        defer { Task { await server.stop() } }
        try await Microsocks.with { socks in
            let result = try await tincan(["ws", "--proxy", socks.url, "--ca-file", caFile, "--message", "via socks", "wss://127.0.0.1:\(server.port)/ws"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.frames(result.stdout).contains("← via socks"), "\(result.stdout)")
            #expect(socks.log.contains("connected to 127.0.0.1:\(server.port)"), "\(socks.log)")
        }
        await server.stop()
    }

    @Test("a frame larger than --max-message-size ends the connection: exit 4, the limit named")
    func oversizedFrameIsRefused() async throws {
        try await withDemoServer { server in
            // The echo comes back as one frame of 4,000 bytes; the client takes 1,000.
            let result = try await tincan(["ws", "--max-message-size", "1k", "--message", String(repeating: "x", count: 4_000), "ws://127.0.0.1:\(server.port)/ws"])
            #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("over 1000 bytes (--max-message-size)"), "\(result.stderr)")
        }
    }

    @Test("a path the server does not upgrade is exit 4, saying it did not switch protocols")
    func refusedUpgrade() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["ws", "--message", "x", "ws://127.0.0.1:\(server.port)/get"])
            #expect(result.status == 4)
            #expect(result.stderr.contains("did not switch to WebSocket"), "\(result.stderr)")
        }
    }

    @Test("bad input is exit 2 naming what is wrong")
    func badInput() async {
        let scheme = await ending(of: ["ws", "ftp://127.0.0.1/ws"])
        #expect(scheme.status == 2)
        #expect(scheme.standardError?.contains("the scheme 'ftp' is not ws or wss") == true, "\(scheme)")
        let size = await ending(of: ["ws", "--max-message-size", "10", "ws://127.0.0.1/ws"])
        #expect(size.status == 2)
        #expect(size.standardError?.contains("--max-message-size") == true, "\(size)")
        let header = await ending(of: ["ws", "-H", "no colon", "ws://127.0.0.1/ws"])
        #expect(header.status == 2)
        #expect(header.standardError?.contains("-H 'no colon' is not a header") == true, "\(header)")
    }

    @Test("a line longer than the largest message is refused by its number")
    func longLineIsRefused() throws {
        var cutter = LineCutter(maximumLineBytes: 4)
        #expect(try cutter.add(Array("ab\ncd".utf8)[...]) == ["ab"])
        #expect(cutter.finish() == "cd")
        var long = LineCutter(maximumLineBytes: 4)
        #expect(throws: (any Error).self) { _ = try long.add(Array("ok\ntoolong".utf8)[...]) }
    }
}
