import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The first hour, as a new user walks it in tmux (issue 34): what is typed is never lost, and a
/// saved welcome works the next run, in the TUI, `replay` and `export`.
@Suite("The first hour in tmux", .serialized)
struct TUIFirstHourTests {
    /// Starts tincan (with `arguments`) under `sh`, which reports its exit; homes in `home`.
    private func start(_ arguments: String = "", home: TemporaryDirectory, in directory: String? = nil, width: Int = 120, height: Int = 40) async throws -> TmuxSession {
        let cd = directory.map { "cd '\($0)' && " } ?? ""
        let command = "sh -c '\(cd)\(BuiltProducts.tincan) --no-mouse \(arguments); echo \"EXIT=$?\"; sleep 60'"
        let environment = ["XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path]
        return try await TmuxSession(command: command, width: width, height: height, environment: environment, keeping: [home])
    }

    /// The tincan process: the child of the pane's shell.
    private func tincanProcess(_ tui: TmuxSession) async throws -> pid_t {
        let shell = try await tui.format("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
    }

    @Test("typed work survives a kill: the draft is offered back on the next start and restored")
    func typedWorkSurvivesAKill() async throws {
        let home = try TemporaryDirectory()
        let tui = try await start(home: home)
        try await tui.waitFor("No response yet")
        try await tui.send("C-a", "C-k")
        try await tui.send("anything/kept-across-a-crash", literal: true)
        try await tui.waitFor("● modified")
        // The draft is written within a second of the last key; SIGKILL gives no chance to save.
        let drafts = home.path + "/state/tincan/drafts/untitled.draft.tincan.yaml"
        try await tui.waitFor("the draft on disk") { _ in
            (try? String(contentsOfFile: drafts, encoding: .utf8))?.contains("anything/kept-across-a-crash") == true
        }
        #expect(kill(try await tincanProcess(tui), SIGKILL) == 0)
        try await tui.waitFor("EXIT=137")

        // Escape leaves the draft where it is: the next start asks again.
        let asked = try await start(home: home)
        try await asked.waitFor(all: ["Unsaved changes to welcome from", "Restore them", "Discard them"])
        try await asked.send("Escape")
        try await asked.waitFor("stay in their draft")
        try await asked.send("C-c")
        try await asked.waitFor("EXIT=0")
        #expect(FileManager.default.fileExists(atPath: drafts))

        let again = try await start(home: home)
        try await again.waitFor(all: ["Unsaved changes to welcome from", "Restore them", "Discard them"])
        try await again.send("Enter")
        try await again.waitFor(all: ["URL   anything/kept-across-a-crash", "● modified"])
        // Quitting without saving lets the draft go: the third start asks nothing.
        try await again.quitDiscardingChanges(until: "EXIT=0")
        #expect(!FileManager.default.fileExists(atPath: drafts))
    }

    @Test("a saved welcome opens, sends, replays and exports the next run, against its own demo server")
    func aSavedWelcomeWorksTheNextRun() async throws {
        let home = try TemporaryDirectory()
        let folder = try TemporaryDirectory()
        let tui = try await start(home: home, in: folder.path)
        try await tui.waitFor("No response yet")
        try await tui.send("C-a", "C-k")
        try await tui.send("anything/saved", literal: true)
        try await tui.send("F6")
        try await tui.waitFor("Save session as")
        try await tui.send("C-u")
        try await tui.send("saved", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("Saved 1 request to saved.tincan.yaml")
        try await tui.send("C-c")
        try await tui.waitFor("EXIT=0")
        let text = try String(contentsOfFile: folder.path + "/saved.tincan.yaml", encoding: .utf8)
        #expect(text.contains("base: \"{{$demo}}/\""), "\(text)")
        #expect(!text.contains("127.0.0.1"), "\(text)")

        // The next run: the file opens against a new demo server, on another port, and sends.
        let next = try await start("saved.tincan.yaml", home: home, in: folder.path)
        try await next.waitFor("saved.tincan.yaml: 1 request")
        try await next.send("C-r")
        try await next.waitFor(all: ["200 OK", "\"greeting\": \"hello\""])
        try await next.send("C-c")
        try await next.waitFor("EXIT=0")

        let replayed = try await run(BuiltProducts.tincan, ["replay", "saved.tincan.yaml"], currentDirectory: folder.path)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.contains("200"))
        let exported = try await run(BuiltProducts.tincan, ["export", "saved.tincan.yaml", "--format", "curl"], currentDirectory: folder.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("http://127.0.0.1:8080/anything/saved"), "\(exported.stdout)")
        #expect(exported.stderr.contains("tincan serve"), "\(exported.stderr)")
    }

    @Test("jump mode, shift+F2, and Esc then ctrl+c typed at once, in a real terminal")
    func movingAroundInARealTerminal() async throws {
        let home = try TemporaryDirectory()
        let tui = try await start(home: home, width: 80, height: 24)
        try await tui.waitFor("No response yet")
        // ctrl+o, then y: the Body tab, whose footer shows its keys.
        try await tui.send("C-o")
        try await tui.waitFor("key go there")
        try await tui.send("y")
        try await tui.waitFor("alt+k kind")
        // shift+F2 goes back a tab: Params, with its query fields.
        try await tui.send("S-F2")
        try await tui.waitFor("Query: none")
        // ctrl+l: the URL. An edit, then Esc and ctrl+c in one write: the ctrl+c is not swallowed.
        try await tui.send("C-l")
        try await tui.send("x", literal: true)
        try await tui.waitFor("● modified")
        try await tui.send("Escape", "C-c")
        try await tui.waitFor("Unsaved changes in welcome")
        try await tui.send("C-c")
        try await tui.waitFor("EXIT=0")
    }

    @Test("without a UTF-8 locale the boxes are ASCII; the theme ctrl+t chose is the next run's; a tiny screen's message fits")
    func anyTerminal() async throws {
        let home = try TemporaryDirectory()
        let command = "sh -c '\(BuiltProducts.tincan) --no-mouse; echo \"EXIT=$?\"; sleep 60'"
        let environment = ["XDG_CONFIG_HOME": home.path + "/config", "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
                           "HOME": home.path, "LANG": "C", "LC_ALL": ""]
        let tui = try await TmuxSession(command: command, width: 80, height: 24, environment: environment, keeping: [home])
        try await tui.waitFor("No response yet")
        let screen = try await tui.screen()
        #expect(screen.contains("+-Head|Params|Body|Auth|Prop|Chec-+"), "\(screen)")
        #expect(screen.contains("Method GET v"), "\(screen)")
        try await tui.send("C-t")
        try await tui.waitFor("theme light")
        try await tui.tmux(["resize-window", "-t", "0", "-x", "16", "-y", "2"])
        try await tui.waitFor("the short message") { $0.hasPrefix("Needs 40x12") }
        try await tui.tmux(["resize-window", "-t", "0", "-x", "80", "-y", "24"])
        try await tui.send("C-c")
        try await tui.waitFor("EXIT=0")
        #expect(try String(contentsOfFile: home.path + "/config/tincan/config.yaml", encoding: .utf8) == "theme: light\n")

        // The next run starts in the theme chosen.
        let next = try await start(home: home)
        try await next.waitFor("theme light")
        try await next.send("C-c")
        try await next.waitFor("EXIT=0")
    }
}
