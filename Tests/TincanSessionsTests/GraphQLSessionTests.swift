import Foundation
import Testing
import TincanCore
@testable import TincanSessions

@Suite("A GraphQL body in a session file")
struct GraphQLSessionTests {
    static let text = """
        requests:
          - url: http://h/graphql
            body:
              graphql:
                query: "query Q($id: ID!) { book(id: $id) { title } }"
                variables:
                  id: "{{book}}"
                  first: 2
                operation-name: Q

        """

    @Test("is read with its variables typed, and POSTed when the request names no method")
    func readAndPostedByDefault() throws {
        let request = try Session.parse(Self.text, path: "g.tincan.yaml").requests[0]
        #expect(request.method == "POST")
        #expect(request.body == .graphql(GraphQLQuery(query: "query Q($id: ID!) { book(id: $id) { title } }", variables: ["id": "{{book}}", "first": 2], operationName: "Q")))
        #expect(request.defaultResponseSerializer == .graphql)
    }

    @Test("a method the request gives is kept, and the file is written back to the same bytes")
    func methodKeptAndRoundTrips() throws {
        let text = "requests:\n  - method: GET\n    url: http://h/graphql\n    body:\n      graphql:\n        query: \"{ hello }\"\n"
        let session = try Session.parse(text, path: "g.tincan.yaml")
        #expect(session.requests[0].method == "GET")
        #expect(session.yamlText() == text)
        let full = try Session.parse(Self.text, path: "g.tincan.yaml")
        #expect(try Session.parse(full.yamlText(), path: "g.tincan.yaml").requests[0].body == full.requests[0].body)
    }

    @Test("variables expand when resolved, typed where a value is one reference; the graphql serializer judges the response")
    func resolvesWithVariables() throws {
        let session = try Session.parse(Self.text, path: "g.tincan.yaml")
        let resolved = try session.resolve(0, template: Template(variables: ["book": .integer(2)]), directory: "/tmp")
        #expect(resolved.draft.body == .graphql(GraphQLQuery(query: "query Q($id: ID!) { book(id: $id) { title } }", variables: ["id": 2, "first": 2], operationName: "Q")))
        #expect(resolved.contract.serializer == .graphql)
        let request = try resolved.draft.build()
        #expect(try request.body.collect() == Array(#"{"query":"query Q($id: ID!) { book(id: $id) { title } }","variables":{"id":2,"first":2},"operationName":"Q"}"#.utf8))
    }

    @Test("a response serializer the request names wins over the graphql default")
    func namedSerializerWins() throws {
        let text = Self.text + "    response:\n      serializer: json\n"
        let session = try Session.parse(text, path: "g.tincan.yaml")
        #expect(try session.resolve(0, template: Template(variables: ["book": "1"]), directory: "/tmp").contract.serializer == .json)
    }

    @Test("a graphql body without a query, or with variables that are not a mapping, is refused at its place", arguments: [
        ("variables: {}", "graphql needs query:"),
        ("query: \"{ a }\"\n        variables: [1]", "expected the GraphQL variables as a mapping"),
        ("query: \"{ a }\"\n        operation: x", "operation"),
    ])
    func refusals(_ body: String, _ message: String) {
        let text = "requests:\n  - url: http://h/graphql\n    body:\n      graphql:\n        \(body)\n"
        #expect { try Session.parse(text, path: "g.tincan.yaml") } throws: { "\($0)".contains(message) && "\($0)".contains("g.tincan.yaml:") }
    }
}

@Suite("GraphQL bodies of other tools import as graphql bodies")
struct GraphQLImportTests {
    @Test("a Postman GraphQL body, its variables given as text")
    func postman() throws {
        let collection = """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "op", "request": {"method": "POST", "url": "http://h/graphql", "body": {"mode": "graphql",
               "graphql": {"query": "query Q { a }", "operationName": "Q", "variables": "{\\"n\\": 2}"}}}}]}
            """
        let result = try imported(.postman, collection, path: "c.json")
        #expect(result.session.requests[0].body == .graphql(GraphQLQuery(query: "query Q { a }", variables: ["n": 2], operationName: "Q")))
    }

    @Test("an Insomnia GraphQL body, its variables kept as text by Insomnia")
    func insomnia() throws {
        let export = """
            {"_type": "export", "__export_format": 4, "resources": [
              {"_id": "w", "_type": "workspace", "name": "w"},
              {"_id": "r1", "_type": "request", "parentId": "w", "name": "q", "method": "POST", "url": "http://h/graphql",
               "body": {"mimeType": "application/graphql", "text": "{\\"query\\": \\"{ a }\\", \\"variables\\": \\"{\\\\\\"n\\\\\\": 1}\\"}"}}]}
            """
        let request = try imported(.insomnia, export, path: "i.json").session.requests[0]
        #expect(request.body == .graphql(GraphQLQuery(query: "{ a }", variables: ["n": 1])))
        #expect(!request.headers.contains { HTTPHeaders.same($0.name, "Content-Type") }, "the graphql body sets its own")
    }

    @Test("written back to Postman as a GraphQL body")
    func postmanExport() throws {
        let session = try Session.parse(GraphQLSessionTests.text, path: "g.tincan.yaml")
        let exported = CollectionExport(showsSecrets: false, variables: [:]).postman(session, environment: nil)
        let text = exported.files[0].text
        #expect(text.contains(#""mode": "graphql""#) || text.contains(#""mode":"graphql""#), "\(text)")
        #expect(text.contains("operationName"))
    }
}
