import Foundation
import NIOSSL

extension DemoServer {
    /// The TLS settings that serve https with a certificate and key from PEM files, for
    /// `tincan serve --cert FILE --key FILE`.
    ///
    /// - Parameter clientCA: A PEM file of authorities; when given, every client must present a
    ///   certificate one of them issued (mutual TLS), and a handshake without one fails.
    /// - Throws: NIOSSL's error for a file that cannot be read or holds no certificate or key.
    public static func tlsConfiguration(certificate: String, key: String, clientCA: String? = nil) throws -> TLSConfiguration {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
        )
        guard let clientCA else { return configuration }
        return requiringClientCertificates(configuration, issuedBy: try NIOSSLCertificate.fromPEMFile(clientCA))
    }

    /// `configuration`, asking every client for a certificate issued by one of `authorities` and
    /// refusing the handshake of a client that presents none or another.
    public static func requiringClientCertificates(_ configuration: TLSConfiguration, issuedBy authorities: [NIOSSLCertificate]) -> TLSConfiguration {
        var configuration = configuration
        // A client certificate names no host, so only its chain is checked.
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates(authorities)
        return configuration
    }
}
