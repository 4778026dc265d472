import Foundation
import Testing
import TestSupport

/// The Checks tab in the real binary, in tmux: an assertion added, seen to fail with its reason,
/// edited, and seen to pass.
@Suite("TUI checks end to end in tmux", .serialized)
struct TUIChecksEndToEndTests {
    @Test func anAssertionFailsWithItsReasonThenPassesOnceEdited() async throws {
        let config = try TemporaryDirectory()
        let command = "sh -c '\(BuiltProducts.tincan) --no-mouse; echo EXIT=$?; sleep 60'"
        let tui = try await TmuxSession(command: command, width: 120, height: 40,
                                        environment: ["XDG_CONFIG_HOME": config.path, "XDG_DATA_HOME": config.path + "/data", "HOME": config.path], keeping: [config])
        try await tui.waitFor("No response yet")

        // The request box follows the URL field; F2 walks its tabs to Checks.
        try await tui.send("Tab")
        try await tui.press("F2", until: "No assertions or captures")

        try await tui.send("a")
        try await tui.waitFor("Add assertion")
        try await tui.send("body $.args.greeting equals bye", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("· body $.args.greeting equals bye")

        try await tui.send("C-r")
        try await tui.waitFor(all: ["✗ body $.args.greeting equals bye", #"✗ is "hello", expected "bye""#])

        try await tui.send("e")
        try await tui.waitFor("Edit assertion")
        try await tui.send("C-u")
        try await tui.send("body $.args.greeting equals hello", literal: true)
        try await tui.send("Enter")
        try await tui.waitFor("· body $.args.greeting equals hello")

        try await tui.send("C-r")
        try await tui.waitFor(all: ["✓ body $.args.greeting equals hello", "✓ passed on the last send"])

        try await tui.quitDiscardingChanges(until: "EXIT=")
        let after = try await tui.waitFor("EXIT=")
        #expect(after.contains("EXIT=0"))
    }
}
