import Foundation
import TestSupport
import Testing

/// TLS options that cannot work are bad input (exit 2) before anything is sent, and a failed
/// handshake says why in words, without BoringSSL's internal codes or source paths.
@Suite("TLS options and failures")
struct TLSInputTests {
    @Test("A CA file with no certificate in it is exit 2, naming the file")
    func caFileWithoutCertificates() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("ca.pem", Array("not a certificate\n".utf8))
        let result = try await tincan(["send", "--ca-file", file, "GET", "https://127.0.0.1:9/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file): not a CA file"), "\(result.stderr)")
        #expect(!result.stderr.contains(".cc"))
    }

    @Test("--pin on a plain-http URL is refused with exit 2, with or without --base")
    func pinOnPlainHTTP() async throws {
        let directory = try TemporaryDirectory()
        let pin = try directory.write("pin.pem", Array(try TestCertificate.selfSigned().certificatePEM.utf8))
        let direct = try await tincan(["send", "--pin", pin, "GET", "http://127.0.0.1:9/get"])
        #expect(direct.status == 2)
        #expect(direct.stderr.contains("pinning applies to https only"), "\(direct.stderr)")
        let based = try await tincan(["send", "--pin", pin, "--base", "http://127.0.0.1:9/", "GET", "get"])
        #expect(based.status == 2)
    }

    @Test("A self-signed server fails with exit 4 and the reason in words")
    func selfSignedServerInWords() async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let result = try await tincan(["send", "GET", server.baseURL + "/get"])
            #expect(result.status == 4)
            let output = result.stdout + result.stderr
            #expect(output.contains("TLS failed: the server's certificate is self-signed ('localhost'), and no trusted authority vouches for it"), "\(output)")
            #expect(!output.contains(".cc:") && !output.contains("OPENSSL_internal"), "\(output)")
        }
    }
}
