import Testing
import TerminalUI
import TincanCore
@testable import TincanTUI

/// Comparing two sends of a run: the line diff and alt+=.
@Suite("Comparing sends")
struct CompareTests {
    @Test func theDiffKeepsCommonLinesAndMarksWhatWasRemovedAndAdded() {
        let changes = LineDiff.diff(["a", "b", "c", "d"], ["a", "c", "x", "d"])
        #expect(changes == [.same("a"), .removed("b"), .same("c"), .added("x"), .same("d")])
        #expect(LineDiff.diff([], ["new"]) == [.added("new")])
        #expect(LineDiff.diff(["gone"], []) == [.removed("gone")])
        #expect(LineDiff.diff(["same"], ["same"]) == [.same("same")])
    }

    @Test func aMiddleBeyondTheLimitShowsAsReplacedWhole() {
        let old = (0...LineDiff.limit).map { "old \($0)" }
        let new = (0...LineDiff.limit).map { "new \($0)" }
        let changes = LineDiff.diff(["top"] + old, ["top"] + new)
        #expect(changes.first == .same("top"))
        #expect(changes.count == 1 + old.count + new.count)
    }

    @Test func altDComparesTwoSendsRequestAndResponseWithSecretsHidden() throws {
        var state = Fixtures.welcome()
        state.headers.append(HeaderRow(name: "Authorization", value: "Bearer s3cret"))
        state.refreshPreview()
        Fixtures.send(&state, body: #"{"id": 1, "name": "Ada"}"#)
        state.method = "POST"
        state.refreshPreview()
        Fixtures.send(&state, status: 201, body: #"{"id": 2, "name": "Ada"}"#)
        #expect(state.snapshots.count == 2)
        // The picker lists the newest first; the older one is offered first.
        Fixtures.press([.key(.alt("="))], into: &state)
        guard case let .picker(first)? = state.modal else { Issue.record("no picker"); return }
        #expect(first.options[first.list.selected].hasPrefix("#1 GET"))
        Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        guard case let .picker(second)? = state.modal else { Issue.record("no second picker"); return }
        #expect(second.options == [try #require(state.snapshots.last).title])
        Fixtures.press([.key(KeyEvent(.enter))], into: &state)
        guard case let .message(dialog)? = state.modal else { Issue.record("no diff"); return }
        let text = dialog.lines.map { $0.map(\.text).joined() }
        #expect(dialog.title == "Compare · request: 5 lines differ · response: 4 lines differ")
        #expect(text.contains { $0.hasPrefix("− GET /get?") })
        #expect(text.contains { $0.hasPrefix("+ POST /get HTTP/1.1") })
        #expect(text.contains("− HTTP/1.1 200 OK"))
        #expect(text.contains("+ HTTP/1.1 201 Created"))
        #expect(text.contains("−   \"id\": 1,"))
        #expect(text.contains("+   \"id\": 2,"))
        #expect(!text.contains { $0.contains("s3cret") })
    }

    @Test func compareNeedsTwoSends() {
        var state = Fixtures.welcome()
        Fixtures.press([.key(.alt("="))], into: &state)
        #expect(state.modal == nil)
        #expect(state.status?.text.hasPrefix("Compare needs two sends in this run") == true)
    }
}
