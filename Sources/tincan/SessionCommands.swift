import ArgumentParser
import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan import curl|http|openapi|postman|insomnia`: turns a curl command, a .http file or
/// another client's collection into a session.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a curl command, a .http file, an OpenAPI document, a Postman collection, an Insomnia export or a HAR file as a session.",
        subcommands: [ImportCurl.self, ImportHTTP.self, ImportOpenAPI.self, ImportPostman.self, ImportInsomnia.self, ImportHAR.self]
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
            // The file keeps its own base: requests the import made relative to another one
            // (a HAR whose entries share an origin) are made absolute again.
            if let base = imported.base, base != session.base {
                let origin = URLReference(parsing: base)
                for index in imported.requests.indices where !imported.requests[index].url.contains("://") {
                    imported.requests[index].url = URLReference(parsing: imported.requests[index].url).resolved(against: origin).description
                }
            }
            session.requests += imported.requests
            for (name, value) in imported.variables where session.variables[name] == nil { session.variables[name] = value }
            for (name, environment) in imported.environments {
                for (variable, value) in environment where session.environments[name]?[variable] == nil { session.environments[name, default: [:]][variable] = value }
            }
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
        var warnings: [String] = []
        if session.demoUse != .none {
            // Nothing is sent, and an in-process server's port would be gone with this command: the
            // demo server's address is where `tincan serve` listens by default.
            let served = "http://127.0.0.1:\(DemoServer.defaultPort)"
            template.demo = DemoAddresses(plain: served)
            warnings.append("{{$demo}} is written as \(served), where `tincan serve` listens by default; start it before running what is exported")
        }
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
        if format == .har {
            let har: [String]
            (text, har) = Self.harText(built, showSecrets: showSecrets)
            warnings += har
        } else if format == .curl {
            text = built.map { item in
                let exported = CurlCommand.export(item.request, resolved: item.resolved)
                warnings += exported.warnings.map { "request '\(item.name)': \($0)" }
                return "# \(TerminalText.line(item.name))\n" + exported.command
            }.joined(separator: "\n\n") + "\n"
        } else {
            do {
                let exported = try HTTPFile.export(built.map { ($0.name, $0.request, $0.resolved) })
                text = exported.text
                warnings += exported.warnings
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
