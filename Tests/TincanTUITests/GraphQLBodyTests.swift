import Foundation
import TerminalUI
import Testing
import TincanCore
import TincanSessions
@testable import TincanTUI

@Suite("A GraphQL body in the Body tab")
struct GraphQLBodyTests {
    @Test("the editor's text is the query, the variables under ### variables and the operation name, and reads back")
    func editorTextRoundTrips() throws {
        let operation = GraphQLQuery(query: "query Q($id: ID!) {\n  book(id: $id) { title }\n}", variables: ["id": "it's \"2\""], operationName: "Q")
        let text = GraphQLEditorText.text(operation)
        #expect(text == "query Q($id: ID!) {\n  book(id: $id) { title }\n}\n### variables\n{\n  \"id\": \"it's \\\"2\\\"\"\n}\n### operation-name Q")
        #expect(try GraphQLEditorText.operation(text) == operation)
        #expect(try GraphQLEditorText.operation("{ hello }") == GraphQLQuery(query: "{ hello }"))
    }

    @Test("variables that are not a JSON object are refused with the reason")
    func badVariablesAreRefused() {
        #expect(throws: GraphQLEditorError.self) { try GraphQLEditorText.operation("{ a }\n### variables\n{ not json") }
        #expect { try GraphQLEditorText.operation("{ a }\n### variables\n[1]") } throws: { "\($0)".contains("must be an object") }
    }

    @Test("choosing graphql makes a POST with the graphql serializer; alt+s applies the editor and the preview sends the JSON")
    func choosingGraphQL() {
        var state = Fixtures.welcome(width: 120, height: 40)
        state.switchRequestTab(to: .body)
        state.chooseBodyKind(.graphql)
        #expect(state.method == "POST")
        #expect(state.responseSerializer == .graphql)
        state.body = TextArea("{ hello }\n### variables\n{\"n\": 1}")
        state.bodyIsDirty = true
        #expect(state.applyBody())
        #expect(state.bodySource == .graphql(GraphQLQuery(query: "{ hello }", variables: ["n": 1])))
        state.refreshPreview()
        let preview = SessionWorkspaceTests.previewText(state)
        #expect(preview.contains(#"{"query":"{ hello }","variables":{"n":1}}"#), "\(preview)")
        #expect(preview.contains("Content-Type: application/json"))
    }

    @Test("the copy menu lists curl and every language, and copies the chosen one")
    func copyMenu() {
        var state = Fixtures.welcome()
        state.pickCodeLanguage()
        guard case .modal(.picker(let picker)) = state.mode else {
            Issue.record("expected the copy menu, got \(state.mode)")
            return
        }
        #expect(picker.options == ["curl"] + CodeExport.Language.allCases.map(\.title))
        let effects = state.copyAsCode(.python)
        guard case .copyToClipboard(let code)? = effects.first else {
            Issue.record("expected the code on the clipboard, got \(effects)")
            return
        }
        #expect(code.contains("import requests"))
    }
}
