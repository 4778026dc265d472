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
    /// 2 for bad usage or input, 3 for validation, 4 for transport, 5 for decoding.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data("tincan: \(failure.message)\n".utf8))
            Foundation.exit(failure.exitCode.rawValue)
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
                exit(withError: error)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .validationFailure ? CLIExitCode.badInput.rawValue : code.rawValue)
        }
    }

    private static func fail(_ message: String, code: CLIExitCode) -> Never {
        FileHandle.standardError.write(Data("tincan: error: \(message)\n".utf8))
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
}

/// A failure with its message and exit code, thrown by commands.
struct CLIFailure: Error {
    var message: String
    var exitCode: CLIExitCode

    /// A bad-usage failure (exit 2) whose message says which argument and what was expected.
    static func badInput(_ message: String) -> CLIFailure {
        CLIFailure(message: "error: \(message)", exitCode: .badInput)
    }
}
