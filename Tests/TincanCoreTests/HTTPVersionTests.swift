import Testing
import TincanCore

@Suite("The HTTP version is shown as tried, then as used")
struct HTTPVersionTests {
    @Test("the preview's request line names HTTP/2 over TLS and HTTP/1.1 in the clear")
    func previewNamesTheVersionTried() throws {
        let secure = HTTPRequest(method: "GET", url: URLReference(parsing: "https://example.test/a"))
        let plain = HTTPRequest(method: "GET", url: URLReference(parsing: "http://example.test/a"))
        #expect(try RequestPreview.text(secure).hasPrefix("GET /a HTTP/2\nHost: example.test\n"))
        #expect(try RequestPreview.text(plain).hasPrefix("GET /a HTTP/1.1\nHost: example.test\n"))
        #expect(try RequestPreview.text(secure, httpVersion: .http1_1).hasPrefix("GET /a HTTP/1.1\n"))
        #expect(try RequestPreview.text(secure, httpVersion: .http2).hasPrefix("GET /a HTTP/2\n"))
        #expect(try RequestPreview.text(plain, httpVersion: .http2).hasPrefix("GET /a HTTP/1.1\n"))
    }

    @Test("the Explain view says how the version is chosen")
    func explainSaysHowTheVersionIsChosen() throws {
        let secure = try RequestDraft(method: "GET", url: "https://example.test/a").explain()
        #expect(secure.step(.url)?.lines.contains { $0.text.hasPrefix("HTTPS offers HTTP/2 by ALPN") } == true)
        let plain = try RequestDraft(method: "GET", url: "http://example.test/a").explain()
        #expect(plain.step(.url)?.lines.contains { $0.text.hasPrefix("Plain http is sent as HTTP/1.1") } == true)
        let draft = RequestDraft(method: "GET", url: "https://example.test/a")
        let only = try draft.explain(try draft.build(), httpVersion: .http1_1)
        #expect(only.step(.url)?.lines.contains { $0.text.hasPrefix("HTTP/1.1 only was asked for") } == true)
    }

    @Test("a status line carries the version the server answered in", arguments: [
        (HTTPVersion.http1_0, 200, "HTTP/1.0 200 OK"), (.http1_1, 404, "HTTP/1.1 404 Not Found"), (.http2, 299, "HTTP/2 299"),
    ])
    func statusLineCarriesTheVersion(version: HTTPVersion, status: Int, line: String) {
        let response = HTTPResponse(url: URLReference(parsing: "https://example.test/"), statusCode: status, version: version)
        #expect(response.statusLine == line)
    }

    @Test("versions come from their numbers, and unknown ones are refused")
    func versionsFromNumbers() {
        #expect(HTTPVersion(major: 1, minor: 1) == .http1_1)
        #expect(HTTPVersion(major: 2, minor: 0) == .http2)
        #expect(HTTPVersion(major: 3, minor: 0) == nil)
        #expect(HTTPVersion(major: 0, minor: 9) == nil)
    }
}
