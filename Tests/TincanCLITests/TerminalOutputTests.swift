import Foundation
import TestSupport
import Testing
import TincanDemoServer

/// What a hostile server, proxy, certificate or shared file puts in Tincan's text output: an
/// escape that clears the screen or writes the clipboard (OSC 52), a carriage return that
/// writes over a line, a C1 control (U+009B is a CSI to some terminals), a bidi override.
private let hostile = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\r\u{9B}31m\u{202E}\u{2066}"
/// The same, without C0 controls (which HTTP/1.1 parsers refuse in a header value).
private let hostileHigh = "\u{9B}31m\u{202E}evil\u{2069}"

/// Every text output path of `tincan`, run on a pseudo-terminal: nothing from outside reaches
/// it raw (TerminalText neutralises it, shown as ·).
@Suite("Nothing from outside reaches the terminal raw")
struct TerminalOutputTests {
    /// Runs the built `tincan` on a pseudo-terminal, without colours (`NO_COLOR`), so every
    /// escape in what it wrote would be one it passed on; `colours` allows Tincan's own.
    private func onTerminal(_ arguments: [String], colours: Bool = false) async throws -> ProcessResult {
        var environment = ["LANG": "en_US.UTF-8", "TERM": "xterm-256color"]
        environment["NO_COLOR"] = colours ? "" : "1"
        return try await run(BuiltProducts.tincan, arguments, environment: environment, standardOutput: .terminal)
    }

    private func expectClean(_ result: ProcessResult, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = TerminalBytes.controls(in: result.stdoutBytes)
        #expect(found.isEmpty, "\(comment): \(found)", sourceLocation: sourceLocation)
    }

    @Test("send's text output neutralises a server's status line, header values and decoded bodies (text, JSON)")
    func sendOutput() async throws {
        let server = try RawHTTPServer { head, socket in
            let json = head.contains("GET /json")
            let body = json ? "{\"name\": \"\(hostileHigh)\", \"crlf\": \"ok\\r\\n\", \"esc\": \"\\u001b[2J\"}" : "line one\r\nsneaky\roverwritten \(hostileHigh)\n"
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK \(hostileHigh)\r\nContent-Type: \(json ? "application/json" : "text/plain; charset=utf-8")\r\n"
                + "X-Evil: \(hostileHigh)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
        defer { server.stop() }
        for path in ["text", "json"] {
            let result = try await onTerminal(["send", "GET", "\(server.baseURL)/\(path)"])
            #expect(result.status == 0, "\(result.stdout)")
            expectClean(result, "send \(path)")
            #expect(result.stdout.contains("X-Evil: ·31m·evil·"), "\(result.stdout)")
        }
        let text = try await onTerminal(["send", "GET", "\(server.baseURL)/text"])
        // A CRLF line end is kept; a lone carriage return is not.
        #expect(text.stdout.contains("line one\r\nsneaky·overwritten"), "\(text.stdout)")
        // In colour, the only escapes are Tincan's own colours (SGR: ESC [ … m).
        let coloured = try await onTerminal(["send", "GET", "\(server.baseURL)/json"], colours: true)
        #expect(coloured.stdout.contains("\u{1B}["), "colours were on")
        let withoutColours = coloured.stdout.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
        let found = TerminalBytes.controls(in: Array(withoutColours.utf8))
        #expect(found.isEmpty, "\(found)")
    }

    @Test("a TLS refusal quotes the certificate's names neutralised")
    func tlsRefusal() async throws {
        let certificate = try TestCertificate.selfSigned(commonName: "Evil \(hostile) CA")
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let result = try await onTerminal(["send", "GET", "\(server.baseURL)/get"])
            #expect(result.status == 4)
            expectClean(result, "TLS refusal")
            #expect(result.stdout.contains("self-signed ('Evil ·]52"), "\(result.stdout)")
        }
    }

    @Test("a proxy's refusal reason phrase is neutralised")
    func proxyRefusal() async throws {
        let proxy = try RawHTTPServer { _, socket in
            RawHTTPServer.write(socket, "HTTP/1.1 403 Denied \(hostileHigh)\r\nContent-Length: 0\r\n\r\n")
            // Open until the client goes, as a proxy that refuses keeps its connection.
            var byte: UInt8 = 0
            while recv(socket, &byte, 1, 0) == 1 {}
        }
        defer { proxy.stop() }
        let result = try await onTerminal(["send", "--proxy", "http://127.0.0.1:\(proxy.port)", "GET", "https://example.test/"])
        #expect(result.status == 4, "\(result.stdout)")
        expectClean(result, "proxy refusal")
        #expect(result.stdout.contains("403 Denied ·31m·evil·"), "\(result.stdout)")
    }

    @Test("import warnings quote item names neutralised, and the session written escapes them")
    func importWarnings() async throws {
        let directory = try TemporaryDirectory()
        // The name as JSON writes it, its control characters escaped.
        let name = #"Innocent \u001b]52;c;cHduZWQ=\u0007\u001b[2J\r\u009b31m\u202e\u2066 request"#
        let collection = """
            {"info": {"name": "Shared", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "\(name)", "event": [{"listen": "test", "script": {"exec": ["pm.test('x', () => {})"]}}],
                       "request": {"method": "GET", "url": "https://example.com/a"}}]}
            """
        let file = try directory.write("shared.postman_collection.json", Array(collection.utf8))
        let result = try await onTerminal(["import", "postman", file])
        #expect(result.status == 0, "\(result.stdout)")
        expectClean(result, "import")
        #expect(result.stdout.contains("warning"), "\(result.stdout)")
    }

    @Test("replay's text report neutralises request names from the file and values from the server in check messages")
    func replayReport() async throws {
        let server = try RawHTTPServer { _, socket in
            let body = "{\"value\": \"\(hostileHigh)\", \"esc\": \"\\u001b[2J\"}"
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let session = """
            name: "Shared \\e]0;title\\a"
            requests:
              - name: "Get \\e[2J\\r\\u009b\\u202e"
                url: \(server.baseURL)/x
                assert:
                  body:
                    $.value: expected
                    $.esc: expected
            """
        let file = try directory.write("shared.tincan.yaml", Array(session.utf8))
        for verbose in [false, true] {
            let result = try await onTerminal(["replay", file] + (verbose ? ["--verbose"] : []))
            #expect(result.status == 3, "\(result.stdout)")
            expectClean(result, "replay")
            #expect(result.stdout.contains("Get ·[2J···"), "\(result.stdout)")
        }
    }

    @Test("export --format curl writes escapes and carriage returns from a body as $'…' escapes; --format http refuses them")
    func exportWithControlCharacters() async throws {
        let directory = try TemporaryDirectory()
        let session = """
            name: Shared
            requests:
              - name: "Post \\e[2J"
                method: POST
                url: https://example.com/items
                headers:
                  X-Note: "fine"
                body:
                  text: "visible\\rhidden \\e]52;c;cHduZWQ=\\a \\u009b\\u202e"
            """
        let file = try directory.write("shared.tincan.yaml", Array(session.utf8))
        let curl = try await onTerminal(["export", file, "--format", "curl"])
        #expect(curl.status == 0, "\(curl.stdout)")
        expectClean(curl, "export curl")
        #expect(curl.stdout.contains(#"--data-raw $'visible\x0dhidden \x1b]52;c;cHduZWQ=\x07 \xc2\x9b\xe2\x80\xae'"#), "\(curl.stdout)")
        // The command, run by bash, sends the body's exact bytes.
        let exported = try await onTerminal(["export", file, "--format", "curl"])
        let line = try #require(exported.stdout.split(separator: "\n").first { $0.contains("--data-raw ") })
        let option = try #require(line.range(of: "--data-raw "))
        var word = String(line[option.upperBound...])
        if word.hasSuffix(" \\") { word.removeLast(2) }
        let printed = try await run("/bin/bash", ["-c", "printf %s " + word])
        #expect(printed.stdoutBytes == Array("visible\rhidden \u{1B}]52;c;cHduZWQ=\u{07} \u{9B}\u{202E}".utf8))

        let http = try await onTerminal(["export", file, "--format", "http"])
        #expect(http.status == 2)
        expectClean(http, "export http")
        #expect(http.stdout.contains("holds the control character U+000D"), "\(http.stdout)")
    }
}
