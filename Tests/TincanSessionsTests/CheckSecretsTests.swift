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
