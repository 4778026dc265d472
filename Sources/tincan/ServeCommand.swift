import ArgumentParser
import Foundation
import TincanDemoServer

/// `tincan serve [--port N]`: the demo server in the foreground, one log line per request.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the demo server (httpbin-compatible routes) on loopback."
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8080

    func run() async throws {
        guard (0...65535).contains(port) else {
            throw CLIFailure.badInput("--port \(port) is not a port; expected 0 to 65535")
        }
        let server: DemoServer
        do {
            server = try await DemoServer.start(port: port) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch {
            throw CLIFailure(message: "error: cannot listen on 127.0.0.1:\(port): \(error)", exitCode: .transportFailed)
        }
        FileHandle.standardOutput.write(Data("tincan demo server on \(server.baseURL) — try: tincan send GET \(server.baseURL)/get\n".utf8))
        try await server.wait()
    }
}
