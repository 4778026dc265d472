import TincanDemoServer
import TincanSessions

extension DemoServers {
    /// What `{{$demo}}` and its kin expand to while these servers run.
    var addresses: DemoAddresses {
        DemoAddresses(plain: plain.baseURL, secure: secure?.baseURL, certificate: certificatePath, otherCertificate: otherCertificatePath)
    }

    /// Starts the demo servers that sessions use (issue 34 §3), or none when none does.
    ///
    /// - Throws: ``CLIFailure`` with the transport's exit code when a server cannot start.
    static func start(for use: DemoUse) async throws -> DemoServers? {
        guard use != .none else { return nil }
        do {
            return try await start(tls: use == .withTLS)
        } catch {
            throw CLIFailure(message: "error: the demo server could not start: \(error)", exitCode: .transportFailed)
        }
    }
}
