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
        let applied = state.applyBody()
        #expect(applied)
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

@Suite("The GraphQL schema from introspection: listed, and completing field names")
struct GraphQLSchemaTests {
    static func type(_ kind: String, _ name: String?, of inner: String? = nil) -> String {
        let ofType = inner.map { ", \"ofType\": \($0)" } ?? ""
        return "{\"kind\": \"\(kind)\", \"name\": \(name.map { "\"\($0)\"" } ?? "null")\(ofType)}"
    }

    static let schema: GraphQLSchema = {
        let book = type("OBJECT", "Book")
        let json = """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "mutationType": {"name": "Mutation"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": "book", "type": \(book)},
                {"name": "books", "type": \(type("NON_NULL", nil, of: type("LIST", nil, of: type("NON_NULL", nil, of: book))))}]},
              {"kind": "OBJECT", "name": "Mutation", "fields": [{"name": "addBook", "type": \(type("NON_NULL", nil, of: book))}]},
              {"kind": "OBJECT", "name": "Book", "fields": [
                {"name": "title", "type": \(type("SCALAR", "String"))}, {"name": "author", "type": \(type("OBJECT", "Author"))}]},
              {"kind": "OBJECT", "name": "Author", "fields": [{"name": "name", "type": \(type("SCALAR", "String"))}]},
              {"kind": "OBJECT", "name": "__Schema", "fields": []}]}}}
            """
        return GraphQLSchema(response: try! JSONParser.parse(json))!
    }()

    @Test("the listing names queries, mutations and types with their fields, types as GraphQL writes them")
    func listing() {
        #expect(Self.schema.listing == [
            "Queries (Query)", "  book: Book", "  books: [Book!]!", "",
            "Mutations (Mutation)", "  addBook: Book!", "",
            "Types", "  Book (object)", "    title: String", "    author: Author", "  Author (object)", "    name: String",
        ])
    }

    @Test("field names complete from the type of the selection set the cursor is in", arguments: [
        ("{ bo", ["book", "books"]),
        ("query Q($id: ID!) { book(id: \"}{\") { ti", ["title"]),
        ("{ books { author { n", ["name"]),
        ("{ mine: book(id: 1) { a", ["author"]),
        ("mutation { add", ["addBook"]),
        ("mutation { addBook(title: \"x\") { author { ", ["name"]),
        ("{ book { title } bo", ["book", "books"]),
        ("# { not this\n{ b", ["book", "books"]),
    ])
    func completes(_ text: String, _ names: [String]) {
        #expect(Self.schema.completions(before: Substring(text)).names == names)
    }

    @Test("alt+/ types the longest shared prefix and names the candidates")
    func altSlashCompletes() {
        var state = Fixtures.welcome(width: 120, height: 40)
        state.switchRequestTab(to: .body)
        state.chooseBodyKind(.graphql)
        state.graphQLSchema = Self.schema
        state.body = TextArea("{ books { aut")
        _ = state.body.handle(.key(KeyEvent(.end)), pageHeight: 10)
        state.completeGraphQLField()
        #expect(state.body.text == "{ books { author")
        state.body.insert(" { ")
        state.body.insert("n")
        state.completeGraphQLField()
        #expect(state.body.text == "{ books { author { name")
    }
}
