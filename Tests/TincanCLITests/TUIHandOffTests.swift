import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The TUI hands the terminal to `$PAGER` and `$EDITOR` and takes it back (issue 34 §1): the real
/// `less` and `vi` in tmux, with Tincan started from an interactive bash (job control) and directly
/// as the pane's program (no shell: an orphaned process group if the hand-off left Tincan's).
@Suite("Hand-offs to less and vi in tmux", .serialized)
struct TUIHandOffTests {
    /// How Tincan is started in the pane.
    enum Start: CaseIterable, CustomStringConvertible {
        case fromInteractiveBash, directly
        var description: String { self == .fromInteractiveBash ? "from an interactive bash" : "directly" }
    }

    private func start(_ how: Start) async throws -> (TmuxSession, TemporaryDirectory) {
        let home = try TemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
                           "HOME": home.path, "PAGER": "less", "EDITOR": "vi", "VISUAL": "", "LESS": "", "PS1": "PROMPT$ "]
        let tincan = "\(BuiltProducts.tincan) --no-mouse"
        let session: TmuxSession
        switch how {
        case .fromInteractiveBash:
            session = try await TmuxSession(command: "bash --norc --noprofile -i", environment: environment, keeping: [home])
            try await session.waitFor("PROMPT$")
            try await session.send(tincan, literal: true)
            try await session.send("Enter")
        case .directly:
            session = try await TmuxSession(command: tincan, environment: environment, keeping: [home])
        }
        try await session.waitFor("No response yet")
        return (session, home)
    }

    /// The foreground process group of the pane's terminal, and each process on it by name.
    private func processes(_ tui: TmuxSession) async throws -> (foreground: Int32, states: [String: (group: Int32, state: Character)]) {
        let tty = try await tui.format("#{pane_tty}")
        let listing = try await run("/bin/ps", ["-t", tty, "-o", "pgid=,tpgid=,stat=,comm="])
        var foreground: Int32 = -1
        var states: [String: (Int32, Character)] = [:]
        for line in listing.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4, let group = Int32(fields[0]), let terminalGroup = Int32(fields[1]) else { continue }
            foreground = terminalGroup
            states[String(fields[3])] = (group, fields[2].first ?? "?")
        }
        return (foreground, states)
    }

    /// Sends, and focuses the response box (its footer shows the body's keys).
    private func sendAndFocusTheResponse(_ tui: TmuxSession) async throws {
        try await tui.send("C-r")
        try await tui.waitFor(all: ["200 OK", "\"greeting\": \"hello\""])
        try await tui.press("Tab", until: "y path")
    }

    @Test("less and vi get the terminal and give it back", arguments: Start.allCases)
    func lessAndViGetTheTerminalAndGiveItBack(_ how: Start) async throws {
        let (tui, _) = try await start(how)
        try await sendAndFocusTheResponse(tui)

        // p: less shows the body, in the terminal's foreground process group.
        try await tui.send("p")
        try await tui.waitFor(all: ["\"args\": {", "(END)"])
        let paging = try await processes(tui)
        let less = try #require(paging.states["less"])
        #expect(less.group == paging.foreground, "less is not in the foreground process group")
        #expect(less.state != "T", "less is stopped")
        // ctrl+c is less's: it neither ends less nor Tincan.
        try await tui.send("C-c")
        try await tui.send("g")
        try await tui.waitFor("\"args\": {")
        try await tui.send("q")
        try await tui.waitFor("Back from less.")
        #expect(try await tui.format("#{alternate_on}") == "1")

        // e: vi edits a copy of the body; :q gives the terminal back.
        try await tui.send("e")
        try await tui.waitFor(".json\"")
        let editing = try await processes(tui)
        let vi = try #require(editing.states.first { $0.key.hasPrefix("vi") }?.value)
        #expect(vi.group == editing.foreground, "vi is not in the foreground process group")
        try await tui.send("Escape")
        try await tui.send(":q", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("Back from vi.")

        // Tincan still takes keys and quits cleanly.
        try await tui.send("C-c")
        try await tui.waitFor("the shell, or the pane's end") { screen in
            how == .fromInteractiveBash ? screen.contains("PROMPT$") && !screen.contains("ctrl+r send") : !screen.contains("ctrl+r send")
        }
    }

    @Test func ctrlZInThePagerStopsTheJobAndFgBringsBothBack() async throws {
        let (tui, _) = try await start(.fromInteractiveBash)
        try await sendAndFocusTheResponse(tui)
        try await tui.send("p")
        try await tui.waitFor("(END)")
        try await tui.send("C-z")
        do { try await tui.waitFor("Stopped") } catch {
            // What each process was doing, and which screen was shown, tell the races apart.
            let tty = try await tui.format("#{pane_tty}")
            let listing = try await run("/bin/ps", ["-t", tty, "-o", "pid,pgid,tpgid,stat,wchan:20,comm"])
            Issue.record("processes:\n\(listing.stdout)alternate screen: \(try await tui.format("#{alternate_on}"))")
            throw error
        }
        let stopped = try await processes(tui)
        #expect(stopped.states["less"]?.state == "T")
        #expect(stopped.states["tincan"]?.state == "T")
        #expect(stopped.states["bash"]?.group == stopped.foreground, "the shell did not get the terminal back")
        try await tui.send("fg", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("(END)")
        try await tui.send("q")
        try await tui.waitFor("Back from less.")
        try await tui.send("C-c")
        try await tui.waitFor("PROMPT$")
    }
}
