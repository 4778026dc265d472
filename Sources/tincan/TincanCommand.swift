import ArgumentParser
import Foundation
import TincanCore

/// The `tincan` command: the TUI by default, and subcommands for headless work.
@main
struct TincanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tincan",
        abstract: "A terminal workbench for crafting, inspecting and replaying HTTP requests.",
        version: Tincan.version,
        subcommands: [TUICommand.self, SendCommand.self, ReplayCommand.self, ImportCommand.self, ExportCommand.self, ServeCommand.self, KeysCommand.self],
        defaultSubcommand: TUICommand.self
    )

    /// Runs the command and maps every failure to the exit codes of the CLI contract:
    /// 2 for bad usage or input, 3 for validation, 4 for transport, 5 for decoding, 23 for
    /// output that could not be written.
    static func main() async {
        StandardOutput.ignoreClosedPipeSignal()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CLIFailure {
            StandardError.print("tincan: \(failure.message)\n")
            Foundation.exit(failure.exitCode.rawValue)
        } catch let error as OutputError {
            failWriting(error)
        } catch let error as RequestSerializationError {
            fail(error.description, code: .badInput)
        } catch let error as RequestItemError {
            fail(error.description, code: .badInput)
        } catch let error as NumericRangeError {
            fail(error.description, code: .badInput)
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version: their text is output like any other, and checked.
                let text = fullMessage(for: error)
                do {
                    if !text.isEmpty { try StandardOutput.print(text + "\n") }
                } catch {
                    failWriting(error)
                }
                Foundation.exit(CLIExitCode.success.rawValue)
            }
            StandardError.print(fullMessage(for: error) + "\n")
            Foundation.exit(code == .validationFailure ? CLIExitCode.badInput.rawValue : code.rawValue)
        }
    }

    /// Exits 23 for output that could not be written; a closed pipe says nothing, since the
    /// reader left on purpose (`| head`) and nobody reads an explanation.
    private static func failWriting(_ error: OutputError) -> Never {
        if !error.isClosedPipe { StandardError.print("tincan: error: \(error)\n") }
        Foundation.exit(CLIExitCode.writeFailed.rawValue)
    }

    private static func fail(_ message: String, code: CLIExitCode) -> Never {
        StandardError.print("tincan: error: \(message)\n")
        Foundation.exit(code.rawValue)
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
