import Testing
import TincanCore

private func response(_ status: Int, _ contentType: String = "application/json") -> HTTPResponse {
    HTTPResponse(url: URLReference(parsing: "http://example.com/graphql"), statusCode: status, headers: ["Content-Type": contentType])
}

@Suite("A GraphQL operation is sent as GraphQL clients send it")
struct GraphQLRequestTests {
    let operation = GraphQLQuery(query: "query Q($id: ID!) { book(id: $id) { title } }", variables: ["id": "2"], operationName: "Q")

    @Test("a POST carries query, variables and operationName as compact JSON, with its Content-Type")
    func postCarriesTheOperationAsJSON() throws {
        var draft = RequestDraft(method: "POST", url: "http://example.com/graphql")
        draft.body = .graphql(operation)
        let request = try draft.build()
        #expect(try String(decoding: request.body.collect(), as: UTF8.self)
            == #"{"query":"query Q($id: ID!) { book(id: $id) { title } }","variables":{"id":"2"},"operationName":"Q"}"#)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.url.string == "http://example.com/graphql")
    }

    @Test("members not given are left out, and the request's own Content-Type wins")
    func absentMembersAreLeftOut() throws {
        var draft = RequestDraft(method: "PUT", url: "http://example.com/graphql")
        draft.body = .graphql(GraphQLQuery(query: "{ hello }"))
        draft.headers.set(name: "Content-Type", value: "application/graphql+json")
        let request = try draft.build()
        #expect(try request.body.collect() == Array(#"{"query":"{ hello }"}"#.utf8))
        #expect(request.headers["Content-Type"] == "application/graphql+json")
    }

    @Test("a GET carries the operation in the URL's query, after the URL's own fields, with no body")
    func getCarriesTheOperationInTheURL() throws {
        var draft = RequestDraft(method: "GET", url: "http://example.com/graphql?trace=1")
        draft.body = .graphql(operation)
        let request = try draft.build()
        #expect(request.url.query == "trace=1&query=query%20Q%28%24id%3A%20ID%21%29%20%7B%20book%28id%3A%20%24id%29%20%7B%20title%20%7D%20%7D&variables=%7B%22id%22%3A%222%22%7D&operationName=Q")
        #expect(request.body.length == nil || request.body.length == 0)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test("variables that are not an object are refused, naming what they are")
    func variablesMustBeAnObject() {
        var draft = RequestDraft(method: "POST", url: "http://example.com/graphql")
        draft.body = .graphql(GraphQLQuery(query: "{ a }", variables: [1, 2]))
        #expect { try draft.build() } throws: { "\($0)".contains("GraphQL variables must be an object") }
    }
}

@Suite("The graphql response serializer fails a response that carries errors")
struct GraphQLResponseSerializerTests {
    let serializer = GraphQLResponseSerializer()

    @Test("errors with status 200 are a failed validation listing each message and path; data still decodes")
    func errorsFailValidationEvenWith200() throws {
        let body = #"{"data":{"book":null,"books":[{"title":null}]},"errors":[{"message":"no book","path":["book"]},{"message":"gone","path":["books",0,"title"]}]}"#
        let result = serializer.serialize(response(200), data: Array(body.utf8), request: nil)
        let error = try #require(result.error)
        #expect(error.domain == ResponseSerializationError.graphQLDomain)
        #expect(error.code == 1)
        #expect(error.reason == .graphQLErrors([GraphQLResponseError(message: "no book", path: "book"), GraphQLResponseError(message: "gone", path: "books[0].title")]))
        #expect(error.message == "2 GraphQL errors: no book (at book); gone (at books[0].title)")
        #expect(error.isValidationFailure)
        guard case .json(let document) = result.body else { Issue.record("data is decoded as JSON"); return }
        #expect(document.value(at: [.key("data"), .key("book")]) == .null)
    }

    @Test("an error without a path is its message alone")
    func anErrorWithoutAPath() throws {
        let result = serializer.serialize(response(200), data: Array(#"{"errors":[{"message":"Syntax Error: Unexpected }"}]}"#.utf8), request: nil)
        #expect(result.error?.message == "GraphQL error: Syntax Error: Unexpected }")
    }

    @Test("a response with data and no errors (or an empty list) is valid")
    func noErrorsIsValid() {
        #expect(serializer.serialize(response(200), data: Array(#"{"data":{"hello":"world"}}"#.utf8), request: nil).isValid)
        #expect(serializer.serialize(response(200), data: Array(#"{"data":{},"errors":[]}"#.utf8), request: nil).isValid)
    }

    @Test("the GraphQL-over-HTTP media type is accepted, and a bad status wraps under the GraphQL error")
    func graphQLMediaTypeAndStatusChain() throws {
        let body = Array(#"{"errors":[{"message":"bad"}]}"#.utf8)
        #expect(serializer.serialize(response(200, "application/graphql-response+json"), data: Array(#"{"data":{}}"#.utf8), request: nil).isValid)
        let error = try #require(serializer.serialize(response(400, "application/graphql-response+json"), data: body, request: nil).error)
        #expect(error.chain.map(\.code) == [1, -1011])
    }

    @Test("null removal reaches the JSON the graphql serializer decodes")
    func nullRemovalApplies() {
        let removing = NullRemoval.applied(to: serializer)
        #expect(NullRemoval.isOn(in: removing))
        #expect(removing.kind == .graphql)
    }
}
