import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

@Suite("Check failures hide secrets")
struct CheckSecretsTests {
    @Test("a failing check on a secret header, query field, body member or cookie does not quote the secret; other values are quoted")
    func failuresHideSecrets() async throws {
        try await withDemoServer { server in
            let session = try Session.parse("""
                base: "{{server}}/"
                variables:
                  token: s3cret-token
                requests:
                  - url: anything
                    headers:
                      Authorization: "Bearer {{token}}"
                      X-Plain: visible
                    query:
                      api_key: k3y-value
                    assert:
                      request:
                        headers:
                          Authorization: "Bearer other-token"
                        query:
                          api_key: {starts-with: nope}
                      headers:
                        Content-Type: {contains: xml}
                      body:
                        $.headers.Authorization: {exists: false}
                        $.headers.X-Plain: {equals: hidden}
                """, path: "/tmp/secrets.tincan.yaml")
            let (report, _) = try await replay(session, on: server)
            let failures = report.outcomes[0].checks.compactMap(\.failure).joined(separator: "\n")
            for secret in ["s3cret-token", "other-token", "k3y-value"] {
                #expect(!failures.contains(secret), "\(failures)")
            }
            #expect(failures.contains(#"is "Bearer ••••••", expected "Bearer ••••••""#), "\(failures)")
            #expect(failures.contains(#"exists ("Bearer ••••••")"#), "\(failures)")
            #expect(failures.contains(#"is "visible", expected "hidden""#), "\(failures)")
            #expect(failures.contains("application/json"), "\(failures)")
        }
    }
}

@Suite("Checks on a transport error")
struct TransportErrorCheckTests {
    @Test("a request meant to fail passes on its failure, and fails when it completes")
    func aRequestMeantToFail() async throws {
        try await withDemoServer { server in
            let session = try Session.parse("""
                base: "{{server}}/"
                requests:
                  - name: times out
                    url: delay/3
                    properties:
                      timeout: 0.3
                    assert:
                      transport-error: {contains: timed out}
                  - name: completes
                    url: get
                    assert:
                      transport-error: {exists: true}
                  - name: fails unexpectedly
                    url: delay/3
                    properties:
                      timeout: 0.3
                    assert:
                      status: 200
                """, path: "/tmp/fail.tincan.yaml")
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.map(\.state) == [.passed, .failed, .failed])
            #expect(report.outcomes[0].error == nil)
            #expect(report.outcomes[1].checks.first { $0.name == "transport-error" }?.failure == "the exchange completed (status 200), with no transport error")
            #expect(report.outcomes[2].error?.contains("timed out") == true, "\(String(describing: report.outcomes[2].error))")
        }
    }

    @Test("transport-error reads back from a file and from a check line as written")
    func transportErrorRoundTrips() throws {
        let assertion = try CheckLine.assertion(parsing: "transport-error contains pin")
        #expect(assertion == .transportError(Predicate([.contains("pin")])))
        #expect(CheckLine.text(of: assertion) == "transport-error contains pin")
        var request = SavedRequest(url: "get")
        request.assertions = [assertion]
        let text = Session(requests: [request]).yamlText()
        #expect(text.contains("transport-error:\n        contains: pin") || text.contains("transport-error: {contains: pin}"), "\(text)")
        #expect(try Session.parse(text, path: "t.tincan.yaml").requests[0].assertions == [assertion])
    }
}

@Suite("A request's deadline")
struct MaxTimeTests {
    @Test("max-time is the whole exchange's deadline: a drip that never idles is stopped by it, and it reads back as written")
    func maxTimeStopsASlowBody() async throws {
        try await withDemoServer { server in
            let text = """
                base: "{{server}}/"
                requests:
                  - url: drip?numbytes=20&duration=3&delay=0
                    properties:
                      timeout: 2
                    max-time: 500ms
                    assert:
                      transport-error: {contains: deadline}

                """
            let session = try Session.parse(text, path: "/tmp/deadline.tincan.yaml")
            #expect(session.requests[0].maxTime == 0.5)
            #expect(session.yamlText().contains("max-time: 500ms"))
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes[0].state == .passed, "\(report.outcomes[0].checks) \(String(describing: report.outcomes[0].error))")
        }
        let bad = #"requests: [{url: get, max-time: -1}]"#
        #expect(throws: (any Error).self) { _ = try Session.parse(bad, path: "b.tincan.yaml") }
    }
}
