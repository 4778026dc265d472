import ArgumentParser
import Foundation
import TincanCore
import TincanDemoServer

/// `tincan serve [--port N]`: the demo server in the foreground, one log line per request.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the demo server (httpbin-compatible routes) on loopback."
    )

    @Option(help: "The port to listen on (0 to 65535); 0 picks a free one.")
    var port: String = "8080"

    func run() async throws {
        let port: Int
        do {
            port = try NumericRange.port.named("--port").integer(parsing: self.port)
        } catch {
            throw CLIFailure.badInput("\(error)")
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
