import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

@Suite("Checks on which part of the pipeline did the work: decoded-by, cache and trusted-by")
struct PipelineFactsReplayTests {
    /// The failures of each outcome, by request name: `check: why` (ReceivedChecksTests reads them too).
    static func failures(_ report: ReplayReport) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: report.outcomes.map { outcome in
            (outcome.name, outcome.checks.filter { !$0.passed }.map { "\($0.name): \($0.failure ?? "")" })
        })
    }

    @Test("decoded-by names the serializer that decoded the body, the compound's own choice included, and is missing when nothing decoded")
    func decodedByNamesTheSerializer() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: xml
                url: xml
                response: {serializer: xml}
                assert: {decoded-by: xml}
              - name: bytes
                url: json
                response: {serializer: http}
                assert: {decoded-by: http}
              - name: compound
                url: image/png
                response: {serializer: compound}
                assert: {decoded-by: image}
              - name: refused
                url: xml
                response: {serializer: json}
                assert: {valid: false, decoded-by: {exists: false}}
              - name: wrong
                url: json
                response: {serializer: http}
                assert: {decoded-by: json}
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let failures = Self.failures(report)
            for name in ["xml", "bytes", "compound", "refused"] { #expect(failures[name] == [], "\(name): \(failures[name] ?? [])") }
            #expect(failures["wrong"] == [#"decoded-by: is "http", expected "json""#])
        }
    }

    @Test("cache tells a revalidation the server answered 304 from an answer the cache gave without asking, and says when the cache took no part")
    func cacheTellsRevalidationFromAHit() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: first
                url: cache
                assert: {cache: stored}
              - name: fresh
                url: cache
                assert: {cache: not-modified}
              - name: revalidated
                url: cache
                properties: {cache-policy: reloadRevalidatingCacheData}
                assert: {cache: not-modified, status: 200}
              - name: untouched
                url: get
                properties: {cache-policy: reloadIgnoringLocalAndRemoteCacheData}
                assert: {cache: hit}
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let failures = Self.failures(report)
            #expect(failures["first"] == [])
            #expect(failures["fresh"] == [#"cache: is "hit", expected "not-modified""#], "a fresh copy is answered without asking the server")
            #expect(failures["revalidated"] == [])
            #expect(failures["untouched"]?.first?.hasPrefix("cache: ") == true, "\(failures["untouched"] ?? [])")
        }
    }

    @Test("trusted-by is missing over plain http, with the reason")
    func trustedByIsMissingOverHTTP() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: plain
                url: get
                assert: {trusted-by: {exists: false}}
              - name: pinned
                url: get
                assert: {trusted-by: pins}
            """, path: "s.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            let failures = Self.failures(report)
            #expect(failures["plain"] == [])
            #expect(failures["pinned"] == ["trusted-by: the response did not come over TLS"])
        }
    }

    @Test("a policy names what decides trust in the session file's words")
    func trustBasisOfPolicies() throws {
        var pinned = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [[1]])
        #expect(pinned.trustBasis == .pins)
        pinned.allowInvalidCertificates = true
        #expect(pinned.trustBasis == .pins, "with pins, insecure forgives only the host name")
        var open = SecurityPolicy.default
        #expect(open.trustBasis == .system)
        open.caFile = "/tmp/ca.pem"
        #expect(open.trustBasis == .caFile)
        open.allowInvalidCertificates = true
        #expect(open.trustBasis == .insecure)
        #expect(TrustBasis.allCases.map(\.rawValue) == ["pins", "ca-file", "system", "insecure"])
    }
}
