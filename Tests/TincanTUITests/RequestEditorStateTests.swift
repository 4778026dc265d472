import Testing
import TerminalUI
import TincanSessions
@testable import TincanTUI

/// The request editor as a component: its headers and query fields edited by its own rules,
/// with no app around it.
@Suite("The request editor's state")
struct RequestEditorStateTests {
    @Test func anAddedHeaderIsSelectedAndTakesThePlaceOfItsNullRemoval() {
        var editor = RequestEditorState()
        editor.headers = [HeaderRow(name: "Accept", value: "*/*")]
        editor.removedHeaders = ["User-Agent", "Accept-Encoding"]
        editor.setHeader("user-agent", "tests", at: nil)
        #expect(editor.headers.map(\.name) == ["Accept", "user-agent"])
        #expect(editor.headerList.selected == 1)
        #expect(editor.removedHeaders == ["Accept-Encoding"], "names compare without case")
    }

    @Test func anEditedHeaderKeepsItsPlaceItsSwitchAndTheRemovals() {
        var editor = RequestEditorState()
        editor.headers = [HeaderRow(name: "A", value: "1", isEnabled: false), HeaderRow(name: "B", value: "2")]
        editor.removedHeaders = ["C"]
        editor.setHeader("C", "3", at: 0)
        #expect(editor.headers == [HeaderRow(name: "C", value: "3", isEnabled: false), HeaderRow(name: "B", value: "2")])
        #expect(editor.removedHeaders == ["C"])
        editor.setHeader("D", "4", at: 7)
        #expect(editor.headers.last == HeaderRow(name: "D", value: "4"), "an index gone is an add")
    }

    @Test func theOwnHeaderSetsTheLastRowOfItsNameTurnedOnOrAddsOne() {
        var editor = RequestEditorState()
        editor.headers = [HeaderRow(name: "Content-Type", value: "a"), HeaderRow(name: "content-type", value: "b", isEnabled: false)]
        #expect(editor.setOwnHeader("Content-Type", "text/plain") == nil)
        #expect(editor.headers[0].value == "a")
        #expect(editor.headers[1] == HeaderRow(name: "content-type", value: "text/plain"))
        #expect(editor.setOwnHeader("Authorization", "Bearer x") == nil)
        #expect(editor.headers.count == 3)
        #expect(editor.setOwnHeader("X", "two\nlines") == "a header value is one line")
        #expect(editor.headers.count == 3)
    }

    @Test func anEditedQueryFieldKeepsItsSwitchAndAnAddedOneIsSelected() {
        var editor = RequestEditorState()
        editor.query = [QueryField(name: "a", value: "1", isEnabled: false)]
        editor.setQueryField(QueryField(name: "b", value: "2"), at: 0)
        #expect(editor.query == [QueryField(name: "b", value: "2", isEnabled: false)])
        editor.setQueryField(QueryField(name: "c", value: "3"), at: nil)
        #expect(editor.query.count == 2)
        #expect(editor.queryList.selected == 1)
    }

    @Test func theAppStateNamesTheEditorsFieldsAsBefore() {
        var app = Fixtures.welcome()
        app.headers.append(HeaderRow(name: "X-Test", value: "1"))
        app.queryList = ListState(selected: 0)
        #expect(app.editor.headers.last == HeaderRow(name: "X-Test", value: "1"))
        #expect(app.editor.headers == app.headers)
    }
}
