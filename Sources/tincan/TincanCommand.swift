import ArgumentParser
import Foundation
import TincanCore

/// The `tincan` command: the TUI by default, and subcommands for headless work.
@main
struct TincanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tincan",
        abstract: "A terminal workbench for crafting, inspecting and replaying HTTP requests.",
        version: versionText,
        subcommands: [TUICommand.self, SendCommand.self, WebSocketCommand.self, ReplayCommand.self, ImportCommand.self, ExportCommand.self, ServeCommand.self, LearnCommand.self, KeysCommand.self],
        defaultSubcommand: TUICommand.self
    )

    /// What `--version` prints: the version and the commit the build comes from (`0.1.0 (commit
    /// 7261a4b3c2d1)`, `-dirty` when the tree had changes), or the version alone when it was
    /// built outside a git checkout.
    static let versionText = Tincan.version + (BuildCommit.identifier.map { " (commit \($0))" } ?? "")

    /// Runs the command and maps every failure to the exit codes of the CLI contract:
    /// 2 for bad usage or input, 3 for validation, 4 for transport, 5 for decoding, 23 for
    /// output that could not be written.
    static func main() async {
        StandardOutput.ignoreClosedPipeSignal()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The commands that send have the transport's threads start beside the argument parser
        // (not for help, or for a request only printed).
        if let command = arguments.first, command == "send" || command == "replay",
           arguments.allSatisfy({ !["--help", "-h", "--offline", "--explain"].contains($0) }) {
            AsyncHTTPClientTransport.startEventLoopsInBackground()
        }
        // `tincan --version` answers before the argument parser reflects over every command,
        // which is most of its start-up; the text is the one the parser prints.
        if arguments == ["--version"] { end(Ending(status: CLIExitCode.success.rawValue, standardOutput: configuration.version)) }
        do {
            try await execute(arguments)
        } catch {
            end(ending(for: error))
        }
        if let note = PublicSuffixList.missingSystemListNote { StandardError.print("tincan: note: \(note)\n") }
    }

    /// Prints what `ending` says and exits with its status.
    static func end(_ ending: Ending) -> Never {
        if let note = PublicSuffixList.missingSystemListNote { StandardError.print("tincan: note: \(note)\n") }
        if let text = ending.standardOutput {
            // --help and --version: their text is output like any other, and checked.
            do {
                if !text.isEmpty { try StandardOutput.print(text + "\n") }
            } catch {
                let failed = Self.ending(for: error)
                if let message = failed.standardError { StandardError.print(message + "\n") }
                Foundation.exit(failed.status)
            }
        }
        if let message = ending.standardError { StandardError.print(message + "\n") }
        Foundation.exit(ending.status)
    }

    /// Parses `arguments` (without the program's name) and runs the command they name.
    ///
    /// `send` and `replay` are parsed by their own command type, through the argument parser
    /// like every command (each option is declared once, issue 34 §10), without the root's
    /// reflection over every other command first; help and errors, which name the whole
    /// command, go through the root as before.
    static func execute(_ arguments: [String]) async throws {
        if let first = arguments.first, let command = directCommands[first], !arguments.contains(where: { ["--help", "-h", "--version", "--generate-completion-script"].contains($0) }) {
            let rest = Array(arguments.dropFirst())
            let parsed: ParsableCommand
            do {
                parsed = try command.parse(rest)
            } catch {
                // Help, a version request or a usage error: the root's message, with its names.
                _ = try parseAsRoot(arguments)
                throw error
            }
            if var asyncCommand = parsed as? AsyncParsableCommand {
                return try await asyncCommand.run()
            }
            var plain = parsed
            return try plain.run()
        }
        var command = try parseAsRoot(arguments)
        if var asyncCommand = command as? AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }

    /// The subcommands parsed by their own type rather than through the root (the usual lines).
    static let directCommands: [String: any ParsableCommand.Type] = ["send": SendCommand.self, "replay": ReplayCommand.self]

    /// How the process ends for an error a command threw: its exit status, and what it prints.
    struct Ending: Equatable {
        var status: Int32
        /// The message for standard error, or nil for none.
        var standardError: String?
        /// Text for standard output (help and version), or nil for none.
        var standardOutput: String?
    }

    /// The ending of the CLI contract for `error`.
    static func ending(for error: any Error) -> Ending {
        switch error {
        case let failure as CLIFailure:
            return Ending(status: failure.exitCode.rawValue, standardError: "tincan: \(failure.message)")
        case let error as OutputError:
            // A closed pipe says nothing, since the reader left on purpose (`| head`) and nobody
            // reads an explanation.
            return Ending(status: CLIExitCode.writeFailed.rawValue, standardError: error.isClosedPipe ? nil : "tincan: error: \(error)")
        case let error as RequestSerializationError:
            return Ending(status: CLIExitCode.badInput.rawValue, standardError: "tincan: error: \(error)")
        case let error as RequestItemError:
            return Ending(status: CLIExitCode.badInput.rawValue, standardError: "tincan: error: \(error)")
        case let error as NumericRangeError:
            return Ending(status: CLIExitCode.badInput.rawValue, standardError: "tincan: error: \(error)")
        case let error as ExitCode:
            return Ending(status: error.rawValue)
        default:
            let code = exitCode(for: error)
            if code == .success { return Ending(status: CLIExitCode.success.rawValue, standardOutput: fullMessage(for: error)) }
            return Ending(status: code == .validationFailure ? CLIExitCode.badInput.rawValue : code.rawValue, standardError: fullMessage(for: error))
        }
    }
}

/// The exit codes of the CLI contract (docs/cli.md).
enum CLIExitCode: Int32 {
    case success = 0
    case badInput = 2
    case validationFailed = 3
    case transportFailed = 4
    case decodingFailed = 5
    /// Standard output or an output file could not be written (curl's "write error").
    case writeFailed = 23
}

/// A failure with its message and exit code, thrown by commands.
struct CLIFailure: Error {
    var message: String
    var exitCode: CLIExitCode

    /// A bad-usage failure (exit 2) whose message says which argument and what was expected.
    static func badInput(_ message: String) -> CLIFailure {
        CLIFailure(message: "error: \(message)", exitCode: .badInput)
    }

    /// An output file that could not be written (exit 23).
    static func writeFailed(_ error: FileWriteError) -> CLIFailure {
        CLIFailure(message: "error: \(error)", exitCode: .writeFailed)
    }
}
