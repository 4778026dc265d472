import Foundation
import Testing
import TestSupport

/// The real `tincan` binary in tmux: the Explain view scrolled to its end on a small screen, and
/// the response body handed to `$PAGER` with the terminal given back and taken again (issue 17).
@Suite("Response tools end to end in tmux", .serialized)
struct ResponseToolsEndToEndTests {
    private func start(width: Int, height: Int, environment: [String: String] = [:]) async throws -> (TmuxSession, TemporaryDirectory) {
        let config = try TemporaryDirectory()
        let command = "sh -c '\(BuiltProducts.tincan) --no-mouse; echo \"EXIT=$?\"; sleep 60'"
        let base = ["XDG_CONFIG_HOME": config.path, "XDG_DATA_HOME": config.path + "/data", "HOME": config.path]
        let session = try await TmuxSession(command: command, width: width, height: height, environment: base.merging(environment) { $1 }, keeping: [config])
        try await session.waitFor("No response yet")
        return (session, config)
    }

    /// The preview box's position mark (`first-last/count`), when it shows one.
    private func previewPosition(_ screen: String) -> (last: Int, count: Int)? {
        guard let match = screen.firstMatch(of: /(\d+)-(\d+)\/(\d+)/), let last = Int(match.2), let count = Int(match.3) else { return nil }
        return (last, count)
    }

    @Test("at 80x24 the Explain view scrolls to its last line, and its Validation and Errors steps are reached")
    func explainScrollsToItsEnd() async throws {
        let (tui, _) = try await start(width: 80, height: 24)
        try await tui.send("C-r")
        try await tui.waitFor(all: ["200 OK", "✓ valid"])
        // From the URL field: the Params tab's query fields and tree, then the preview.
        try await tui.send("Tab", "Tab", "Tab", "F9")
        try await tui.waitFor("── Response ──")
        // Page down one screen at a time, each drawn before the next key, noting the step titles.
        var seen = Set<String>()
        var screen = try await tui.screen()
        for _ in 0..<40 {
            for title in ["Validation", "Errors", "Connection"] where screen.split(separator: "\n").contains(where: { $0.contains("│ \(title)") }) {
                seen.insert(title)
            }
            guard let position = previewPosition(screen), position.last < position.count else { break }
            try await tui.send("PageDown")
            screen = try await tui.waitFor("the next page") { self.previewPosition($0).map { $0.last > position.last } ?? false }
        }
        #expect(seen.isSuperset(of: ["Validation", "Errors"]))
        // The last page is reached: its mark reads n-m/m.
        let end = try #require(previewPosition(screen))
        #expect(end.last == end.count)
        // End goes there at once too, after Home.
        try await tui.send("Home")
        try await tui.waitFor("the first line again") { self.previewPosition($0).map { $0.last < $0.count } ?? false }
        try await tui.send("End")
        try await tui.waitFor("the last line again") { self.previewPosition($0).map { $0.last == $0.count } ?? false }
        try await tui.quitDiscardingChanges(until: "EXIT=")
        try await tui.waitFor("EXIT=0")
    }

    @Test("p hands the pretty body to $PAGER, and the screen comes back after it")
    func pagerGetsTheBody() async throws {
        let folder = try TemporaryDirectory()
        let received = folder.path + "/received.json"
        let script = folder.path + "/pager.sh"
        try writeExecutable("#!/bin/sh\ncat \"$1\" > '\(received).part' && mv '\(received).part' '\(received)'\n", to: script)
        let (tui, _) = try await start(width: 100, height: 30, environment: ["PAGER": script])
        try await tui.send("C-r")
        try await tui.waitFor(all: ["200 OK", "✓ valid"])
        // From the URL field: the query fields, the tree, the preview, then the response.
        try await tui.send("Tab", "Tab", "Tab", "Tab")
        try await tui.send("p")
        // The TUI says "Back from" once the pager has exited, and the pager renames the file before it exits.
        try await tui.waitFor("Back from \(script)")
        let text = try String(contentsOfFile: received, encoding: .utf8)
        // The demo server's echo, written out indented: one member a line.
        #expect(text.hasPrefix("{\n  \""))
        #expect(text.contains("\"greeting\": \"hello\""))
        try await tui.waitFor("200 OK")
        try await tui.quitDiscardingChanges(until: "EXIT=")
        try await tui.waitFor("EXIT=0")
    }
}
