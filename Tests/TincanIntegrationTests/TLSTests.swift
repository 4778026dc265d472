import Foundation
import Synchronization
import TestSupport
import Testing
@testable import TincanCore
import X509
import NIOPosix
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
            #expect(elapsed < .seconds(20))
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

    /// The TLS reason `policy` gives for a server presenting `certificate`, or what came instead.
    private func refusal(_ certificate: TestCertificate, policy: SecurityPolicy = .default) async throws -> String {
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let result = try await get(server, policy: policy)
            guard case .tls(let reason)? = result.transportError?.reason else {
                return "not a TLS error: \(String(describing: result.transportError)) \(String(describing: result.response))"
            }
            return reason
        }
    }

    @Test("a refused certificate is named for why: self-signed, expired, not yet valid, unknown issuer, pin mismatch")
    func refusalsSayWhy() async throws {
        let selfSigned = try await refusal(try TestCertificate.selfSigned())
        #expect(selfSigned.hasPrefix("the server's certificate is self-signed ('localhost')"), "\(selfSigned)")
        let expired = try await refusal(try TestCertificate.selfSigned(notValidBefore: Date(timeIntervalSince1970: 1_700_000_000), notValidAfter: Date(timeIntervalSince1970: 1_700_086_400)))
        #expect(expired == "the server's certificate expired on 2023-11-15T22:13:20Z", "\(expired)")
        let early = try await refusal(try TestCertificate.selfSigned(notValidBefore: Date(timeIntervalSince1970: 4_000_000_000), notValidAfter: Date(timeIntervalSince1970: 4_100_000_000)))
        #expect(early == "the server's certificate is not valid until 2096-10-02T07:06:40Z", "\(early)")
        let authority = try TestCertificate.authority()
        let unknown = try await refusal(try TestCertificate.issued(by: authority))
        #expect(unknown.hasPrefix("the server's certificate was issued by 'Tincan Demo CA', an authority this machine does not trust (unknown issuer"), "\(unknown)")
        let pinned = try await refusal(try TestCertificate.selfSigned(), policy: SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [try TestCertificate.selfSigned().certificateDER]))
        #expect(pinned.hasPrefix("pin mismatch: the server's certificate ('localhost') matches none of the pinned certificates"), "\(pinned)")
        let directory = try TemporaryDirectory()
        var policy = SecurityPolicy.default
        policy.caFile = try directory.write("other.pem", Array(try TestCertificate.authority(commonName: "Other CA").certificatePEM.utf8))
        let notInFile = try await refusal(try TestCertificate.issued(by: authority), policy: policy)
        #expect(notInFile == "the server's certificate was issued by 'Tincan Demo CA', which the CA file \(policy.caFile!) does not hold (unknown issuer)", "\(notInFile)")
    }

    @Test("a chain the same roots verify gets no made-up reason: BoringSSL's own words stand")
    func aVerifiableChainIsNotNamed() async throws {
        let authority = try TestCertificate.authority()
        let leaf = try Certificate(derEncoded: try TestCertificate.issued(by: authority).certificateDER)
        let directory = try TemporaryDirectory()
        let caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
        #expect(await TLSDiagnosis.verifies([leaf], against: .caFile(caFile)))
        #expect(!(await TLSDiagnosis.verifies([leaf], against: .system)))
        let other = try directory.write("other.pem", Array(try TestCertificate.authority(commonName: "Other").certificatePEM.utf8))
        #expect(!(await TLSDiagnosis.verifies([leaf], against: .caFile(other))))
    }

    /// A server that takes the connection and never answers the TLS handshake: it reads until
    /// the client closes, and notes when, on a thread of its own, so the time is the client's
    /// and not the test's (a busy test process can resume the test late).
    private func silentServer() throws -> (server: RawHTTPServer, closed: ClosedAt) {
        let closed = ClosedAt()
        let server = try RawHTTPServer { _, socket in
            // The head never ends (a ClientHello has no blank line): it was read to the close.
            closed.note()
        }
        return (server, closed)
    }

    final class ClosedAt: Sendable {
        private let instant = Mutex<ContinuousClock.Instant?>(nil)
        func note() { instant.withLock { $0 = $0 ?? .now } }
        var value: ContinuousClock.Instant? { instant.withLock { $0 } }
    }

    @Test("the diagnosis of a server that never answers ends at its time limit")
    func aSilentServerIsCutOffAtTheLimit() async throws {
        let (server, closed) = try silentServer()
        defer { server.stop() }
        let started = ContinuousClock.now
        let reason = await TLSDiagnosis.reason(host: "127.0.0.1", port: server.port, trust: .system, eventLoop: MultiThreadedEventLoopGroup.singleton.next(), limit: .seconds(1))
        #expect(reason == nil)
        // The server would hold it until the client gives up.
        for _ in 0..<1_000 where closed.value == nil { try await Task.sleep(for: .milliseconds(10)) }
        let end = try #require(closed.value)
        #expect(end - started >= .seconds(1) && end - started < .seconds(10), "\(end - started)")
    }

    @Test("a cancel ends the diagnosis at once, long before its time limit")
    func aCancelEndsTheDiagnosis() async throws {
        let (server, closed) = try silentServer()
        defer { server.stop() }
        let task = Task { await TLSDiagnosis.reason(host: "127.0.0.1", port: server.port, trust: .system, eventLoop: MultiThreadedEventLoopGroup.singleton.next(), limit: .seconds(60)) }
        // Cancelled once the server holds the connection, so the handshake is under way.
        for _ in 0..<1_000 where server.connections == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.connections == 1)
        let cancelled = ContinuousClock.now
        task.cancel()
        #expect(await task.value == nil)
        for _ in 0..<1_000 where closed.value == nil { try await Task.sleep(for: .milliseconds(10)) }
        let end = try #require(closed.value)
        // The limit is 60 s.
        #expect(end - cancelled < .seconds(10), "\(end - cancelled)")
    }

    @Test("a certificate issued by the CA file's authority is trusted")
    func anIssuedCertificateIsTrustedThroughTheCAFile() async throws {
        let authority = try TestCertificate.authority()
        let directory = try TemporaryDirectory()
        var policy = SecurityPolicy.default
        policy.caFile = try directory.write("ca.pem", Array(authority.certificatePEM.utf8))
        try await withDemoServer(tls: try TestCertificate.issued(by: authority).serverConfiguration()) { server in
            let result = try await get(server, policy: policy)
            #expect(result.response?.statusCode == 200, "\(String(describing: result.transportError))")
        }
    }

    @Test("a body goes over TLS whole, and the echo names the https URL it was sent to")
    func aBodyOverTLS() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        var policy = SecurityPolicy.default
        policy.caFile = try directory.write("ca.pem", Array(certificate.certificatePEM.utf8))
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let manager = try URLSessionManager(http: try HTTPSessionManager(baseURL: server.baseURL), securityPolicy: policy)
            var request = try draft("POST", "anything", on: server).build()
            request.body = .bytes(Array(repeating: UInt8(ascii: "z"), count: 300_000))
            request.headers.set(name: "Content-Type", value: "text/plain")
            let result = try await manager.send(request)
            try await manager.invalidate(cancelingTasks: true)
            guard case .json(let echo)? = result.serialization?.body, case .dictionary(let object) = echo.value else {
                Issue.record("no JSON echo: \(String(describing: result.transportError))")
                return
            }
            guard case .string(let data)? = object["data"] else {
                Issue.record("no data in the echo")
                return
            }
            #expect(data.utf8.count == 300_000 && data.utf8.allSatisfy { $0 == UInt8(ascii: "z") }, "\(data.utf8.count) bytes came back")
            #expect(object["url"] == .string(server.baseURL + "/anything"))
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
