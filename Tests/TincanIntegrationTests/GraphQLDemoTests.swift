import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// The demo server's `/graphql`, through the core as `tincan send` and replay use it.
@Suite("The demo server answers GraphQL at /graphql")
struct GraphQLDemoTests {
    func send(_ method: String, _ operation: GraphQLQuery, on server: DemoServer) async throws -> TaskResult {
        var draft = try draft(method, "graphql", on: server)
        draft.body = .graphql(operation)
        return try await TestSupport.send(draft) { $0.responseSerializer = GraphQLResponseSerializer() }
    }

    @Test("a POSTed query with variables and an operation name runs that operation")
    func postedQueryRuns() async throws {
        try await withDemoServer { server in
            let operation = GraphQLQuery(query: "query A { books { id } } query B($id: ID!) { book(id: $id) { title author { name } } }",
                                         variables: ["id": "2"], operationName: "B")
            let result = try await send("POST", operation, on: server)
            #expect(result.serialization?.isValid == true, "\(String(describing: result.serialization?.error))")
            #expect(try json(result) == ["data": ["book": ["title": "Kindred", "author": ["name": "Octavia E. Butler"]]]])
        }
    }

    @Test("a GET carries the query in the URL and is answered the same")
    func getQueryRuns() async throws {
        try await withDemoServer { server in
            let result = try await send("GET", GraphQLQuery(query: "query ($id: ID!) { book(id: $id) { year } }", variables: ["id": "3"]), on: server)
            #expect(result.request.url.query?.hasPrefix("query=") == true)
            #expect(try json(result) == ["data": ["book": ["year": 1961]]])
        }
    }

    @Test("a field that fails is null with an error at its path: status 200, a failed validation")
    func fieldErrorFailsValidation() async throws {
        try await withDemoServer { server in
            let result = try await send("POST", GraphQLQuery(query: #"{ hello book(id: "404") { title } }"#), on: server)
            #expect(result.response?.statusCode == 200)
            let error = try #require(result.serialization?.error)
            #expect(error.reason == .graphQLErrors([GraphQLResponseError(message: "no book has the id 404", path: "book")]))
            #expect(try json(result)["data"]?["hello"] == "Hello, world!")
        }
    }

    @Test("introspection lists the schema's queries, mutations and types")
    func introspectionListsTheSchema() async throws {
        try await withDemoServer { server in
            let query = "{ __schema { queryType { fields { name } } mutationType { fields { name } } types { name } } }"
            let schema = try json(try await send("POST", GraphQLQuery(query: query), on: server))["data"]?["__schema"]
            // GraphQLSwift lists fields by name.
            #expect(schema?["queryType"]?["fields"] == [["name": "authors"], ["name": "book"], ["name": "books"], ["name": "hello"]])
            #expect(schema?["mutationType"]?["fields"] == [["name": "addBook"]])
            let types = schema?["types"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            #expect(Set(["Query", "Mutation", "Book", "Author"]).isSubset(of: Set(types)))
        }
    }

    @Test("a mutation by GET is refused with 405; a document that does not parse is an error, not a crash")
    func refusals() async throws {
        try await withDemoServer { server in
            let mutation = try await send("GET", GraphQLQuery(query: #"mutation { addBook(title: "T", author: "A") { id } }"#), on: server)
            #expect(mutation.response?.statusCode == 405)
            let broken = try await send("POST", GraphQLQuery(query: "{ book("), on: server)
            #expect(broken.response?.statusCode == 200)
            guard case .graphQLErrors(let errors)? = broken.serialization?.error?.reason else {
                Issue.record("expected GraphQL errors, got \(String(describing: broken.serialization?.error))")
                return
            }
            #expect(errors.first?.message.contains("Syntax Error") == true)
        }
    }
}

private extension ParameterValue {
    subscript(key: String) -> ParameterValue? { dictionaryValue?[key] }

    var arrayValue: [ParameterValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
