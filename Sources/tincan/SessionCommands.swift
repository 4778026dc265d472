import ArgumentParser
import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan replay FILE`: runs a saved session headless and checks every assertion.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a saved session's requests in order and check their assertions.",
        discussion: """
            Exit codes: 0 when every request passed its checks, 3 when any failed, 2 for a session
            file or option that cannot be used. Variables: the file's, then --env's, then --var's,
            then captures as requests run. See docs/session-format.md.
            """
    )

    @Argument(help: "The session file (*.tincan.yaml).")
    var file: String

    @Option(help: "The environment whose variables apply.")
    var env: String?

    @Option(name: .customLong("var"), help: "A variable as name=value; wins over the file and --env. Repeatable.")
    var variables: [String] = []

    @Option(help: "The report: text (as requests finish), json or junit.")
    var report: ReportWriter.Format = .text

    @Option(help: "Write the json or junit report to FILE and show text progress on standard output.")
    var output: String?

    @Flag(name: .customLong("fail-fast"), help: "Stop at the first request that fails; the rest are reported as skipped.")
    var failFast = false

    @Flag(name: .customLong("compare-recorded"), help: "Also compare each response with the one recorded in the file (status, headers, body).")
    var compareRecorded = false

    @Flag(help: "Save each response into its request's recorded: (refused over a file with comments; see --record-to).")
    var record = false

    @Option(name: .customLong("record-to"), help: "Save the session with the recorded responses to FILE instead of over the session file.")
    var recordTo: String?

    @Option(name: .customLong("record-har"), help: "Write every exchange, with its response and timings, to FILE as a HAR log (secrets hidden unless --show-secrets).")
    var recordHAR: String?

    @Flag(help: "Start the embedded demo server on a free loopback port and set the variable server to its URL.")
    var demo = false

    @Option(name: .customLong("max-body"), help: "The most response-body bytes kept in memory per request (k, M and G suffixes; default 256M, 0 for no limit).")
    var maxBody: String?

    @Flag(help: "List every check and capture, not only failures.")
    var verbose = false

    @Flag(name: .customLong("show-secrets"), help: "Show captured values whose names look secret (token, password…) instead of hiding them, and keep secrets in --record-har's log.")
    var showSecrets = false

    func run() async throws {
        let format = report
        if record, let recordTo {
            throw CLIFailure.badInput("--record and --record-to \(recordTo) cannot go together: --record saves over the session file, --record-to saves to \(recordTo); give one")
        }
        if let output, format == .text {
            throw CLIFailure.badInput("--output \(output) writes a json or junit report, and --report is text; add --report json or --report junit")
        }
        let session = try loadSession(file)
        guard !session.requests.isEmpty else {
            throw CLIFailure.badInput("\(file): the session has no requests, so there is nothing to replay; add one under requests:")
        }
        var options = ReplayOptions()
        options.environment = env
        options.variables = try parseVariables(variables)
        options.failFast = failFast
        options.compareRecorded = compareRecorded
        options.record = record || recordTo != nil
        if let maxBody { options.maximumBodyBytes = try SendCommand.bodyLimit(maxBody) }
        // A body file, upload or multipart file of `-` (issue 18 §7): standard input, read once
        // for every request that names it, never from a terminal.
        if session.readsStandardInput {
            guard let bytes = try StandardInput.current.read() else {
                throw CLIFailure.badInput("\(file): a request reads standard input ('-'), which is a terminal; redirect or pipe the body in")
            }
            options.standardInput = bytes
        }

        var server: DemoServer?
        if demo {
            do {
                server = try await DemoServer.start(port: 0)
            } catch {
                throw CLIFailure(message: "error: the demo server could not start: \(error)", exitCode: .transportFailed)
            }
            if options.variables["server"] == nil { options.variables["server"] = server!.baseURL }
        }

        let streamsText = format == .text || output != nil
        let verbose = verbose
        let showSecrets = showSecrets
        let lines = CheckedLines()
        if streamsText { lines.print("\(session.name ?? (file as NSString).lastPathComponent) (\(file))\n") }
        let replayer = Replayer(session: session, path: file, options: options)
        let (report, recorded): (ReplayReport, Session)
        do {
            (report, recorded) = try await replayer.run { outcome in
                guard streamsText else { return }
                lines.print(ReportWriter.outcomeText(outcome, verbose: verbose, showSecrets: showSecrets))
            }
            await server?.stop()
        } catch let error as SessionError {
            await server?.stop()
            // The requests ran; only the session's cookie file could not be written back.
            if case .cookieFileNotSaved(let writeError) = error.reason { throw CLIFailure.writeFailed(writeError) }
            throw CLIFailure.badInput("\(file): \(error)")
        }
        if streamsText { lines.print(ReportWriter.summary(report) + "\n") }
        // Output that did not arrive makes the run a failure (exit 23) before anything is saved.
        if let failure = lines.firstFailure { throw failure }
        if let recordHAR { try Self.writeHAR(report, session: session, to: recordHAR, showSecrets: showSecrets) }
        if format != .text {
            let text = ReportWriter.render(report, format: format, showSecrets: showSecrets)
            if let output {
                try writeFile(text, to: output)
            } else {
                try StandardOutput.print(text)
            }
        }
        if options.record {
            let target = recordTo ?? file
            try saveSession(recorded, to: target)
            StandardError.print("tincan: recorded \(report.outcomes.count { $0.result != nil }) responses in \(target)\n")
        }
        if !report.passed { throw ExitCode(CLIExitCode.validationFailed.rawValue) }
    }
}

/// `tincan import curl|http`: turns a curl command or a .http file into a session.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a curl command, a .http file or a HAR file as a session.",
        subcommands: [ImportCurl.self, ImportHTTP.self, ImportHAR.self]
    )
}

/// Options shared by the import subcommands.
struct ImportOutput: ParsableArguments {
    @Option(name: [.customShort("o"), .long], help: "Add the requests to this session file (created when missing) instead of printing YAML.")
    var output: String?

    @Flag(help: "Save over a session file even when its comments would be dropped.")
    var force = false

    /// Prints the session, or appends its requests to the output file.
    ///
    /// - Parameter pathsFrom: The folder the imported file paths are relative to (where curl
    ///   runs, or the `.http` file's folder); they are rewritten to be relative to the session
    ///   file's folder, or to the current folder when the session is printed.
    func write(_ imported: Session, pathsFrom source: String, warnings: [String]) throws {
        for warning in warnings { StandardError.print("tincan: warning: \(warning)\n") }
        var imported = imported
        let target = output.map(Session.directory(of:)) ?? FileManager.default.currentDirectoryPath
        imported.requests = imported.requests.map { $0.rebasingPaths(from: source, to: target) }
        guard let output else {
            try StandardOutput.print(imported.yamlText())
            return
        }
        var session = imported
        // Requests are added to a session file; a device or a FIFO (never-ending reads) is only written.
        if SendCommand.regularFileSize(output) != nil {
            session = try loadSession(output)
            session.requests += imported.requests
            for (name, value) in imported.variables where session.variables[name] == nil { session.variables[name] = value }
        }
        try saveSession(session, to: output, allowDroppingComments: force, hint: " (or pass --force)")
        StandardError.print("tincan: \(imported.requests.count) request\(imported.requests.count == 1 ? "" : "s") added to \(output)\n")
    }
}

/// Saves a session, mapping a refusal to exit 2 and a failed write to exit 23.
///
/// - Parameter hint: Added to the message when comments would be dropped, naming the way out.
func saveSession(_ session: Session, to path: String, allowDroppingComments: Bool = false, hint: String = "") throws {
    do {
        try SessionFile.save(session, to: path, allowDroppingComments: allowDroppingComments)
    } catch {
        switch error {
        case .writeFailed: throw CLIFailure(message: "error: \(error)", exitCode: .writeFailed)
        case .wouldDropComments: throw CLIFailure.badInput("\(error)\(hint)")
        case .existingFileDoesNotParse: throw CLIFailure.badInput("\(error)")
        }
    }
}

struct ImportCurl: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "curl", abstract: "Import one curl command (quote it as one argument).")

    @Argument(help: "The curl command, such as 'curl -X POST https://example.com/items -d name=x'.")
    var command: [String]

    @Option(help: "A name for the request.")
    var name: String?

    @OptionGroup var output: ImportOutput

    func run() throws {
        let text = command.count == 1 ? command[0] : command.map(ShellWords.quote).joined(separator: " ")
        var imported: CurlCommand.Imported
        do {
            imported = try CurlCommand.parse(text)
        } catch {
            throw CLIFailure.badInput("cannot import the curl command: \(error)")
        }
        imported.request.name = name ?? imported.request.name
        try output.write(Session(name: name ?? "Imported from curl", requests: [imported.request]),
                         pathsFrom: FileManager.default.currentDirectoryPath, warnings: imported.warnings)
    }
}

struct ImportHTTP: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "http", abstract: "Import a .http file (VS Code REST Client, JetBrains).")

    @Argument(help: "The .http file.")
    var file: String

    @OptionGroup var output: ImportOutput

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIFailure.badInput("\(file) cannot be read") }
        let imported: HTTPFile.Imported
        do {
            imported = try HTTPFile.parse(String(decoding: data, as: UTF8.self), path: file)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        try output.write(imported.session, pathsFrom: Session.directory(of: file), warnings: imported.warnings)
    }
}

/// `tincan export FILE --format curl|http|har`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session's requests as curl commands, a .http file or a HAR log.",
        discussion: "Variables are expanded from the file, --env and --var. Values captured while replaying are unknown until then, so they stay as {{name}}."
    )

    @Argument(help: "The session file.")
    var file: String

    @Option(help: "The format written: a curl command line, a .http file or a HAR log.")
    var format: ExportFormat = .curl

    @Flag(name: .customLong("show-secrets"), help: "Keep credentials, tokens and cookies in a HAR log instead of hiding them.")
    var showSecrets = false

    @Option(help: "Only this request: its number (from 1) or its name.")
    var request: String?

    @Option(help: "The environment whose variables apply.")
    var env: String?

    @Option(name: .customLong("var"), help: "A variable as name=value. Repeatable.")
    var variables: [String] = []

    func run() throws {
        if showSecrets, format != .har {
            throw CLIFailure.badInput("--show-secrets applies to --format har; curl commands and .http files always hold the request as sent")
        }
        let session = try loadSession(file)
        guard !session.requests.isEmpty else {
            throw CLIFailure.badInput("\(file): the session has no requests, so there is nothing to export")
        }
        var template: Template
        do {
            template = Template(variables: try session.variables(environment: env, overrides: try parseVariables(variables)))
        } catch let error as SessionError {
            throw CLIFailure.badInput("\(file): \(error)")
        }
        template.passthrough = Set(session.requests.flatMap(\.captures.keys))
        let indices = try selectedIndices(session)
        let directory = Session.directory(of: file)
        var built: [(name: String, request: HTTPRequest, resolved: ResolvedRequest)] = []
        for index in indices {
            do {
                let resolved = try session.resolve(index, template: template, directory: directory, file: file)
                built.append((session.requests[index].displayName, try resolved.draft.build(), resolved))
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        var text: String
        var warnings: [String] = []
        if format == .har {
            (text, warnings) = Self.harText(built, showSecrets: showSecrets)
        } else if format == .curl {
            text = built.map { item in
                let exported = CurlCommand.export(item.request, resolved: item.resolved)
                warnings += exported.warnings.map { "request '\(item.name)': \($0)" }
                return "# \(item.name)\n" + exported.command
            }.joined(separator: "\n\n") + "\n"
        } else {
            do {
                let exported = try HTTPFile.export(built.map { ($0.name, $0.request, $0.resolved) })
                text = exported.text
                warnings = exported.warnings
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        for warning in warnings { StandardError.print("tincan: warning: \(warning)\n") }
        if built.count == 1, format == .curl { text = String(text.drop { $0 != "\n" }.dropFirst()) }
        try StandardOutput.print(text)
    }

    private func selectedIndices(_ session: Session) throws -> [Int] {
        guard let request else { return Array(session.requests.indices) }
        if let index = session.requests.firstIndex(where: { $0.name == request }) { return [index] }
        // A number goes through the checked conversion: `Int(request) - 1` overflowed on Int.min.
        if NumericRange.decimal(Substring(request)) != nil {
            let number: Int
            do {
                number = try NumericRange.requestNumber.named("--request").integer(parsing: request)
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
            guard session.requests.indices.contains(number - 1) else {
                throw CLIFailure.badInput("--request \(number): the session has \(session.requests.count) requests")
            }
            return [number - 1]
        }
        throw CLIFailure.badInput("--request '\(request)' names no request; expected one of: \(session.requests.compactMap(\.name).joined(separator: ", "))")
    }
}

/// Loads a session file, turning its errors into bad-input failures (exit 2).
func loadSession(_ path: String) throws -> Session {
    do {
        return try Session.load(path: path)
    } catch let error as ConfigFileError {
        throw CLIFailure.badInput("\(error)")
    }
}

/// `name=value` pairs from `--var`.
func parseVariables(_ items: [String]) throws -> [String: String] {
    var variables: [String: String] = [:]
    for item in items {
        guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
            throw CLIFailure.badInput("--var '\(item)' is not a variable; expected name=value")
        }
        variables[String(item[..<equals])] = String(item[item.index(after: equals)...])
    }
    return variables
}

/// What `tincan export` writes.
enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
    case curl
    case http
    case har
}

extension ReportWriter.Format: ExpressibleByArgument {}
