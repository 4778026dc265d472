import NIOSSL
import TincanDemoServer

/// The tests' certificates are the demo server's: made on the spot, no files and no network.
public typealias TestCertificate = DemoCertificate

extension DemoCertificate {
    /// A server TLS configuration that presents this certificate and requires a client
    /// certificate issued by `authority` (the demo server's mutual-TLS mode).
    public func serverConfiguration(requiringClientsOf authority: TestCertificate) throws -> TLSConfiguration {
        DemoServer.requiringClientCertificates(try serverConfiguration(), issuedBy: [try NIOSSLCertificate(bytes: Array(authority.certificatePEM.utf8), format: .pem)])
    }
}
