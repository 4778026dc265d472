import Crypto
import Foundation
import NIOSSL
import X509

/// A certificate and key made on the spot: the lessons' TLS demo server presents one (and
/// `tincan learn` pins it), and the TLS tests make theirs with it, so neither needs files or a network.
public struct DemoCertificate: Sendable {
    /// The certificate, PEM.
    public let certificatePEM: String
    /// The certificate, DER.
    public let certificateDER: [UInt8]
    /// The private key, PEM.
    public let privateKeyPEM: String

    /// The key behind ``privateKeyPEM``, to issue other certificates with.
    public var privateKey: P256.Signing.PrivateKey {
        get throws { try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM) }
    }

    /// The certificate's subject.
    public var subject: DistinguishedName {
        get throws { try Certificate(derEncoded: certificateDER).subject }
    }

    /// A self-signed P-256 certificate valid for the hour around now (or from `notValidBefore`
    /// to `notValidAfter`), naming `dnsNames` and `addresses`.
    public static func selfSigned(commonName: String = "localhost", dnsNames: [String] = ["localhost"], addresses: [[UInt8]] = [[127, 0, 0, 1]],
                                  notValidBefore: Date = Date() - 3600, notValidAfter: Date = Date() + 3600) throws -> DemoCertificate {
        try make(commonName: commonName, dnsNames: dnsNames, addresses: addresses, notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: nil)
    }

    /// A certificate authority, to issue server certificates with ``issued(by:commonName:)``.
    public static func authority(commonName: String = "Tincan Demo CA") throws -> DemoCertificate {
        try make(commonName: commonName, dnsNames: [], addresses: [], notValidBefore: Date() - 3600, notValidAfter: Date() + 3600, issuer: nil, isAuthority: true)
    }

    /// A server certificate for localhost and 127.0.0.1, issued by `authority`.
    public static func issued(by authority: DemoCertificate, commonName: String = "localhost") throws -> DemoCertificate {
        try make(commonName: commonName, dnsNames: ["localhost"], addresses: [[127, 0, 0, 1]], notValidBefore: Date() - 3600, notValidAfter: Date() + 3600, issuer: authority)
    }

    private static func make(commonName: String, dnsNames: [String], addresses: [[UInt8]], notValidBefore: Date, notValidAfter: Date,
                             issuer: DemoCertificate?, isAuthority: Bool = false) throws -> DemoCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let names = dnsNames.map { GeneralName.dnsName($0) } + addresses.map { GeneralName.ipAddress(.init(contentBytes: ArraySlice($0))) }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: notValidBefore,
            notValidAfter: notValidAfter,
            issuer: try issuer?.subject ?? name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                if isAuthority {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true))
                } else {
                    Critical(BasicConstraints.notCertificateAuthority)
                    SubjectAlternativeNames(names)
                }
            },
            issuerPrivateKey: .init(try issuer?.privateKey ?? key)
        )
        return DemoCertificate(
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
