import ArgumentParser
import CursesBackend
import Foundation
import Glibc
import TerminalUI
import TincanCore
import TincanDemoServer
import TincanSessions
import TincanTUI

/// How the TUI looks and what it records: the options `tincan open` and `tincan learn` share.
struct TUIOptions: ParsableArguments {
    @Flag(name: .customLong("no-history"), help: "Do not record sends in the history file for this run.")
    var noHistory = false

    @Option(help: "A theme name (dark, light, high-contrast, nord, dracula, or one in ~/.config/tincan/themes) or a theme file.")
    var theme: String?

    @Option(help: "A keymap file whose entries replace the built-in keys of the actions they name.")
    var keymap: String?

    @Flag(help: "Do not capture the mouse (keeps the terminal's own text selection).")
    var noMouse = false

}

/// `tincan [FILE]` with no subcommand: the TUI, on a session file or on a welcome request to an
/// in-process demo server.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the TUI (the default): a session file, or a ready request to an embedded demo server on loopback.",
        discussion: "With FILE, its requests are listed in the collection pane and saves go back to it. A FILE that does not exist yet is created on the first save."
    )

    @Argument(help: "A session file (.tincan.yaml) to open.")
    var file: String?

    @Option(help: "The environment of the session whose variables apply (switch later with alt+e).")
    var env: String?

    @Option(name: .customLong("var"), help: "Set a variable, over the file's and the environment's (name=value; repeatable; never saved).")
    var variables: [String] = []

    @Flag(help: "Set the variable server to the embedded demo server's URL, so the examples run offline.")
    var demo = false

    @OptionGroup var display: TUIOptions

    @Flag(help: ArgumentHelp("Print a marker line to standard error after the first frame (for benchmarks).", visibility: .hidden))
    var firstPaintMarker = false

    func run() async throws {
        try await open(lesson: nil)
    }

    /// Opens a lesson (`tincan learn LESSON`): the TUI on the lesson's file, with the lesson's
    /// demo servers in the variables and the learner's progress.
    static func openLesson(_ lesson: LessonSource, display: TUIOptions, classroom: ClassroomReporter? = nil) async throws {
        defer { lesson.removeFiles() }
        // Decoded as the parser decodes every command, then given the display options `learn` read.
        var command = try TUICommand.parse(["--", lesson.path])
        command.display = display
        try await command.open(lesson: lesson, classroom: classroom)
    }

    func open(lesson: LessonSource?, classroom: ClassroomReporter? = nil) async throws {
        var settings = TUISettings.load(themeOption: display.theme, keymapOption: display.keymap)
        if display.noMouse { settings.mouse = false }
        // A file that cannot be opened is reported before the screen is taken.
        var workspace: Workspace?
        var fileExists = false
        if let lesson {
            fileExists = lesson.fileExists
            workspace = Workspace(session: lesson.session, path: lesson.path)
        } else if let file {
            fileExists = FileManager.default.fileExists(atPath: file)
            if fileExists {
                do {
                    workspace = Workspace(session: try Session.load(path: file), path: file)
                } catch {
                    throw CLIFailure.badInput("\(error)")
                }
                // What a trust answer is remembered for (AppState+Trust).
                workspace?.digest = try? FileDigest.sha256(ofFile: file)
            } else {
                workspace = Workspace(session: Session(), path: file)
            }
            workspace?.environment = env
            workspace?.overrides = try parseVariables(variables)
            do {
                _ = try workspace?.template()
            } catch {
                throw CLIFailure.badInput("\(file): \(error)")
            }
        } else if env != nil {
            throw CLIFailure.badInput("--env names an environment of a session file; give the file too")
        }
        // A file read (a session, or a lesson someone else wrote) says which files outside its
        // folder it reads or writes, in the status line once the screen is up (AppState.settleTrust).
        if fileExists, let opened = workspace, let path = opened.path, let template = try? opened.template() {
            workspace?.filesOutside = opened.session.filesOutsideFolder(of: path, template: template)
        }
        // The opened session's cookie file (issue 18 §6): read before anything starts, so a
        // malformed line is exit 2 naming it (and the file is kept), and saved when the TUI ends.
        let cookieFile = workspace.flatMap { opened in
            opened.path.flatMap { opened.session.cookieFilePath(in: Session.directory(of: $0)) }
        }
        do {
            // Checked here, before anything starts, so a malformed file is exit 2 and kept.
            _ = try cookieFile.map { try CookieFile.load(from: $0) }
        } catch {
            throw CLIFailure.badInput("\(file ?? ""): cookies: \(error)")
        }
        let historyStore = settings.history && !display.noHistory ? HistoryStore(path: HistoryStore.defaultPath(), keepsSecrets: settings.historySecrets) : nil
        let commandStore = historyStore == nil ? nil : CommandHistoryStore(path: CommandHistoryStore.defaultPath())
        let loadedHistory = historyStore?.load()
        settings.problems += loadedHistory?.problems ?? []

        // The welcome request's server: in-process, loopback only, a free port. A lesson, or a
        // session that names `{{$demo-tls}}` or a demo certificate, has the TLS one too.
        let servers: DemoServers
        do {
            servers = try await DemoServers.start(tls: lesson != nil || workspace?.session.demoUse == .withTLS)
        } catch {
            throw CLIFailure(message: "error: the embedded demo server could not start: \(error)", exitCode: .transportFailed)
        }
        let server = servers.plain
        // Whatever stops the run from here (no terminal, a cookie file, a failed start), the
        // servers stop and their certificate folder goes with them.
        func stopServers() async {
            await servers.stop()
        }
        let managers: ManagerPool
        let status: Int32
        do {
            var lessonContext: LessonContext?
            if let lesson {
                for (name, value) in servers.lessonVariables.merging(lesson.variables, uniquingKeysWith: { $1 }) where workspace?.overrides[name] == nil {
                    workspace?.overrides[name] = value
                }
                let progressPath = LessonProgress.defaultPath()
                var context = LessonContext(key: LessonProgress.key(builtinName: lesson.builtinName, path: lesson.path), progressPath: progressPath)
                context.notice = lesson.goalsNotice
                context.shipped = lesson.shipped
                context.nextLesson = lesson.builtinName.flatMap(BuiltinLessons.next(after:))
                do {
                    context.progress = try LessonProgress.load(path: progressPath)
                } catch {
                    context.progressProblem = error.description
                }
                lessonContext = context
            }
            var startup = Startup(
                demoServerURL: server.baseURL, settings: settings, workspace: workspace, fileExists: fileExists, demo: demo || lesson != nil,
                history: loadedHistory?.entries ?? [], recordsHistory: historyStore != nil, commandHistory: commandStore?.load() ?? [],
                boundary: "tincan-\(UInt64.random(in: 0...UInt64.max))")
            startup.lesson = lessonContext
            startup.demoAddresses = servers.addresses
            let drafts = DraftStore(folder: DraftStore.defaultFolder())
            startup.draft = drafts.read(for: workspace?.path)
            // The answers about files that weaken TLS trust; a file that does not read is kept, and no answer is remembered this run.
            let trustPath = SessionTrust.defaultPath()
            do {
                startup.trust = try SessionTrust.load(path: trustPath)
                startup.trustPath = trustPath
            } catch {
                startup.settings.problems.append(error.description)
            }
            let initial = AppState(startup)
            managers = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
            if let cookieFile {
                do {
                    try managers.loadCookies(from: cookieFile)
                } catch {
                    throw CLIFailure.badInput("\(file ?? ""): cookies: \(error)")
                }
            }
            let mouse = settings.mouse
            let marker = firstPaintMarker

            // Each step passed goes to the teacher too, when the learner asked (learn --classroom).
            let observer: (@Sendable (LessonProgress.Entry, String) async -> String?)? = if let classroom {
                { entry, key in await classroom.report(entry, key: key) }
            } else {
                nil
            }
            status = try await Self.runOnUIThread {
                let terminal = try CursesTerminal(mouse: mouse)
                let runner = AppRunner(terminal: terminal, managers: managers, history: historyStore, commands: commandStore, drafts: drafts,
                                       configPath: (TUISettings.configDirectory() as NSString).appendingPathComponent("config.yaml"),
                                       lessonProgressObserver: observer)
                _ = runner.run(initial) {
                    if marker { StandardError.print("tincan: first paint\n") }
                }
                terminal.stop()
                return terminal.stopSignal == 0 ? 0 : 128 + terminal.stopSignal
            }
        } catch {
            await stopServers()
            throw error
        }
        await managers.invalidateAll()
        await stopServers()
        do {
            // The jar of the session open at the end (the runner saved any opened before it).
            try managers.saveCookies()
        } catch {
            throw CLIFailure.writeFailed(error)
        }
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
        try StandardOutput.print(KeyBindings.markdown(keys))
    }
}
