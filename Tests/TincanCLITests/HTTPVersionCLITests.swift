import Foundation
import TestSupport
import Testing
@testable import tincan

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

    @Test("an HTTP/2 CONTINUATION flood ends tincan send at once with exit 4 and the reason; a head over --max-header-size too")
    func connectionErrorIsExit4() async throws {
        let certificate = try TestCertificate.selfSigned()
        let keys = try TemporaryDirectory()
        let pin = try keys.write("server.pem", Array(certificate.certificatePEM.utf8))
        let bigHead = try RawHTTP2Server(certificate: certificate) { connection in
            let block = RawHTTP2Frame.status200 + [0x00] + RawHTTP2Frame.string("x-big") + RawHTTP2Frame.string(String(repeating: "b", count: 3000))
            connection.write(RawHTTP2Frame.frame(type: RawHTTP2Frame.headers, flags: RawHTTP2Frame.endHeaders | RawHTTP2Frame.endStream, stream: 1, payload: block))
            _ = connection.waitForClose(seconds: 60)
        }
        defer { bigHead.stop() }
        let server = try RawHTTP2Server(certificate: certificate) { connection in
            connection.write(RawHTTP2Frame.frame(type: RawHTTP2Frame.headers, stream: 1, payload: RawHTTP2Frame.status200))
            let fragment = RawHTTP2Frame.frame(type: RawHTTP2Frame.continuation, stream: 1, payload: [UInt8](repeating: 0x88, count: 16))
            let batch = Array([[UInt8]](repeating: fragment, count: 4096).joined())
            while connection.bytesSent < 64 << 20, connection.write(batch) {}
        }
        defer { server.stop() }
        let flood = try await tincan(["send", "--pin", pin, "GET", server.baseURL + "/flood"])
        #expect(flood.status == 4, "\(flood.stdout)\(flood.stderr)")
        #expect(flood.stderr.contains("HTTP/2 connection error (ENHANCE_YOUR_CALM): the server sent a header block in more CONTINUATION frames than allowed"), "\(flood.stderr)")
        // The header block's bytes are not the request's: nothing of the flood is shown.
        let big = try await tincan(["send", "--pin", pin, "--max-header-size", "2k", "GET", bigHead.baseURL + "/big"])
        #expect(big.status == 4, "\(big.stdout)\(big.stderr)")
        #expect(big.stderr.contains("response too large: the response's header fields take 3"), "\(big.stderr)")
        #expect(big.stderr.contains("bytes, more than the 2000 allowed (--max-header-size)"), "\(big.stderr)")
        let bad = await ending(of: ["send", "--offline", "--max-header-size", "10", "GET", "https://example.com/"])
        #expect(bad.status == 2)
        #expect(bad.standardError?.contains("--max-header-size") == true && bad.standardError?.contains("10 is out of range (1000…1000000 bytes)") == true, "\(bad.standardError ?? "")")
    }
}
