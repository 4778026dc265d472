import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanDemoServer

/// `--cert` and `--key`: a client certificate presented to a demo server that requires one
/// (mutual TLS), an encrypted key's passphrase, and every file that cannot be used.
@Suite("Client certificates (mutual TLS)")
struct ClientCertificateTests {
    /// An authority, a server certificate it issued, and a client certificate it issued, as files.
    struct Fixture {
        let directory: TemporaryDirectory
        let authority: TestCertificate
        let server: TestCertificate
        let client: TestCertificate
        let caFile: String
        let certFile: String
        let keyFile: String

        init() throws {
            directory = try TemporaryDirectory()
            authority = try TestCertificate.authority()
            server = try TestCertificate.issued(by: authority)
            client = try TestCertificate.issued(by: authority, commonName: "tincan-client")
            caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
            certFile = try directory.write("client.pem", Array(client.certificatePEM.utf8))
            keyFile = try directory.write("client.key", Array(client.privateKeyPEM.utf8))
        }

        /// The client key encrypted with `passphrase` (PKCS #8, AES-256), by openssl.
        func encryptedKey(passphrase: String) async throws -> String {
            let path = (directory.path as NSString).appendingPathComponent("encrypted.key")
            let result = try await run("/usr/bin/openssl", ["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", keyFile, "-out", path, "-passout", "pass:\(passphrase)"])
            guard result.status == 0 else { throw OpenSSLFailed(message: result.stderr) }
            return path
        }
    }

    func tincan(_ arguments: [String], passphrase: String? = nil) async throws -> ProcessResult {
        var environment = ["LANG": "en_US.UTF-8", "TINCAN_KEY_PASSPHRASE": passphrase ?? ""]
        if passphrase == nil { environment["TINCAN_KEY_PASSPHRASE"] = nil }
        return try await run(BuiltProducts.tincan, arguments, environment: environment)
    }

    @Test("A server that requires a client certificate accepts --cert and --key")
    func presentsCertificate() async throws {
        let fixture = try Fixture()
        try await withDemoServer(tls: try fixture.server.serverConfiguration(requiringClientsOf: fixture.authority)) { server in
            let result = try await tincan(["send", "--ca-file", fixture.caFile, "--cert", fixture.certFile, "--key", fixture.keyFile, "GET", server.baseURL + "/get"])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
    }

    @Test("A certificate file that holds the key too needs no --key")
    func keyInCertificateFile() async throws {
        let fixture = try Fixture()
        let both = try fixture.directory.write("both.pem", Array((fixture.client.certificatePEM + "\n" + fixture.client.privateKeyPEM).utf8))
        try await withDemoServer(tls: try fixture.server.serverConfiguration(requiringClientsOf: fixture.authority)) { server in
            let result = try await tincan(["send", "--ca-file", fixture.caFile, "--cert", both, "GET", server.baseURL + "/get"])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
    }

    @Test("Without a certificate, a server that asks for one fails with exit 4 and says so")
    func missingCertificateIsExplained() async throws {
        let fixture = try Fixture()
        try await withDemoServer(tls: try fixture.server.serverConfiguration(requiringClientsOf: fixture.authority)) { server in
            let result = try await tincan(["send", "--ca-file", fixture.caFile, "GET", server.baseURL + "/get"])
            #expect(result.status == 4)
            #expect(result.stderr.contains("the server wants a client certificate"), "\(result.stdout)\(result.stderr)")
            #expect(!result.stderr.contains(".cc:"), "\(result.stdout)")
        }
    }

    @Test("A certificate from an authority the server does not trust fails with exit 4 and says so")
    func untrustedClientCertificate() async throws {
        let fixture = try Fixture()
        let stranger = try TestCertificate.issued(by: try TestCertificate.authority(commonName: "Stranger CA"), commonName: "intruder")
        let certFile = try fixture.directory.write("stranger.pem", Array(stranger.certificatePEM.utf8))
        let keyFile = try fixture.directory.write("stranger.key", Array(stranger.privateKeyPEM.utf8))
        try await withDemoServer(tls: try fixture.server.serverConfiguration(requiringClientsOf: fixture.authority)) { server in
            let result = try await tincan(["send", "--ca-file", fixture.caFile, "--cert", certFile, "--key", keyFile, "GET", server.baseURL + "/get"])
            #expect(result.status == 4)
            #expect(result.stderr.contains("the server does not trust the client certificate's issuer"), "\(result.stdout)\(result.stderr)")
        }
    }

    @Test("An encrypted key takes its passphrase from TINCAN_KEY_PASSPHRASE")
    func encryptedKeyWithPassphrase() async throws {
        let fixture = try Fixture()
        let key = try await fixture.encryptedKey(passphrase: "open sesame")
        try await withDemoServer(tls: try fixture.server.serverConfiguration(requiringClientsOf: fixture.authority)) { server in
            let result = try await tincan(["send", "--ca-file", fixture.caFile, "--cert", fixture.certFile, "--key", key, "GET", server.baseURL + "/get"], passphrase: "open sesame")
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
    }

    @Test("On a terminal an encrypted key's passphrase is asked for, not echoed, and opens the key")
    func passphrasePrompt() async throws {
        let fixture = try Fixture()
        let key = try await fixture.encryptedKey(passphrase: "open sesame")
        try await withDemoServer(tls: try fixture.server.serverConfiguration(requiringClientsOf: fixture.authority)) { server in
            let command = "\(BuiltProducts.tincan) send --ca-file \(fixture.caFile) --cert \(fixture.certFile) --key \(key) GET \(server.baseURL)/get; echo EXIT=$?"
            let terminal = try await TmuxSession(command: command, width: 200, height: 30)
            _ = try await terminal.waitFor("Passphrase for \(key):")
            try await terminal.send("open sesame", literal: true)
            try await terminal.send("Enter")
            let screen = try await terminal.waitFor(all: ["HTTP/2 200", "EXIT=0"])
            #expect(!screen.contains("open sesame"), "\(screen)")
        }
        // A wrong answer at the prompt is the same refusal as a wrong TINCAN_KEY_PASSPHRASE.
        let command = "\(BuiltProducts.tincan) send --offline --cert \(fixture.certFile) --key \(key) GET https://127.0.0.1:9/; echo EXIT=$?"
        let terminal = try await TmuxSession(command: command, width: 200, height: 30)
        _ = try await terminal.waitFor("Passphrase for \(key):")
        try await terminal.send("not it", literal: true)
        try await terminal.send("Enter")
        _ = try await terminal.waitFor(all: ["cannot be decrypted: wrong passphrase", "EXIT=2"])
    }

    @Test("A wrong passphrase is exit 2 naming --key, and the passphrase is not printed")
    func wrongPassphrase() async throws {
        let fixture = try Fixture()
        let key = try await fixture.encryptedKey(passphrase: "open sesame")
        let result = try await tincan(["send", "--offline", "--cert", fixture.certFile, "--key", key, "GET", "https://127.0.0.1:9/"], passphrase: "not it")
        #expect(result.status == 2)
        #expect(result.stderr.contains("--key: the private key \(key) cannot be decrypted: wrong passphrase"), "\(result.stderr)")
        #expect(!result.stderr.contains("not it"))
    }

    @Test("An encrypted key with no passphrase and no terminal is exit 2 naming TINCAN_KEY_PASSPHRASE")
    func passphraseNeeded() async throws {
        let fixture = try Fixture()
        let key = try await fixture.encryptedKey(passphrase: "open sesame")
        let result = try await tincan(["send", "--offline", "--cert", fixture.certFile, "--key", key, "GET", "https://127.0.0.1:9/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--key: the private key \(key) is encrypted: give its passphrase at the prompt (on a terminal) or in TINCAN_KEY_PASSPHRASE"), "\(result.stderr)")
    }

    @Test("Certificate and key files that cannot be used are exit 2 naming the option")
    func unusableFiles() async throws {
        let fixture = try Fixture()
        let missing = fixture.directory.path + "/missing.pem"
        let notPEM = try fixture.directory.write("garbage.pem", Array("hello\n".utf8))
        let otherKey = try fixture.directory.write("other.key", Array(try TestCertificate.selfSigned().privateKeyPEM.utf8))
        let cases: [([String], String)] = [
            (["--cert", missing, "--key", fixture.keyFile], "--cert: the client certificate file \(missing) does not exist"),
            (["--cert", fixture.certFile, "--key", missing], "--key: the private key file \(missing) does not exist"),
            (["--cert", fixture.directory.path, "--key", fixture.keyFile], "--cert: the client certificate file \(fixture.directory.path) cannot be read: it is a directory"),
            (["--cert", notPEM, "--key", fixture.keyFile], "--cert: the client certificate file \(notPEM) is not usable: no PEM certificate in it"),
            (["--cert", fixture.certFile, "--key", notPEM], "--key: the private key file \(notPEM) is not usable: no PEM private key in it"),
            (["--cert", fixture.certFile], "--key: the private key file \(fixture.certFile) is not usable: the certificate file holds no private key; give it with --key"),
            (["--cert", fixture.certFile, "--key", otherKey], "--key: the private key \(otherKey) does not belong to the certificate \(fixture.certFile)"),
            (["--key", fixture.keyFile], "--key names the private key of a client certificate; it needs --cert FILE"),
        ]
        for (options, message) in cases {
            let ending = await ending(of: ["send", "--offline"] + options + ["GET", "https://127.0.0.1:9/"])
            #expect(ending.status == 2, "\(options)")
            #expect(ending.standardError?.contains(message) == true, "\(ending.standardError ?? "")")
        }
    }

    @Test("tincan serve's TLS options are checked: --key or --client-ca need --cert, and files must be readable")
    func serveOptions() async throws {
        let fixture = try Fixture()
        let missing = await ending(of: ["serve", "--port", "0", "--cert", fixture.certFile])
        #expect(missing.status == 2)
        #expect(missing.standardError?.contains("--cert needs --key FILE") == true, "\(missing.standardError ?? "")")
        let orphan = await ending(of: ["serve", "--port", "0", "--client-ca", fixture.caFile])
        #expect(orphan.status == 2)
        #expect(orphan.standardError?.contains("--client-ca needs --cert FILE") == true)
        let unreadable = await ending(of: ["serve", "--port", "0", "--cert", fixture.certFile, "--key", fixture.keyFile, "--client-ca", fixture.directory.path + "/nope.pem"])
        #expect(unreadable.status == 2)
        #expect(unreadable.standardError?.contains("--client-ca: \(fixture.directory.path)/nope.pem is not a readable file") == true)
    }

    @Test("The demo server's TLS settings from files require the client CA's certificates")
    func demoServerFromFiles() async throws {
        let fixture = try Fixture()
        let serverCert = try fixture.directory.write("server.pem", Array(fixture.server.certificatePEM.utf8))
        let serverKey = try fixture.directory.write("server.key", Array(fixture.server.privateKeyPEM.utf8))
        let tls = try DemoServer.tlsConfiguration(certificate: serverCert, key: serverKey, clientCA: fixture.caFile)
        try await withDemoServer(tls: tls) { server in
            let refused = try await tincan(["send", "--ca-file", fixture.caFile, "GET", server.baseURL + "/get"])
            #expect(refused.status == 4)
            let accepted = try await tincan(["send", "--ca-file", fixture.caFile, "--cert", fixture.certFile, "--key", fixture.keyFile, "GET", server.baseURL + "/get"])
            #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        }
    }
}

/// openssl could not encrypt a test key.
struct OpenSSLFailed: Error {
    var message: String
}
