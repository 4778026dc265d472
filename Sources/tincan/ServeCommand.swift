import ArgumentParser
import Foundation
import NIOSSL
import Synchronization
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan serve [--port N]`: the demo server in the foreground, one log line per request.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the demo server (httpbin-compatible routes), on loopback unless --host says otherwise."
    )

    @Option(help: "The port to listen on (0 to 65535); 0 picks a free one.")
    var port: String = "\(DemoServer.defaultPort)"

    @Option(help: ArgumentHelp("The address to listen on: an IP address or localhost. Any but a loopback address lets the network in, with a warning.", valueName: "ADDRESS"))
    var host: String = "127.0.0.1"

    @Flag(help: "Print each request as it arrives: its head as received and its body (text, or size and first bytes), for a projector.")
    var show = false

    @Flag(name: .customLong("show-secrets"), help: "With --show, print secrets as they came (Authorization, cookies, tokens, secret query, form and JSON fields) instead of dots.")
    var showSecrets = false

    @Option(help: ArgumentHelp("With --show: auto colours a terminal unless NO_COLOR is set.", valueName: "WHEN"))
    var color: ColorChoice = .auto

    @Flag(help: "Follow a workshop: accept students' step completions (tincan learn N --classroom URL --name NAME) and show who is on which step, here and at /__classroom.")
    var classroom = false

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Also answer requests whose Host is NAME (a name this machine is reached by, such as teacher.local). Repeatable. The server answers only its own names, so that a web page cannot reach it through DNS rebinding: localhost and loopback addresses, any IP address when --host is not loopback, and these.", valueName: "NAME"))
    var allowHosts: [String] = []

    @Option(name: .customLong("cert"), help: ArgumentHelp("Serve https with this certificate (PEM); needs --key.", valueName: "FILE"))
    var certificate: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --cert.", valueName: "FILE"))
    var key: String?

    @Option(name: .customLong("client-ca"), help: ArgumentHelp("With --cert, require a client certificate issued by an authority in this PEM file (mutual TLS).", valueName: "FILE"))
    var clientCA: String?

    func validate() throws {
        if showSecrets && !show { throw ValidationError("--show-secrets goes with --show, which prints what arrives") }
    }

    func run() async throws {
        let port: Int
        do {
            port = try NumericRange.port.named("--port").integer(parsing: self.port)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        let address = try ServeAddress.parse(host)
        let hosts = try ServeAddress.hostPolicy(allowing: allowHosts, listeningOn: address)
        let tls = try tlsConfiguration()
        // The log is written from the server's threads; the first line that cannot be written
        // (a closed pipe, a full disk) stops the server and becomes the command's error.
        let lines = CheckedLines()
        let (failures, failed) = AsyncStream<Void>.makeStream()
        let server: DemoServer
        // The address students are given, known once the server listens.
        let joinURL = JoinAddress()
        do {
            let write: @Sendable (String) -> Void = { text in
                lines.print(text)
                if lines.firstFailure != nil { failed.finish() }
            }
            // Text whose parts from outside are already neutralised, with escape sequences of
            // Tincan's own: --show's colours, the classroom's screen.
            let writeControlling: @Sendable (String) -> Void = { text in
                lines.printControlling(text)
                if lines.firstFailure != nil { failed.finish() }
            }
            var onReceived: (@Sendable (ReceivedRequest) -> Void)?
            if show {
                let style = ReceivedPrinter.Style(colors: color.colors(terminal: isatty(STDOUT_FILENO) == 1, environment: ProcessEnvironment.values), showsSecrets: showSecrets)
                onReceived = { request in writeControlling(ReceivedPrinter.text(request, style: style)) }
            }
            // On a terminal, the classroom's table is the screen, drawn again on each report;
            // elsewhere (a pipe, or beside --show), a line per report.
            let drawsTable = classroom && !show && isatty(STDOUT_FILENO) == 1
            var room: Classroom?
            if classroom {
                room = Classroom(onChange: { student, students in
                    writeControlling(drawsTable ? ClassroomTable.screen(students, address: joinURL.value.withLock { $0 }) : ClassroomTable.line(student))
                })
            }
            var log: (@Sendable (String) -> Void)?
            // The log line's target holds the query as sent: its secret fields are hidden too.
            let showSecrets = showSecrets
            if !drawsTable { log = { line in write((showSecrets ? line : Redaction.receivedHeadLine(line, isRequestLine: true)) + "\n") } }
            if let warning = address.warning { StandardError.print(warning) }
            server = try await DemoServer.start(host: address.host, port: port, log: log, tls: tls, onReceived: onReceived, hosts: hosts, classroom: room)
        } catch {
            throw CLIFailure(message: "error: cannot listen on \(address.host):\(port): \(error)", exitCode: .transportFailed)
        }
        joinURL.value.withLock { $0 = server.baseURL }
        if classroom && !show && isatty(STDOUT_FILENO) == 1 {
            lines.printControlling(ClassroomTable.screen([], address: server.baseURL))
        } else {
            lines.print("tincan demo server on \(server.baseURL) — try: tincan send GET \(server.baseURL)/get\n")
            if classroom { lines.print("classroom: students join with: tincan learn N --classroom \(server.baseURL) --name NAME; the room is at \(server.baseURL)/__classroom\n") }
        }
        // What it answers, when that is more than loopback (the classroom mode).
        if !address.isLoopback || !allowHosts.isEmpty {
            StandardError.print("tincan: answering requests for \(hosts.description(port: server.port)); any other Host gets 421\n")
        }
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

    /// The TLS settings `--cert`, `--key` and `--client-ca` ask for, or nil for plain http.
    func tlsConfiguration() throws -> TLSConfiguration? {
        guard let certificate else {
            if key != nil || clientCA != nil { throw CLIFailure.badInput("\(key != nil ? "--key" : "--client-ca") needs --cert FILE (the server's certificate)") }
            return nil
        }
        guard let key else { throw CLIFailure.badInput("--cert needs --key FILE (the certificate's private key)") }
        for (option, path) in [("--cert", certificate), ("--key", key), ("--client-ca", clientCA)] {
            guard let path else { continue }
            if !FileManager.default.isReadableFile(atPath: path) { throw CLIFailure.badInput("\(option): \(path) is not a readable file") }
        }
        do {
            return try DemoServer.tlsConfiguration(certificate: certificate, key: key, clientCA: clientCA)
        } catch {
            throw CLIFailure.badInput("--cert/--key/--client-ca: \(error)")
        }
    }
}

/// The address students join a classroom at, set once the server listens and read by its table.
private final class JoinAddress: Sendable {
    let value = Mutex("")
}
