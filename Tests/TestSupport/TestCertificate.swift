import Crypto
import Foundation
import NIOSSL
import X509

/// A certificate and key made in the test, so TLS tests need no files and no network.
public struct TestCertificate: Sendable {
    /// The certificate, PEM.
    public let certificatePEM: String
    /// The certificate, DER.
    public let certificateDER: [UInt8]
    /// The private key, PEM.
    public let privateKeyPEM: String

    /// A self-signed P-256 certificate valid for the hour around now, naming `dnsNames` and `addresses`.
    public static func selfSigned(commonName: String = "localhost", dnsNames: [String] = ["localhost"], addresses: [[UInt8]] = [[127, 0, 0, 1]]) throws -> TestCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let names = dnsNames.map { GeneralName.dnsName($0) } + addresses.map { GeneralName.ipAddress(.init(contentBytes: ArraySlice($0))) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 3600,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(key)
        )
        return TestCertificate(
            certificatePEM: try certificate.serializeAsPEM().pemString,
            certificateDER: try certificate.serializeAsPEM().derBytes,
            privateKeyPEM: key.pemRepresentation
        )
    }

    /// A server TLS configuration that presents this certificate.
    public func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem))
        )
    }
}
