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
        // The log is written from the server's threads; the first line that cannot be written
        // (a closed pipe, a full disk) stops the server and becomes the command's error.
        let lines = CheckedLines()
        let (failures, failed) = AsyncStream<Void>.makeStream()
        let server: DemoServer
        do {
            server = try await DemoServer.start(port: port) { line in
                lines.print(line + "\n")
                if lines.firstFailure != nil { failed.finish() }
            }
        } catch {
            throw CLIFailure(message: "error: cannot listen on 127.0.0.1:\(port): \(error)", exitCode: .transportFailed)
        }
        lines.print("tincan demo server on \(server.baseURL) — try: tincan send GET \(server.baseURL)/get\n")
        if let failure = lines.firstFailure {
            await server.stop()
            throw failure
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.wait() }
            group.addTask { for await _ in failures {} }
            // Whichever ends first (the server, or the log failing) ends the command.
            _ = try await group.next()
            group.cancelAll()
            await server.stop()
        }
        if let failure = lines.firstFailure { throw failure }
    }
}
