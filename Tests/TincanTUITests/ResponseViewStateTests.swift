import Testing
import TerminalUI
@testable import TincanTUI

/// The response box as a component: its own rules, tested with a body document and no send.
@Suite("The response box's state")
struct ResponseViewStateTests {
    private func document(_ json: String) throws -> BodyDocument {
        BodyDocument(.json(try #require(JSONOutline(Array(json.utf8)))))
    }

    @Test func theNextViewFollowsTheTabsAndWrapsAround() {
        var state = ResponseViewState()
        var seen: [ResponseView] = []
        for _ in ResponseView.allCases {
            state.view = state.nextView
            seen.append(state.view)
        }
        #expect(seen == [.raw, .headers, .timing, .pretty])
    }

    @Test func anotherDocumentPutsTheSelectionWhereAskedAndCountsTheSearchInIt() throws {
        var state = ResponseViewState()
        state.search.query = SearchQuery("a")
        state.search.current = SearchMatch(row: 3, ordinal: 0, number: 2)
        state.list = ListState(selected: 9)
        state.showNewDocument(try document(#"{"a": "a", "b": "c"}"#), selecting: 2)
        #expect(state.list.selected == 2)
        #expect(state.search.current == nil)
        #expect(state.search.matchCount == 2)
        state.showNewDocument(nil)
        #expect(state.search.matchCount == 0, "no document, no matches")
    }

    @Test func aNewBodyShowsThePrettyViewFromItsTopOrAStreamOnItsNewestEvent() throws {
        var state = ResponseViewState()
        state.view = .headers
        state.list = ListState(selected: 5)
        state.search.query = SearchQuery("x")
        let body = try document(#"{"x": 1, "y": [1, 2]}"#)
        state.showNewBody(body, streamRows: nil)
        #expect(state.view == .pretty)
        #expect(state.list.selected == 0)
        #expect(state.search.matchCount == 1)
        state.showNewBody(body, streamRows: 4)
        #expect(state.list.selected == 3)
    }

    @Test func theAppStateNamesTheComponentsFieldsAsBefore() {
        var app = Fixtures.welcome()
        app.responseView = .timing
        app.bodyList = ListState(selected: 4)
        #expect(app.response.view == .timing)
        #expect(app.response.list.selected == 4)
    }
}
