import ArgumentParser
import CursesBackend
import Foundation
import Glibc
import TerminalUI
import TincanCore
import TincanDemoServer
import TincanTUI

/// `tincan` with no subcommand: the TUI, with a welcome request to an in-process demo server.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the TUI (the default): a ready request to an embedded demo server on loopback."
    )

    @Option(help: "A theme name (dark, light, high-contrast, nord, dracula, or one in ~/.config/tincan/themes) or a theme file.")
    var theme: String?

    @Option(help: "A keymap file whose entries replace the built-in keys of the actions they name.")
    var keymap: String?

    @Flag(help: "Do not capture the mouse (keeps the terminal's own text selection).")
    var noMouse = false

    @Flag(help: ArgumentHelp("Print a marker line to standard error after the first frame (for benchmarks).", visibility: .hidden))
    var firstPaintMarker = false

    func run() async throws {
        var settings = TUISettings.load(themeOption: theme, keymapOption: keymap)
        if noMouse { settings.mouse = false }

        // The welcome request's server: in-process, loopback only, a free port.
        let server: DemoServer
        do {
            server = try await DemoServer.start(port: 0)
        } catch {
            throw CLIFailure(message: "error: the embedded demo server could not start: \(error)", exitCode: .transportFailed)
        }
        var state = AppState.welcome(baseURL: server.baseURL + "/", themes: settings.themes, keymap: settings.keymap, boundary: "tincan-\(UInt64.random(in: 0...UInt64.max))")
        state.theme = settings.theme
        if !settings.problems.isEmpty {
            state.modal = .message(Dialog(title: "Settings not used", lines: settings.problems.map { [Span($0)] }, hint: "esc close"))
        }
        let manager = URLSessionManager(http: try HTTPSessionManager())
        let mouse = settings.mouse
        let marker = firstPaintMarker
        let initial = state

        let status = try await Self.runOnUIThread {
            let terminal = try CursesTerminal(mouse: mouse)
            let runner = AppRunner(terminal: terminal, manager: manager)
            _ = runner.run(initial) {
                if marker { FileHandle.standardError.write(Data("tincan: first paint\n".utf8)) }
            }
            terminal.stop()
            return terminal.stopSignal == 0 ? 0 : 128 + terminal.stopSignal
        }
        try? await manager.invalidate(cancelingTasks: true)
        await server.stop()
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the blocking UI loop on a thread of its own: it must not occupy one of the
    /// cooperative pool's threads, which the core and the demo server need.
    private static func runOnUIThread(_ body: @escaping @Sendable () throws -> Int32) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(returning: try body())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "tincan-ui"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}

/// `tincan keys`: the key reference as Markdown (what docs/keys.md holds).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Print every key binding as Markdown (docs/keys.md), with your keymap file applied."
    )

    @Option(help: "A keymap file to apply.")
    var keymap: String?

    func run() throws {
        var keys = Keymap(KeyBindings.table)
        if let keymap {
            do {
                keys = try TUISettings.loadKeymap(path: keymap)
            } catch {
                throw CLIFailure.badInput("\(error)")
            }
        }
        FileHandle.standardOutput.write(Data(KeyBindings.markdown(keys).utf8))
    }
}
