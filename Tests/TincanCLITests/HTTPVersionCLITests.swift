import Foundation
import TestSupport
import Testing

/// `tincan send --http2/--http1.1` against a real HTTP/2 server: nghttpd on loopback.
@Suite("tincan send and HTTP versions, against nghttpd")
struct HTTPVersionCLITests {
    @Test("nghttpd's file comes back over HTTP/2, byte for byte, and the report names the version")
    func aRealHTTP2Server() async throws {
        let authority = try TestCertificate.authority()
        let certificate = try TestCertificate.issued(by: authority, commonName: "127.0.0.1")
        let keys = try TemporaryDirectory()
        let caFile = try keys.write("ca.pem", Array(authority.certificatePEM.utf8))
        try await Nghttpd.with(certificate: certificate) { server in
            let bytes = (0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try server.root.write("data.bin", bytes)
            let output = keys.path + "/data.bin"
            let result = try await tincan(["send", "--http2", "--ca-file", caFile, "--format", "json", "--download", output, "GET", "\(server.url)/data.bin"])
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any], "\(result.stdout)")
            let response = try #require(report["response"] as? [String: Any])
            #expect(response["version"] as? String == "HTTP/2")
            #expect(response["status"] as? Int == 200)
            let downloaded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(downloaded == bytes)

            let text = try await tincan(["send", "--print", "hm", "--ca-file", caFile, "GET", "\(server.url)/data.bin", "--download", keys.path + "/again.bin"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("HTTP/2 200"), "\(text.stdout)")
        }
    }

    @Test("--http1.1 and --http2 together are refused, naming both")
    func bothVersionsAreRefused() async throws {
        let result = try await tincan(["send", "--http1.1", "--http2", "--offline", "GET", "http://127.0.0.1:9/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'--http2'") && result.stderr.contains("'--http1.1'"), "\(result.stderr)")
    }

    @Test("the offline preview's request line names the version each option tries first")
    func offlinePreviewNamesTheVersion() async throws {
        for (options, version) in [([String](), "HTTP/2"), (["--http2"], "HTTP/2"), (["--http1.1"], "HTTP/1.1")] {
            let result = try await tincan(["send", "--offline"] + options + ["GET", "https://127.0.0.1:9/a"])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("GET /a \(version)\n"), "\(options)")
        }
    }
}
