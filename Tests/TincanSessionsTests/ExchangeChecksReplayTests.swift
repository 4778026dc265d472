import Crypto
import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

@Suite("Replaying checks on cookies, redirects, timing, body facts, XPath and the request")
struct ExchangeChecksReplayTests {
    static let session = """
        base: "{{server}}/"
        requests:
          - name: cookies and a redirect
            url: cookies/set?sid=abc123&theme=dark
            capture:
              sid: {cookie: sid}
              landed: {url: true}
              hops: {redirects: true}
              next: {location: true}
            assert:
              cookies:
                sid: abc123
                theme: {starts-with: da}
                nope: {exists: false}
                sid[Path]: /
                sid[HttpOnly]: false
                sid[Domain]: {exists: false}
              url: {ends-with: /cookies}
              redirects: 1
              location: {ends-with: /cookies}
              body:
                $.cookies.sid: abc123
          - name: three redirects
            url: redirect/3
            assert:
              redirects: 3
              url: {ends-with: /get}
              duration: {greater-or-equal: 0, less-than: 60000}
          - name: no redirect, no Location
            url: get
            assert:
              location: {exists: false}
              redirects: {filters: [to-float], equals: 0}
          - name: body facts and XPath
            url: xml
            capture:
              size: {body-size: true}
              sha: {body-sha256: true}
              md5: {body-md5: true}
              title: {xpath: "string(//slide[2]/title)"}
              items: {xpath: //item, filters: [count]}
            assert:
              xpath:
                count(//slide): 2
                //item: {count: 3}
                string(/slideshow/@author): Yours Truly
                //nothing: {exists: false}
          - name: the same body, checked against the captures
            url: xml
            assert:
              body-size: "{{size}}"
              body-sha256: "{{sha}}"
              body-md5: "{{md5}}"
          - name: the request as built
            method: POST
            url: anything
            query:
              q: tea time
            serializer: json
            params:
              name: Ada
              tags: [a, b]
            assert:
              request:
                method: POST
                url: {contains: /anything?q=}
                query: {q: tea time}
                headers: {Content-Type: {starts-with: application/json}}
                body:
                  $.name: Ada
                  $.tags[*]: {count: 2}
          - name: failures say what they found
            url: redirect/1
            assert:
              redirects: 2
              cookies: {other: x, "sid[Domain]": example.com}
              xpath: {count(//a): 1}
              request:
                method: PUT
                query: {q: {exists: true}}
        """

    @Test("cookies, the final URL, redirects, Location, timing, size, digests and XPath are captured and checked")
    func exchangeChecks() async throws {
        let session = try Session.parse(Self.session, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server) { $0.keepsResponseBodies = true }
            let outcomes = report.outcomes
            for outcome in outcomes.prefix(6) {
                #expect(outcome.state == .passed, "\(outcome.name): \(outcome.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }) \(outcome.error ?? "")")
            }
            let first = Dictionary(uniqueKeysWithValues: outcomes[0].captures.map { ($0.name, $0.value) })
            #expect(first["sid"] == .string("abc123"))
            #expect(first["landed"] == .string(server.baseURL + "/cookies"))
            #expect(first["hops"] == .integer(1))
            #expect(first["next"] == .string(server.baseURL + "/cookies"))

            let body = try #require(outcomes[3].result?.data)
            let facts = Dictionary(uniqueKeysWithValues: outcomes[3].captures.map { ($0.name, $0.value) })
            #expect(facts["size"] == .integer(Int64(body.count)))
            #expect(facts["sha"] == .string(SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()))
            #expect(facts["md5"] == .string(Insecure.MD5.hash(data: body).map { String(format: "%02x", $0) }.joined()))
            #expect(facts["title"] == .string("Overview"))
            #expect(facts["items"] == .integer(3))

            #expect(outcomes[6].state == .failed)
            let failures = outcomes[6].checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" }
            #expect(failures == [
                "request method: is \"GET\", expected \"PUT\"",
                "request query q: is missing",
                "redirects: is 1, expected 2",
                "cookie other: the response set no cookie other",
                "cookie sid[Domain]: the response set no cookie sid",
                "xpath count(//a): the body is not XML: Start tag expected, '<' not found at line 1, column 1",
            ])
        }
    }

    @Test("request checks are made even when the request then fails to connect")
    func requestChecksWithoutAResponse() async throws {
        let session = try Session.parse("""
            requests:
              - method: DELETE
                url: http://127.0.0.1:9/items/7
                headers:
                  X-Trace: "1"
                assert:
                  request:
                    method: DELETE
                    url: {ends-with: /items/7}
                    headers: {X-Trace: 2}
            """, path: "s.tincan.yaml")
        let (report, _) = try await Replayer(session: session, path: "/tmp/s.tincan.yaml").run()
        let outcome = try #require(report.outcomes.first)
        #expect(outcome.state == .failed)
        #expect(outcome.error != nil, "nothing listens on port 9")
        #expect(outcome.checks.map { "\($0.name): \($0.failure ?? "passed")" } == [
            "request method: passed",
            "request url: passed",
            "request header X-Trace: is \"1\", expected 2",
        ])
    }
}
