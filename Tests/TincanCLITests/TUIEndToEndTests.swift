import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The real `tincan` binary in tmux (a private socket, TERM=tmux-256color), driven with
/// send-keys and read with capture-pane: the user's whole path through the TUI.
@Suite("TUI end to end in tmux", .serialized)
struct TUIEndToEndTests {
    private func start(width: Int = 120, height: Int = 40) async throws -> (TmuxSession, TemporaryDirectory) {
        let config = try TemporaryDirectory()
        // The shell reports how tincan exited and whether the terminal is back in cooked mode,
        // in one write, so a capture that shows "EXIT=" shows the modes too.
        let command = "sh -c '\(BuiltProducts.tincan) --no-mouse; code=$?; modes=$(stty -a | tr \" \" \"\\n\" | grep -x -e icanon -e echo | tr \"\\n\" \" \"); echo \"EXIT=$code $modes\"; sleep 60'"
        let session = try await TmuxSession(command: command, width: width, height: height, environment: ["XDG_CONFIG_HOME": config.path, "XDG_DATA_HOME": config.path + "/data", "HOME": config.path], keeping: [config])
        try await session.waitFor("No response yet")
        return (session, config)
    }

    /// The tincan process: the child of the pane's shell.
    private func tincanProcess(_ tui: TmuxSession) async throws -> pid_t {
        let shell = try await tui.format("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        guard let pid = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
            throw TmuxError(message: "the pane's shell \(shell) has no child")
        }
        return pid
    }

    @Test func buildsSendsWatchesProgressSeesErrorsResizesSwitchesThemesAndQuitsCleanly() async throws {
        let (tui, _) = try await start()

        // Set the URL (the URL field has focus at start).
        try await tui.send("C-a", "C-k")
        try await tui.send("anything/items", literal: true)

        // Add a header: the request box is next in the focus order; F2 walks its tabs to Headers
        // (however many tabs come after Params).
        try await tui.send("Tab")
        try await tui.press("F2", until: "[x] Accept: application/json")
        try await tui.send("a")
        try await tui.waitFor("Add header")
        try await tui.send("X-Workshop: e2e", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("[x] X-Workshop: e2e")

        // Nested parameters: an object "user" holding name=Ada.
        try await tui.send("F2")
        try await tui.waitFor("parameters: {3}")
        try await tui.send("Home", "a")
        try await tui.send("user", literal: true)
        try await tui.send("Enter")
        // The type is chosen at once: string, number, bool, null, array, object.
        try await tui.waitFor("Type of user")
        try await tui.send("Down", "Down", "Down", "Down", "Down", "Enter")
        try await tui.waitFor("user: {0}")
        try await tui.send("a")
        try await tui.send("name", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("Type of name")
        try await tui.send("Enter")
        try await tui.waitFor("Value of name")
        try await tui.send("Ada", literal: true)
        try await tui.send("Enter")

        // The preview shows the request as it will go on the wire.
        try await tui.waitFor(all: ["GET /anything/items?greeting=hello", "X-Workshop: e2e"])

        // Send it: 200 and the decoded JSON echo of the nested query and the header.
        try await tui.send("C-r")
        try await tui.waitFor(all: ["200 OK", "✓ valid"])
        try await tui.waitFor("\"user[name]\": \"Ada\"")
        try await tui.send("Tab", "Tab", "PageDown")
        try await tui.waitFor("\"X-Workshop\": \"e2e\"")

        // /drip: the download bar moves while the body trickles in (the query fields are
        // between the tree and the URL). Four seconds of it: the test process, busy with other
        // suites, may not look at the screen for a second or more.
        try await tui.send("BTab", "BTab", "BTab", "BTab")
        try await tui.send("C-a", "C-k")
        try await tui.send("drip?duration=4&numbytes=60", literal: true)
        try await tui.send("C-r")
        func downloadLine(_ screen: String) -> String {
            screen.split(separator: "\n").first { $0.contains("↓ download") }.map(String.init) ?? ""
        }
        let early = try await tui.waitFor("a partly filled download bar") { $0.contains("↓ download") && $0.contains("60 B") && !$0.contains("done") }
        // The bar moves on the task's progress events: wait for the next one to be drawn.
        try await tui.waitFor("the download bar to move") { downloadLine($0) != downloadLine(early) }
        try await tui.waitFor("done", timeout: 10)

        // /status/404: the validation error and its status.
        try await tui.send("C-a", "C-k")
        try await tui.send("status/404", literal: true)
        try await tui.send("C-r")
        try await tui.waitFor(all: ["✗ Request failed: not found (404)", "404 Not Found"])

        // Resize: the layout follows the window.
        try await tui.tmux(["resize-window", "-t", "0", "-x", "90", "-y", "28"])
        try await tui.waitFor("a 90-column layout with the response tabs") { screen in
            let lines = screen.split(separator: "\n")
            return lines.count <= 28 && lines.contains { $0.hasPrefix("╰") && $0.hasSuffix("╯") && $0.count == 90 } && screen.contains("Pretty │ Raw")
        }

        // Switch themes.
        try await tui.send("C-t")
        try await tui.waitFor("theme light")
        try await tui.send("C-t")
        try await tui.waitFor("theme high-contrast")

        // Quit: the welcome request was edited, so Tincan asks first (issue 34 §2); ctrl+c again
        // quits without saving: exit status 0, the alternate screen left, cooked mode back.
        try await tui.send("C-c")
        try await tui.waitFor(all: ["Unsaved changes in welcome", "Save as a file, then quit…", "Quit without saving"])
        try await tui.send("C-c")
        let after = try await tui.waitFor("EXIT=")
        #expect(after.contains("EXIT=0"))
        #expect(after.contains("icanon echo"))
        #expect(try await tui.format("#{alternate_on}") == "0")
    }

    @Test func basicAuthSetInTheAuthTabPassesTheDemoServersCheck() async throws {
        let (tui, _) = try await start()
        try await tui.send("C-a", "C-k")
        try await tui.send("basic-auth/ada/s3cret", literal: true)
        // Params, Body, Auth: the Auth tab takes the focus.
        try await tui.send("F2", "F2")
        try await tui.waitFor("type        none")
        try await tui.send("Enter")
        try await tui.waitFor("Authentication")
        try await tui.send("Down", "Enter")
        // Each field is edited in its own row, which the status line names.
        try await tui.waitFor("Editing the user name")
        try await tui.send("ada", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("Editing the password")
        try await tui.send("s3cret", literal: true)
        try await tui.send("Enter")
        // The password is dots on the tab, and the header it makes is dots in the preview.
        try await tui.waitFor(all: ["password    ••••••••", "Authorization: Basic ••••••"])
        try await tui.send("C-r")
        try await tui.waitFor(all: ["200 OK", "\"authenticated\": true", "\"user\": \"ada\""])
        try await tui.quitDiscardingChanges(until: "EXIT=")
        try await tui.waitFor("EXIT=0")
    }

    @Test func aRawXMLBodyTypedInTheBodyTabIsSentAndEchoed() async throws {
        let (tui, _) = try await start()
        try await tui.send("C-a", "C-k")
        try await tui.send("anything/xml", literal: true)
        // Empty the tree (its three parameters), so the body starts empty.
        try await tui.send("Tab", "Tab", "Down", "d", "d", "d")
        try await tui.waitFor("parameters: {0}")
        try await tui.send("F2", "M-k")
        try await tui.waitFor("text: XML, plain text")
        try await tui.send("Down", "Enter")
        try await tui.waitFor("Content-Type of the text")
        try await tui.send("C-a", "C-k")
        try await tui.send("application/xml", literal: true)
        try await tui.send("Enter")
        try await tui.send("<note>hi</note>", literal: true)
        try await tui.waitFor("application/xml · alt+k kind")
        // POST it: the method picker is four fields back from the body.
        try await tui.send("BTab", "BTab", "BTab", "BTab", "Enter", "Down", "Down", "Enter")
        try await tui.waitFor("POST /anything/xml HTTP/1.1")
        try await tui.send("C-r")
        try await tui.waitFor(all: ["200 OK", "\"data\": \"<note>hi</note>\""])
        try await tui.quitDiscardingChanges(until: "EXIT=")
        try await tui.waitFor("EXIT=0")
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let (tui, _) = try await start(width: 80, height: 24)
        let pid = try await tincanProcess(tui)
        #expect(kill(pid, SIGTERM) == 0)
        let after = try await tui.waitFor("EXIT=")
        #expect(after.contains("EXIT=143"))
        #expect(after.contains("icanon echo"))
        #expect(try await tui.format("#{alternate_on}") == "0")
    }

    @Test func bracketedPasteIsTextAndCtrlZSuspendsAndResumesWithARepaint() async throws {
        let (tui, _) = try await start(width: 100, height: 30)
        // A paste goes into the URL field as text, keys and all ("?" would open help in a list).
        try await tui.send("C-a", "C-k")
        try await tui.tmux(["set-buffer", "anything/pasted?x=1"])
        try await tui.tmux(["paste-buffer", "-p", "-t", "0"])
        try await tui.waitFor("GET /anything/pasted?x=1&greeting=hello")

        // Three rounds of ctrl+z and fg. The stop must reach the thread that gave the terminal
        // back before it takes it again: with kill(getpid()) another thread took the signal, and
        // about one round in six went back to the alternate screen before stopping.
        for round in 1...3 {
            try await tui.send("C-z")
            var given = false
            for _ in 0..<100 where !given {
                given = try await tui.format("#{alternate_on}") == "0"
                if !given { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(given, "ctrl+z did not leave the alternate screen (round \(round))")
            let pid = try await tincanProcess(tui)
            let state = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8).split(separator: " ")[2]
            #expect(state == "T", "the process is not stopped (round \(round))")
            #expect(try await tui.format("#{alternate_on}") == "0", "stopped on the alternate screen (round \(round))")
            #expect(kill(pid, SIGCONT) == 0)
            try await tui.waitFor(all: ["GET /anything/pasted?x=1&greeting=hello", "Preview"])
            #expect(try await tui.format("#{alternate_on}") == "1")
        }
        try await tui.quitDiscardingChanges(until: "EXIT=")
        try await tui.waitFor("EXIT=0")
    }

    /// A workshop example opened as a session: send with its checks and captures, the collection,
    /// copy as curl into tmux's clipboard, save-as over a commented file, the history file.
    @Test func opensASessionSendsWithCapturesCopiesAsCurlAndSavesAsANewFile() async throws {
        let home = try TemporaryDirectory()
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")
        let original = try String(contentsOf: examples.appendingPathComponent("chaining.tincan.yaml"), encoding: .utf8)
        let file = try home.write("chaining.tincan.yaml", Array(original.utf8))
        let command = "sh -c '\(BuiltProducts.tincan) --no-mouse --demo \(file); echo EXIT=$?; sleep 60'"
        let tui = try await TmuxSession(command: command, width: 120, height: 40,
                                        environment: ["XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "HOME": home.path], keeping: [home])
        try await tui.tmux(["set-option", "-s", "set-clipboard", "on"])
        try await tui.waitFor("Requests (6)")
        try await tui.waitFor("▸GET    Read the slideshow")

        // The first request: its assertions are checked and its captures kept.
        try await tui.send("C-r")
        try await tui.waitFor("checks passed · captured author, slides, first_title")

        // The collection has the focus: the next request resolves with the captured values.
        try await tui.send("Down", "Enter")
        try await tui.waitFor(#""speaker":"Yours Truly""#)

        // Copy as curl: shown, and in tmux's buffer through OSC 52.
        try await tui.send("M-c")
        try await tui.waitFor("Copied as curl")
        var copied = ""
        for _ in 0..<50 where !copied.contains("anything/talks") {
            copied = (try? await tui.tmux(["show-buffer"])) ?? ""
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(copied.hasPrefix("curl"))
        #expect(copied.contains("/anything/talks"))
        #expect(copied.contains("Yours Truly"))
        // Escape alone: followed at once by another key, ncurses would read alt+key.
        try await tui.send("Escape")
        try await tui.waitFor("the curl dialog to close") { !$0.contains("Copied as curl (OSC") }

        // Edit the URL (collection, method, serializer, base, URL) and save: the file has comments.
        try await tui.send("Tab", "Tab", "Tab", "Tab", "End")
        try await tui.send("/x", literal: true)
        try await tui.waitFor("● modified")
        try await tui.send("F6")
        try await tui.waitFor("has comments")
        try await tui.send("Enter")
        try await tui.waitFor("Save session as")
        try await tui.send("Enter")
        try await tui.waitFor("Saved 6 requests to")
        let copy = home.path + "/chaining-copy.tincan.yaml"
        let saved = try String(contentsOfFile: copy, encoding: .utf8)
        #expect(saved.contains("url: anything/talks/x"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == original)

        // The history has the send, and so has the history file.
        try await tui.send("M-h")
        try await tui.waitFor("History (1)")
        try await tui.send("Escape")
        try await tui.waitFor("the history to close") { !$0.contains("History (1)") }
        try await tui.quitDiscardingChanges(until: "EXIT=")
        try await tui.waitFor("EXIT=0")
        let history = try String(contentsOfFile: home.path + "/data/tincan/history.jsonl", encoding: .utf8)
        #expect(history.split(separator: "\n").count == 1)
        #expect(history.contains(#""url":"json""#))
    }

    /// The command line builds and sends a request, keeps its history across runs, and completes.
    @Test func theCommandLineBuildsAndSendsARequest() async throws {
        let (tui, home) = try await start()
        try await tui.send("M-x")
        try await tui.waitFor("enter run")
        try await tui.send("get anything page==2 q=='two words'", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("URL   anything?page=2&q=two%20words")
        try await tui.send("M-x")
        try await tui.send("header X-Repl: yes", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("X-Repl: yes")
        // A bad line stays, with what was expected under it.
        try await tui.send("M-x")
        try await tui.send("serializer yaml", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("✗ 'yaml' is not a serializer; expected one of: form, json, plist, multipart")
        try await tui.send("C-u")
        // Tab completes the command word.
        try await tui.send("se", literal: true)
        try await tui.send("Tab")
        try await tui.waitFor("the completions") { $0.contains("set  serializer  send") }
        try await tui.send("n", literal: true)
        try await tui.send("Tab")
        try await tui.waitFor("the completed command") { $0.contains(":send\n") }
        try await tui.send("Enter")
        // The demo server echoes the query (the header is in the preview, checked above).
        // The get line is the whole request: the welcome's parameters are gone (issue 34 §8).
        try await tui.waitFor(all: ["200 OK in", "GET /anything?page=2&q=two%20words HTTP/1.1", #""q": "two words""#])
        try await tui.quitDiscardingChanges(until: "EXIT=")
        try await tui.waitFor("EXIT=")
        let commands = try String(contentsOfFile: home.path + "/data/tincan/commands", encoding: .utf8)
        #expect(commands == "get anything page==2 q=='two words'\nheader X-Repl: yes\nserializer yaml\nsend\n")
    }
}
