import ArgumentParser
import Foundation
import TincanCore
import TincanDemoServer
import TincanSessions

/// `tincan import curl|http|openapi|postman|insomnia|bruno|har`: turns a curl command, a .http
/// file, a HAR log or another client's collection into a session.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a curl command, a .http file, an OpenAPI or Swagger document, a Postman collection, an Insomnia export, a Bruno collection or a HAR file as a session.",
        subcommands: [ImportCurl.self, ImportHTTP.self, ImportOpenAPI.self, ImportPostman.self, ImportInsomnia.self, ImportBruno.self, ImportHAR.self]
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
        for warning in warnings { StandardError.warn(warning) }
        var imported = imported
        let target = output.map(Session.directory(of:)) ?? FileManager.default.currentDirectoryPath
        imported.requests = imported.requests.map { $0.rebasingPaths(from: source, to: target) }
        guard let output else {
            try StandardOutput.print(try Self.readableText(imported))
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
        let text = try Self.readableText(session)
        try saveSession(session, to: output, allowDroppingComments: force, hint: " (or pass --force)", text: text)
        StandardError.print("tincan: \(imported.requests.count) request\(imported.requests.count == 1 ? "" : "s") added to \(output)\n")
    }
}

extension ImportOutput {
    /// The session's text, once it is known to read back: an import never writes a file that
    /// `replay` and `export` would refuse (say, a key written twice). One that would not is a
    /// fault of Tincan's, named, and nothing is written.
    static func readableText(_ session: Session) throws -> String {
        let text = session.yamlText()
        do {
            _ = try Session.parse(text, path: "the imported session")
        } catch {
            throw CLIFailure(message: "error: the imported session would not read back, so nothing was written (a fault in Tincan's import; please report it with the file): \(error)", exitCode: .badInput)
        }
        return text
    }
}

/// Saves a session, mapping a refusal to exit 2 and a failed write to exit 23.
///
/// - Parameter hint: Added to the message when comments would be dropped, naming the way out.
func saveSession(_ session: Session, to path: String, allowDroppingComments: Bool = false, hint: String = "", text: String? = nil) throws {
    do {
        try SessionFile.save(session, to: path, allowDroppingComments: allowDroppingComments, text: text)
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
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.readText(file, limit: CollectionFormat.maximumFileBytes)
        } catch {
            throw CLIFailure.badInput("\(file) \(error)")
        }
        let imported: HTTPFile.Imported
        do {
            imported = try HTTPFile.parse(String(decoding: bytes, as: UTF8.self), path: file)
        } catch {
            throw CLIFailure.badInput("\(error)")
        }
        try output.write(imported.session, pathsFrom: Session.directory(of: file), warnings: imported.warnings)
    }
}

/// `tincan export FILE --format curl|http|har|postman|bruno|python|javascript|go|httpie|swift|alamofire [DESTINATION]`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session's requests as curl commands, a .http file, a HAR log, a Postman or Bruno collection, or code (Python, JavaScript, Go, HTTPie, Swift, Alamofire).",
        discussion: """
            python (requests), javascript (fetch), go (net/http), swift (URLSession) and alamofire write one request as a program that sends the bytes Tincan sends and prints the response body (choose it with --request when the session has several); httpie writes a command per request. What a library does otherwise is printed as a warning.

            curl, http, har and the code formats build each request as a replay would: variables are expanded from the file, --env and --var, and values captured while replaying stay as {{name}}. postman and bruno write the session as it is saved, variables and all, for the other tool's users to edit. A request that cannot be exported is named, the others are written, and the exit code is 2.
            """
    )

    @Argument(help: "The session file.")
    var file: String

    @Argument(help: "Where to write: a file, or a folder for --format bruno (required there); standard output when left out.")
    var destination: String?

    @Option(help: "The format written: a curl command line, a .http file, a HAR log, a Postman collection (v2.1), a Bruno collection (a folder), or code: python, javascript, go, httpie, swift, alamofire.")
    var format: ExportFormat = .curl

    @Flag(name: .customLong("show-secrets"), help: "Keep credentials, tokens and cookies in a HAR log or a Postman or Bruno collection instead of hiding them.")
    var showSecrets = false

    @Option(help: "Only this request: its number (from 1) or its name.")
    var request: String?

    @Option(help: "The environment whose variables apply.")
    var env: String?

    @Option(name: .customLong("var"), help: "A variable as name=value. Repeatable.")
    var variables: [String] = []

    func run() throws {
        if showSecrets, ![.har, .postman, .bruno].contains(format) {
            throw CLIFailure.badInput("--show-secrets applies to --format har, postman and bruno; curl commands, .http files and code always hold the request as sent")
        }
        if format == .bruno, destination == nil {
            throw CLIFailure.badInput("--format bruno writes a folder: give it after the session (tincan export \(file) --format bruno DIR)")
        }
        let session = try loadSession(file)
        guard !session.requests.isEmpty else {
            throw CLIFailure.badInput("\(file): the session has no requests, so there is nothing to export")
        }
        let overrides = try parseVariables(variables)
        if let env, session.environments[env] == nil {
            throw CLIFailure.badInput("\(file): \(SessionError(.unknownEnvironment(env, defined: Array(session.environments.keys))))")
        }
        let indices = try selectedIndices(session)
        if let language = format.language, language != .httpie, indices.count > 1 {
            throw CLIFailure.badInput("--format \(format.rawValue) writes one program, and \(file) has \(indices.count) requests: choose one with --request NUMBER or NAME")
        }
        if format == .postman || format == .bruno {
            var selected = session
            selected.requests = indices.map { session.requests[$0] }
            return try exportCollection(selected, overrides: overrides)
        }
        var template: Template
        do throws(SessionError) {
            template = try session.template(environment: env, overrides: overrides)
        } catch {
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
        let directory = Session.directory(of: file)
        var built: [(name: String, request: HTTPRequest, resolved: ResolvedRequest)] = []
        // A request that cannot be built is named, and the others are still exported.
        var failures: [String] = []
        for index in indices {
            do {
                let resolved = try session.resolve(index, template: template, directory: directory, file: file)
                built.append((session.requests[index].displayName, try resolved.draft.build(), resolved))
            } catch let error as RequestResolutionError {
                failures.append("\(error)")
            } catch {
                failures.append("\(file): request '#\(index + 1) \(session.requests[index].displayName)': \(error)")
            }
        }
        guard !built.isEmpty else { throw CLIFailure.badInput(failures.joined(separator: "\n")) }
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
        } else if let language = format.language {
            text = built.map { item in
                let exported = CodeExport.export(item.request, resolved: item.resolved, as: language)
                warnings += exported.warnings.map { "request '\(item.name)': \($0)" }
                return language == .httpie && built.count > 1 ? "# \(TerminalText.line(item.name))\n" + exported.code : exported.code
            }.joined(separator: "\n")
        } else {
            do {
                let exported = try HTTPFile.export(built.map { ($0.name, $0.request, $0.resolved) })
                text = exported.text
                warnings += exported.warnings
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        for warning in warnings { StandardError.warn(warning) }
        if built.count == 1, indices.count == 1, format == .curl { text = String(text.drop { $0 != "\n" }.dropFirst()) }
        try write(text)
        try reportSkipped(failures, of: indices.count)
    }

    /// The session as a Postman collection (printed, or written to the destination) or a Bruno
    /// collection (written into the destination folder).
    private func exportCollection(_ session: Session, overrides: [String: String]) throws {
        let export = CollectionExport(showsSecrets: showSecrets, variables: overrides)
        let exported: CollectionExport.Exported
        if format == .postman {
            exported = export.postman(session, environment: env)
        } else {
            let folder = destination!
            try Self.checkEmptyFolder(folder)
            exported = export.bruno(session, sessionFolder: Session.directory(of: file), collectionFolder: folder)
        }
        guard exported.skipped.count < session.requests.count else { throw CLIFailure.badInput(exported.skipped.joined(separator: "\n")) }
        for warning in exported.warnings { StandardError.warn(warning) }
        if format == .postman {
            try write(exported.files[0].text)
        } else {
            let folder = destination!
            for (path, text) in exported.files {
                let full = (folder as NSString).appendingPathComponent(path)
                do {
                    try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                } catch {
                    throw CLIFailure(message: "error: \(full): the folder cannot be made: \(error.localizedDescription)", exitCode: .writeFailed)
                }
                try writeFile(text, to: full)
            }
            let count = session.requests.count - exported.skipped.count
            StandardError.print("tincan: \(count) request\(count == 1 ? "" : "s") written to \(folder) as a Bruno collection\n")
        }
        try reportSkipped(exported.skipped, of: session.requests.count)
    }

    /// A folder the Bruno export may write into: missing, or empty (what is there is never
    /// written over).
    static func checkEmptyFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else { throw CLIFailure.badInput("\(path) is a file; --format bruno writes a folder") }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard entries.isEmpty else { throw CLIFailure.badInput("\(path) is not empty; export into a new folder, so nothing there is written over") }
    }

    /// The text printed, or written to the destination file.
    private func write(_ text: String) throws {
        if let destination {
            try writeFile(text, to: destination)
        } else {
            try StandardOutput.print(text)
        }
    }

    /// Names the requests that were not exported (after the others were): exit 2.
    private func reportSkipped(_ failures: [String], of total: Int) throws {
        guard !failures.isEmpty else { return }
        for failure in failures { StandardError.print("tincan: error: not exported: \(failure)\n") }
        throw CLIFailure.badInput("\(failures.count) of \(total) requests \(failures.count == 1 ? "was" : "were") not exported (named above); the others were")
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

/// What `tincan export` writes: a format of its own, or a language of ``CodeExport``.
enum ExportFormat: Hashable, OptionWord {
    case curl
    case http
    case har
    case postman
    case bruno
    case code(CodeExport.Language)

    static var allCases: [ExportFormat] { [.curl, .http, .har, .postman, .bruno] + CodeExport.Language.allCases.map(ExportFormat.code) }

    init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = format
    }

    var rawValue: String {
        switch self {
        case .curl: "curl"
        case .http: "http"
        case .har: "har"
        case .postman: "postman"
        case .bruno: "bruno"
        case .code(let language): language.rawValue
        }
    }

    /// The language of a code format, nil for the others.
    var language: CodeExport.Language? {
        if case .code(let language) = self { return language }
        return nil
    }
}

extension ReportWriter.Format: OptionWord {}
