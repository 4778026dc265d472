import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanDemoServer
import TincanSessions
@testable import TincanTUI

/// The real run loop over an in-memory terminal: keys in, frames out, the core's tasks posting back.
@Suite("The run loop")
struct RunLoopTests {
    /// Opens the session file at `path`, presses ctrl+r, waits for `needle` on the screen, quits,
    /// and returns the final state and the screen.
    private func sendFirstRequest(of path: String, waitingFor needle: String) async throws -> (AppState, String) {
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        let terminal = MemoryTerminal(width: 120, height: 40)
        let managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        let runner = AppRunner(terminal: terminal, managers: managers)
        let initial = state
        async let final: AppState = withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: runner.run(initial)) }.start()
        }
        terminal.type([.key(.ctrl("r"))])
        let shown = await terminal.waitFor(needle)
        let screen = terminal.text
        terminal.type([.key(KeyEvent(.function(10)))])
        let ended = await final
        await managers.invalidateAll()
        #expect(shown, "the screen never showed \(needle):\n\(screen)")
        return (ended, screen)
    }

    /// A session for `server` with `security` under its defaults, in `directory`.
    private func session(for server: DemoServer, security: String, in directory: TemporaryDirectory) throws -> String {
        let yaml = "base: \(server.baseURL)\ndefaults:\n  security:\n\(security)requests:\n  - name: one\n    url: /get\n"
        return try directory.write("tls.tincan.yaml", Array(yaml.utf8))
    }

    @Test("a send trusts the CA file the session names")
    func sessionCAFileIsTrusted() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        try directory.write("ca.pem", Array(certificate.certificatePEM.utf8))
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let path = try session(for: server, security: "    ca-file: ca.pem\n", in: directory)
            let (state, screen) = try await sendFirstRequest(of: path, waitingFor: "200 OK in")
            #expect(state.exchange?.result?.response?.statusCode == 200, "\(screen)")
            #expect(screen.contains("\"url\": \"https://127.0.0.1:"), "the demo server echoes the scheme it was reached by: \(screen)")
        }
    }

    @Test("a send enforces the session's pins")
    func sessionPinsAreEnforced() async throws {
        let certificate = try TestCertificate.selfSigned()
        let directory = try TemporaryDirectory()
        try directory.write("other.der", try TestCertificate.selfSigned().certificateDER)
        try await withDemoServer(tls: try certificate.serverConfiguration()) { server in
            let path = try session(for: server, security: "    pins: [other.der]\n", in: directory)
            let (state, screen) = try await sendFirstRequest(of: path, waitingFor: "pin mismatch")
            #expect(state.exchange?.result?.response == nil, "\(screen)")
        }
    }
}
