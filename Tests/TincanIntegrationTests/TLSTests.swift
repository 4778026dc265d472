import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

@Suite("TLS and the security policy")
struct TLSTests {
    private func get(_ server: DemoServer, policy: SecurityPolicy) async throws -> TaskResult {
        let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), securityPolicy: policy)
        let result = try await manager.send(try draft("GET", "get", on: server).build())
        try await manager.invalidate(cancelingTasks: true)
        return result
    }

    @Test func aSelfSignedCertificateFailsFastWithTheReasonByDefault() async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let clock = ContinuousClock()
            let started = clock.now
            let result = try await get(server, policy: .default)
            let elapsed = clock.now - started
            guard case .tls(let reason)? = result.transportError?.reason else {
                Issue.record("expected a TLS error, got \(String(describing: result.transportError)) \(String(describing: result.response))")
                return
            }
            #expect(reason.contains("certificate") || reason.contains("CERTIFICATE"), "\(reason)")
            // Not retried until the 30 s connect timeout.
            #expect(elapsed < .seconds(5))
        }
    }

    @Test(arguments: [SecurityPolicy.PinningMode.certificate, .publicKey])
    func aPinnedCertificateIsTrusted(mode: SecurityPolicy.PinningMode) async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let result = try await get(server, policy: SecurityPolicy(pinningMode: mode, pinnedCertificates: [certificate.certificateDER]))
            #expect(result.transportError == nil)
            #expect(result.response?.statusCode == 200)
        }
    }

    @Test func aPinForAnotherCertificateIsRefused() async throws {
        let served = try TestCertificate.selfSigned()
        let other = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try served.serverConfiguration()) { server in
            let result = try await get(server, policy: SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [other.certificateDER]))
            guard case .tls? = result.transportError?.reason else {
                Issue.record("expected a TLS error, got \(String(describing: result.transportError))")
                return
            }
            #expect(result.response == nil)
        }
    }

    @Test func aCAFileIsTrustedInsteadOfTheSystemRoots() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", Array(certificate.certificatePEM.utf8))
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            var policy = SecurityPolicy.default
            policy.caFile = caFile
            let result = try await get(server, policy: policy)
            #expect(result.response?.statusCode == 200)
        }
    }

    @Test func theHostNameIsCheckedUnlessTheDomainNameNeedNotMatch() async throws {
        let certificate = try TestCertificate.selfSigned(commonName: "elsewhere.example", dnsNames: ["elsewhere.example"], addresses: [])
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            var policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [certificate.certificateDER])
            let strict = try await get(server, policy: policy)
            guard case .tls? = strict.transportError?.reason else {
                Issue.record("expected a host name failure, got \(String(describing: strict.transportError))")
                return
            }
            policy.validatesDomainName = false
            let relaxed = try await get(server, policy: policy)
            #expect(relaxed.response?.statusCode == 200)
        }
    }

    @Test func allowingInvalidCertificatesWithoutPinningTurnsVerificationOff() async throws {
        let certificate = try TestCertificate.selfSigned()
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            var policy = SecurityPolicy.default
            policy.allowInvalidCertificates = true
            let result = try await get(server, policy: policy)
            #expect(result.response?.statusCode == 200)
        }
    }

    @Test func pinningOnABaseURLThatIsNotHTTPSIsAnInvalidPolicy() throws {
        let certificate = try TestCertificate.selfSigned()
        let policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [certificate.certificateDER])
        #expect {
            try URLSessionManager(http: try HTTPSessionManager(baseURL: "http://127.0.0.1:1/"), securityPolicy: policy)
        } throws: { error in
            (error as? SecurityPolicyError)?.description.contains("needs an https base URL") == true
        }
        #expect(throws: SecurityPolicyError.self) {
            try SecurityPolicy(pinningMode: .publicKey).validate(baseURL: URLReference(parsing: "https://127.0.0.1/"))
        }
    }

    @Test func certificatesLoadFromPEMAndDERFilesAndNameTheirKeys() throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        let pem = try directory.write("c.pem", Array(certificate.certificatePEM.utf8))
        let der = try directory.write("c.der", certificate.certificateDER)
        let garbage = try directory.write("c.txt", Array("not a certificate".utf8))
        #expect(try SecurityPolicy.certificates(inFile: pem) == [certificate.certificateDER])
        #expect(try SecurityPolicy.certificates(inFile: der) == [certificate.certificateDER])
        #expect(throws: SecurityPolicyError.self) { try SecurityPolicy.certificates(inFile: garbage) }
        let fingerprints = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [certificate.certificateDER]).publicKeyFingerprints
        #expect(fingerprints.count == 1)
        #expect(Data(base64Encoded: fingerprints[0])?.count == 32)
    }
}
