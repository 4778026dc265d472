import Foundation

/// The demo servers a command runs for a session (issue 34 §3) or a lesson: the plain one, and
/// optionally one over TLS that presents a certificate made on the spot, so a session (the
/// security-policy lesson) can pin it.
///
/// A session names them by `{{$demo}}`, `{{$demo-tls}}`, `{{$demo-cert}}` (the PEM file of the
/// TLS server's certificate, to pin or to trust as a CA file) and `{{$demo-other-cert}}` (another
/// certificate's, a wrong pin): ``urls`` and the files, which live in a folder of their own,
/// removed by ``stop()``. Lessons written before those names read the same values from the
/// variables ``lessonVariables`` gives.
public final class DemoServers: Sendable {
    /// The plain demo server.
    public let plain: DemoServer
    /// The demo server over TLS, if started.
    public let secure: DemoServer?
    /// The folder that holds the certificate files, when the TLS server runs.
    public let folder: String?

    private init(plain: DemoServer, secure: DemoServer?, folder: String?) {
        self.plain = plain
        self.secure = secure
        self.folder = folder
    }

    /// The TLS server's certificate file, when it runs.
    public var certificatePath: String? { folder.map { $0 + "/server-cert.pem" } }
    /// Another certificate's file (not the server's), when the TLS server runs.
    public var otherCertificatePath: String? { folder.map { $0 + "/other-cert.pem" } }

    /// The variables a lesson reads the servers from: `server`, `secure-server`, `server-cert`
    /// and `other-cert`.
    public var lessonVariables: [String: String] {
        var variables = ["server": plain.baseURL]
        variables["secure-server"] = secure?.baseURL
        variables["server-cert"] = certificatePath
        variables["other-cert"] = otherCertificatePath
        return variables
    }

    /// Starts the plain server, and the TLS one when asked, on free ports of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - tls: Whether to start the TLS server and write its certificate files too.
    ///   - log: Called with one line per request to either server, or nil for silence.
    public static func start(tls: Bool = true, log: (@Sendable (String) -> Void)? = nil) async throws -> DemoServers {
        guard tls else { return DemoServers(plain: try await DemoServer.start(port: 0, log: log), secure: nil, folder: nil) }
        let certificate = try DemoCertificate.selfSigned(notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400)
        let other = try DemoCertificate.selfSigned(notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400)
        let folder = NSTemporaryDirectory() + "tincan-demo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            try Data(certificate.certificatePEM.utf8).write(to: URL(fileURLWithPath: folder + "/server-cert.pem"))
            try Data(other.certificatePEM.utf8).write(to: URL(fileURLWithPath: folder + "/other-cert.pem"))
            let plain = try await DemoServer.start(port: 0, log: log)
            do {
                let secure = try await DemoServer.start(port: 0, log: log, tls: try certificate.serverConfiguration())
                return DemoServers(plain: plain, secure: secure, folder: folder)
            } catch {
                await plain.stop()
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Stops the servers and removes the certificate files.
    public func stop() async {
        await plain.stop()
        await secure?.stop()
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }
}
