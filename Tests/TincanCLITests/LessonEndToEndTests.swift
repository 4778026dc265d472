import Foundation
import Testing
import TestSupport

/// A learner in a real terminal: `tincan learn 1` in tmux, the first lesson completed by typing.
@Suite("A lesson end to end in tmux", .serialized)
struct LessonEndToEndTests {
    /// `tincan learn LESSON` in tmux, started in `work` with its state in `home`.
    private static func learnInTmux(_ lesson: String, in work: TemporaryDirectory, home: TemporaryDirectory, width: Int = 120, height: Int = 40) async throws -> TmuxSession {
        let command = "sh -c 'cd \(work.path) && \(BuiltProducts.tincan) learn \(lesson) --no-mouse; echo \"EXIT=$?\"; sleep 60'"
        return try await TmuxSession(command: command, width: width, height: height,
                                     environment: ["XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path], keeping: [home, work])
    }

    @Test("the first lesson is completed by typing: each step's goals tick, the next step unlocks, and progress is saved")
    func theFirstLessonIsCompletedByTyping() async throws {
        let home = try TemporaryDirectory()
        let work = try TemporaryDirectory()
        let tui = try await Self.learnInTmux("1", in: work, home: home, width: 100, height: 34)
        // The instructions come first; the border says the goals are below, and alt+l pages to them.
        try await tui.waitFor(all: ["Step 1 of 2", "goals below: alt+l"])
        try await tui.send("M-l")
        try await tui.waitFor(all: ["✗ The URL is the base's directory", "judged when the request is sent"])
        // The step: a relative path. The URL field has the focus and holds /users.
        try await tui.send("M-n")
        try await tui.waitFor("unlocks when every goal of step 1 passes")
        try await tui.send("C-a", "DC")
        try await tui.waitFor("✓ The URL is the base's directory")
        try await tui.send("M-t")
        try await tui.waitFor("Hint 1:")
        try await tui.send("C-r")
        try await tui.waitFor(all: ["✓ The server saw the same path", "step 2 is unlocked"])
        try await tui.send("M-n")
        try await tui.waitFor("Step 2 of 2")
        try await tui.send("C-a")
        try await tui.send("../", literal: true)
        try await tui.waitFor(all: ["every step of", "Step 2 of 2 ✓"])
        let progress = try String(contentsOfFile: home.path + "/state/tincan/lessons.json", encoding: .utf8)
        #expect(progress.contains("\"01-base-url\""), "\(progress)")
        #expect(progress.contains("\"passed\": [\n        1,\n        2\n      ]") || progress.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "").contains("\"passed\":[1,2]"), "\(progress)")
        // The learner's edits are not saved: the first ctrl+c says so, the second quits.
        try await tui.send("C-c")
        try await tui.waitFor("ctrl+c again quits without saving")
        try await tui.send("C-c")
        try await tui.waitFor("EXIT=0")
        let list = try await run(BuiltProducts.tincan, ["learn"], environment: ["LANG": "en_US.UTF-8", "XDG_STATE_HOME": home.path + "/state", "HOME": home.path])
        #expect(list.stdout.contains("✓ done"), "\(list.stdout)")
    }

    @Test("at 80x24 a step's instructions come first in the preview box, with a cue that its goals are below; alt+l swaps in the wire preview")
    func theStepFitsAnEightyByTwentyFourTerminal() async throws {
        let home = try TemporaryDirectory()
        let work = try TemporaryDirectory()
        let tui = try await Self.learnInTmux("1", in: work, home: home, width: 80, height: 24)
        // The narrow border says where the notes stand and that the goals are below; the status
        // line names the key.
        try await tui.waitFor(all: ["Step 1 of 2 · The base URL", "1-9/38 goals below: ctrl+o n, pgdn", "alt+l notes"])
        // alt+l swaps the notes for the wire preview in the one box a narrow screen has.
        try await tui.send("M-l")
        try await tui.waitFor("GET /users HTTP/1.1")
        // Nothing was edited: one ctrl+c quits.
        try await tui.send("C-c")
        try await tui.waitFor("EXIT=0")
    }

    @Test("a saved copy whose goals were edited opens with the lesson's own goals, and says so")
    func editedGoalsAreNotUsed() async throws {
        let home = try TemporaryDirectory()
        let work = try TemporaryDirectory()
        let lessons = (examplesDirectory as NSString).appendingPathComponent("lessons")
        let shipped = try String(contentsOfFile: lessons + "/13-redirects.tincan.yaml", encoding: .utf8)
        // The learner made step 1 pass as shipped: its goal now asks for the three hops followed.
        let easier = shipped.replacingOccurrences(of: "          status: 302\n          redirects: 0\n", with: "          status: 200\n          redirects: 3\n")
        #expect(easier != shipped)
        _ = try work.write("13-redirects.tincan.yaml", Array(easier.utf8))
        let tui = try await Self.learnInTmux("13", in: work, home: home)
        try await tui.waitFor(all: ["goals differ from lesson 13-redirects's (step 1's goals)", "Step 1 of 3"])
        try await tui.send("C-r")
        try await tui.waitFor("✗ The 302 itself came back, unfollowed")
        try await tui.quitDiscardingChanges(until: "EXIT=0")
        let progress = (try? String(contentsOfFile: home.path + "/state/tincan/lessons.json", encoding: .utf8)) ?? ""
        #expect(!progress.contains("13-redirects"), "edited goals never count: \(progress)")
    }

    @Test("reopened at step 2, the cookies lesson sends step 1 again, so the jar holds its cookie and step 3 passes")
    func aRestartRebuildsWhatEarlierStepsLeft() async throws {
        let home = try TemporaryDirectory()
        let work = try TemporaryDirectory()
        let lessons = (examplesDirectory as NSString).appendingPathComponent("lessons")
        // Step 1 passed and saved in an earlier run; the jar it filled is gone with that run.
        _ = try work.write("07-cookies.tincan.yaml", Array(try String(contentsOfFile: lessons + "/solutions/07-cookies.tincan.yaml", encoding: .utf8).utf8))
        try FileManager.default.createDirectory(atPath: home.path + "/state/tincan", withIntermediateDirectories: true)
        _ = try home.write("state/tincan/lessons.json", Array(#"{"lessons": {"07-cookies": {"steps": 3, "passed": [1]}}}"#.utf8))
        let tui = try await Self.learnInTmux("7", in: work, home: home)
        try await tui.waitFor(all: ["Step 1 sent again, so what they left (captures, cookies, cache) is back", "Step 2 of 3"])
        try await tui.send("M-j")
        // The jar's list comes back from the runner later; step 2's notes already say "flavour".
        try await tui.waitFor(all: ["Cookie jar: 1 cookie", "flavour=••••"])
        try await tui.send("Escape")
        try await tui.send("C-r")
        try await tui.waitFor("Step 2 of 3 ✓")
        try await tui.send("M-n")
        try await tui.waitFor("Step 3 of 3")
        try await tui.send("C-r")
        try await tui.waitFor(all: ["✓ The jar still sends flavour", "Lesson done"])
        try await tui.quitDiscardingChanges(until: "EXIT=0")
    }

    @Test("a goal on what the server received passes in the TUI once the demo server says what it got: lesson 6's revalidation")
    func aReceivedGoalIsJudgedInTheTUI() async throws {
        let home = try TemporaryDirectory()
        let work = try TemporaryDirectory()
        let lessons = (examplesDirectory as NSString).appendingPathComponent("lessons")
        _ = try work.write("06-cache-revalidation.tincan.yaml", Array(try String(contentsOfFile: lessons + "/solutions/06-cache-revalidation.tincan.yaml", encoding: .utf8).utf8))
        let tui = try await Self.learnInTmux("6", in: work, home: home)
        try await tui.waitFor("Step 1 of 3")
        try await tui.send("C-r")
        try await tui.waitFor("Step 1 of 3 ✓")
        try await tui.send("M-n")
        try await tui.waitFor("Step 2 of 3")
        try await tui.send("C-r")
        try await tui.waitFor("Step 2 of 3 ✓")
        try await tui.send("M-n")
        try await tui.waitFor("Step 3 of 3")
        try await tui.send("C-r")
        // The request as built has no If-None-Match; the server received the one the cache added.
        try await tui.waitFor(all: ["Step 3 of 3 ✓", "Lesson done"])
        try await tui.send("M-l")
        try await tui.waitFor(all: ["✓ You did not write the validator yourself", "✓ The server received step 1's ETag"])
        try await tui.quitDiscardingChanges(until: "EXIT=0")
    }
}
