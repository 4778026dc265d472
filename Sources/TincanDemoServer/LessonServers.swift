import Foundation

/// The demo servers a lesson runs against (`tincan learn`): the plain one, and one over TLS that
/// presents a certificate made on the spot, so the security-policy lesson can pin it.
///
/// Lessons name them by variables (``variables``): `server` and `secure-server` are their base
/// URLs, `server-cert` the PEM file of the TLS server's certificate (to pin, or to trust as a CA
/// file) and `other-cert` another certificate's, a wrong pin. The files live in a folder of their
/// own, removed by ``stop()``.
public final class LessonServers: Sendable {
    /// The plain demo server.
    public let plain: DemoServer
    /// The demo server over TLS.
    public let secure: DemoServer
    /// The folder that holds the certificate files.
    public let folder: String

    private init(plain: DemoServer, secure: DemoServer, folder: String) {
        self.plain = plain
        self.secure = secure
        self.folder = folder
    }

    /// The variables a lesson reads the servers from.
    public var variables: [String: String] {
        [
            "server": plain.baseURL,
            "secure-server": secure.baseURL,
            "server-cert": folder + "/server-cert.pem",
            "other-cert": folder + "/other-cert.pem",
        ]
    }

    /// Starts both servers on free ports of 127.0.0.1.
    ///
    /// - Parameter log: Called with one line per request to either server, or nil for silence.
    public static func start(log: (@Sendable (String) -> Void)? = nil) async throws -> LessonServers {
        let certificate = try DemoCertificate.selfSigned(notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400)
        let other = try DemoCertificate.selfSigned(notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400)
        let folder = NSTemporaryDirectory() + "tincan-lesson-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            try Data(certificate.certificatePEM.utf8).write(to: URL(fileURLWithPath: folder + "/server-cert.pem"))
            try Data(other.certificatePEM.utf8).write(to: URL(fileURLWithPath: folder + "/other-cert.pem"))
            let plain = try await DemoServer.start(port: 0, log: log)
            do {
                let secure = try await DemoServer.start(port: 0, log: log, tls: try certificate.serverConfiguration())
                return LessonServers(plain: plain, secure: secure, folder: folder)
            } catch {
                await plain.stop()
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Stops both servers and removes the certificate files.
    public func stop() async {
        await plain.stop()
        await secure.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
