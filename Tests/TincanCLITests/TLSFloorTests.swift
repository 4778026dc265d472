import Foundation
import NIOSSL
import TestSupport
import Testing
@testable import tincan

/// TLS 1.2 at least by default (RFC 8996), older versions only when asked, with the reason they
/// are unsafe; what weakens trust is said by send and replay.
@Suite("TLS as the protocol's current rules say")
struct TLSFloorTests {
    /// A demo server that speaks TLS 1.1 at most, and its certificate's PEM file.
    private func withOldServer(_ body: (String, String) async throws -> Void) async throws {
        let certificate = try TestCertificate.selfSigned()
        var configuration = try certificate.serverConfiguration()
        configuration.minimumTLSVersion = .tlsv1
        configuration.maximumTLSVersion = .tlsv11
        let directory = try TemporaryDirectory()
        let pin = try directory.write("server.pem", Array(certificate.certificatePEM.utf8))
        try await withDemoServer(tls: configuration) { server in try await body(server.baseURL, pin) }
    }

    @Test("a server that speaks only TLS 1.1 is refused by default, saying why; --tls-min 1.0 reaches it and warns why that is unsafe")
    func oldTLSIsRefusedUnlessAsked() async throws {
        try await withOldServer { base, pin in
            let refused = try await tincan(["send", "--pin", pin, "GET", base + "/get"])
            #expect(refused.status == 4, "\(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("TLS failed:"), "\(refused.stderr)")
            #expect(refused.stderr.contains("1.2") && refused.stderr.contains("--tls-min"), "\(refused.stderr)")
            let allowed = try await tincan(["send", "--pin", pin, "--tls-min", "1.0", "GET", base + "/get"])
            #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
            #expect(allowed.stderr.contains("tincan: warning: TLS 1.0 is accepted (RFC 8996 deprecates TLS 1.0 and 1.1"), "\(allowed.stderr)")
        }
    }

    @Test("--tls-min takes 1.0 to 1.3 and names them when refused; --help says why old versions are unsafe")
    func tlsMinValues() async throws {
        let bad = await ending(of: ["send", "--offline", "--tls-min", "1.4", "GET", "https://example.com/"])
        #expect(bad.status == 2)
        #expect(bad.standardError?.contains("'1.4'") == true && bad.standardError?.contains("1.0") == true, "\(bad.standardError ?? "")")
        let help = try await tincan(["send", "--help"])
        #expect(help.stdout.contains("--tls-min"))
        #expect(help.stdout.contains("RFC 8996"))
    }

    @Test("send warns when verification is off; replay says what a session file weakens, file by file")
    func weakeningsAreSaid() async throws {
        try await withOldServer { base, _ in
            let insecure = try await tincan(["send", "--insecure", "--tls-min", "1.1", "GET", base + "/get"])
            #expect(insecure.status == 0, "\(insecure.stdout)\(insecure.stderr)")
            #expect(insecure.stderr.contains("tincan: warning: certificate verification is off: anyone on the network path can pose as the server"), "\(insecure.stderr)")
            #expect(insecure.stderr.contains("tincan: warning: TLS 1.1 is accepted"), "\(insecure.stderr)")

            let directory = try TemporaryDirectory()
            let file = try directory.write("shared.tincan.yaml", Array("""
                name: Shared
                base: \(base)/
                defaults:
                  security:
                    insecure: true
                    tls-min: "1.0"
                requests:
                  - url: get
                """.utf8))
            let replayed = try await tincan(["replay", file])
            #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
            #expect(replayed.stderr.contains("tincan: warning: \(file): security: insecure: true: certificate verification is off"), "\(replayed.stderr)")
            #expect(replayed.stderr.contains("tincan: warning: \(file): security: tls-min: \"1.0\": TLS 1.0 is accepted"), "\(replayed.stderr)")
        }
    }
}
