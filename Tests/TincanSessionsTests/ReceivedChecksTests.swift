import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
@testable import TincanSessions

/// `received:` (issue 37 §1): checks on the request as the demo server received it, after the
/// cache, the cookie jar and the transport had their say.
@Suite("received: checks what the demo server received")
struct ReceivedChecksTests {
    private static func failures(_ report: ReplayReport) -> [String: [String]] {
        PipelineFactsReplayTests.failures(report)
    }

    @Test("received: reads the method, URL, query, headers and body the server saw, with request:'s keys")
    func checksWhatArrived() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: form
                method: POST
                url: status/201
                query: {page: "2"}
                params: {name: Ada, tags: [a, b]}
                headers: {X-Class: "42"}
                assert:
                  status: 201
                  received:
                    method: POST
                    url: {ends-with: /status/201?page=2}
                    query: {page: "2"}
                    headers: {X-Class: "42", Content-Type: {starts-with: application/x-www-form-urlencoded}}
                    body: {$.name: Ada}
              - name: wrong
                url: status/204
                headers: {X-Class: "42"}
                assert:
                  received:
                    method: POST
                    headers: {X-Class: "43", Cookie: {exists: true}}
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let failures = Self.failures(report)
            #expect(failures["form"] == [], "\(failures["form"] ?? [])")
            #expect(failures["wrong"] == [#"received method: is "GET", expected "POST""#, #"received header X-Class: is "42", expected "43""#,
                                          "received header Cookie: is missing"], "\(failures["wrong"] ?? [])")
        }
    }

    @Test("received: sees what the cache added: a revalidation's If-None-Match, which the request as built does not have")
    func seesTheCachesValidator() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: first
                url: cache
                capture: {etag: {header: ETag}}
              - name: revalidated
                url: cache
                properties: {cache-policy: reloadRevalidatingCacheData}
                assert:
                  cache: not-modified
                  request: {headers: {If-None-Match: {exists: false}}}
                  received: {headers: {If-None-Match: "{{etag}}"}}
              - name: hit
                url: cache
                assert:
                  received: {headers: {If-None-Match: {exists: true}}}
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let failures = Self.failures(report)
            #expect(failures["revalidated"] == [], "\(failures["revalidated"] ?? [])")
            #expect(failures["hit"] == ["received header If-None-Match: the response came from the cache: nothing was sent, so no server received anything"],
                    "\(failures["hit"] ?? [])")
        }
    }

    @Test("received: on a server that keeps nothing fails, saying only a demo server keeps what it received")
    func otherServersKeepNothing() async throws {
        let server = try RawHTTPServer { head, socket in
            guard !head.isEmpty else { return }
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        }
        defer { server.stop() }
        let session = try Session.parse("""
            requests:
              - name: plain
                url: "http://127.0.0.1:\(server.port)/"
                assert: {received: {method: GET}}
            """, path: "s.tincan.yaml")
        let (report, _) = try await Replayer(session: session, path: "/tmp/s.tincan.yaml", options: ReplayOptions()).run()
        #expect(Self.failures(report)["plain"] == ["received method: the response has no X-Tincan-Request-Id header: only a Tincan demo server (tincan serve, tincan learn's) keeps what it received"])
    }

    @Test("received: is written back as read, and as a check line")
    func roundTrips() throws {
        let text = """
            requests:
              - url: http://127.0.0.1/
                assert:
                  request:
                    method: GET
                  received:
                    method: GET
                    headers:
                      If-None-Match: abc
                    body:
                      $.name: Ada

            """
        let session = try Session.parse(text, path: "s.tincan.yaml")
        let assertions = session.requests[0].assertions
        #expect(assertions.contains(.received(.header("If-None-Match", Predicate([.equals(.string("abc"))])))), "\(assertions)")
        #expect(try Session.parse(session.yamlText(), path: "again.tincan.yaml") == session)
        #expect(session.yamlText().contains("      received:\n        method: GET\n        headers:\n          If-None-Match: abc\n"), "\(session.yamlText())")
        #expect(CheckLine.text(of: .received(.header("If-None-Match", Predicate([.equals(.string("abc"))])))) == "received headers If-None-Match equals abc")
        #expect(try CheckLine.assertion(parsing: "received headers If-None-Match equals abc") == .received(.header("If-None-Match", Predicate([.equals(.string("abc"))]))))
        #expect(throws: (any Error).self) { try Session.parse("requests:\n  - url: x\n    assert:\n      received:\n        status: 200\n", path: "bad.tincan.yaml") }
    }

    @Test("a request as received reads as one: chunked framing removed, HTTP/2's pseudo-header fields as its method and target")
    func asRequest() throws {
        let origin = URLReference(parsing: "http://127.0.0.1:8080/base")
        let chunked = ReceivedRequest(id: 1, time: Date(), remote: "r", source: .wire, tls: false,
                                      head: Array("PUT /put?x=1 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n".utf8), headBytes: 60,
                                      body: Array("3\r\nabc\r\n0\r\n\r\n".utf8), bodyBytes: 13, isComplete: true)
        let wire = chunked.asRequest(origin: origin)
        #expect(wire.method == "PUT")
        #expect(wire.url.string == "http://127.0.0.1:8080/put?x=1")
        #expect(wire.headers["host"] == "h")
        guard case .bytes(let bytes) = wire.body else { Issue.record("\(wire.body)"); return }
        #expect(bytes == Array("abc".utf8))
        let http2 = ReceivedRequest(id: 2, time: Date(), remote: "r", source: .http2Decoded, tls: true,
                                    head: Array(":method: POST\n:path: /post\n:authority: h\ncontent-type: text/plain\n\n".utf8), headBytes: 60)
        let decoded = http2.asRequest(origin: origin)
        #expect(decoded.method == "POST")
        #expect(decoded.url.string == "http://127.0.0.1:8080/post")
        #expect(decoded.headers["Content-Type"] == "text/plain")
        #expect(decoded.headers[":authority"] == nil, "pseudo-header fields are not headers")
    }
}
