import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import NIOCore

/// `/graphql`: a small library schema, served as the GraphQL-over-HTTP draft says (a POST of
/// `{"query", "variables", "operationName"}` as JSON, or a GET with them in the query), with
/// introspection, so sessions, lessons and tests have a GraphQL server offline.
///
/// ```graphql
/// type Query { hello(name: String): String!  book(id: ID!): Book  books: [Book!]!  authors: [Author!]! }
/// type Mutation { addBook(title: String!, author: String!, year: Int): Book! }
/// type Book { id: ID!  title: String!  year: Int  author: Author! }
/// type Author { name: String!  born: Int }
/// ```
///
/// `book` with an id no book has is null with an error at its path, as GraphQL servers report a
/// field that failed; `addBook` answers the book it would add and keeps nothing, so every client
/// of the server sees the same data. The schema is built on the first request, not at start-up.
enum GraphQLRoute {
    /// The most body bytes read: a GraphQL request is a document and its variables.
    static let bodyLimit = 1 << 20

    static func register(on router: Router<DemoRoutes.Context>) {
        router.get("/graphql") { request, _ in
            let parameters = request.uri.queryParameters
            guard let query = parameters["query"].map(String.init) else {
                return failure("a GET names the operation in the query field ?query=", status: .badRequest)
            }
            var variables: [String: Map] = [:]
            if let text = parameters["variables"], !text.isEmpty {
                do {
                    variables = try JSONDecoder().decode([String: Map].self, from: Data(String(text).utf8))
                } catch {
                    return failure("variables= is not a JSON object", status: .badRequest)
                }
            }
            let operation = GraphQLRequest(query: query, operationName: parameters["operationName"].map(String.init), variables: variables)
            return try await run(operation, allowsMutations: false)
        }
        router.post("/graphql") { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: bodyLimit)
            let operation: GraphQLRequest
            do {
                operation = try JSONDecoder().decode(GraphQLRequest.self, from: Data(body.readableBytesView))
            } catch {
                return failure("the body is not a GraphQL request: a JSON object with query (and variables, operationName)", status: .badRequest)
            }
            return try await run(operation, allowsMutations: true)
        }
    }

    private static func run(_ operation: GraphQLRequest, allowsMutations: Bool) async throws -> Response {
        if !allowsMutations, (try? operation.operationType()) == .mutation {
            return failure("a mutation is sent with POST, not GET", status: .methodNotAllowed)
        }
        let result: GraphQLResult
        do {
            result = try await graphql(schema: schema, request: operation.query, variableValues: operation.variables, operationName: operation.operationName)
        } catch let error as GraphQLError {
            // A document that does not parse.
            result = GraphQLResult(errors: [error])
        }
        return response(result, status: .ok)
    }

    private static func failure(_ message: String, status: HTTPResponse.Status) -> Response {
        response(GraphQLResult(errors: [GraphQLError(message: message)]), status: status)
    }

    private static func response(_ result: GraphQLResult, status: HTTPResponse.Status) -> Response {
        var bytes = (try? GraphQLJSONEncoder().encode(result)).map { Array($0) } ?? Array(#"{"errors":[{"message":"the result could not be encoded"}]}"#.utf8)
        bytes.append(0x0A)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: - The schema

    /// The books the schema serves, by id.
    static let books: [[String: any Sendable]] = [
        ["id": "1", "title": "The Left Hand of Darkness", "year": 1969, "author": ["name": "Ursula K. Le Guin", "born": 1929] as [String: any Sendable]],
        ["id": "2", "title": "Kindred", "year": 1979, "author": ["name": "Octavia E. Butler", "born": 1947] as [String: any Sendable]],
        ["id": "3", "title": "Solaris", "year": 1961, "author": ["name": "Stanisław Lem", "born": 1921] as [String: any Sendable]],
    ]

    /// Built once, on the first request (a static is initialised lazily).
    static let schema: GraphQLSchema = {
        do {
            let author = try GraphQLObjectType(name: "Author", description: "A book's author.", fields: [
                "name": GraphQLField(type: GraphQLNonNull(GraphQLString)),
                "born": GraphQLField(type: GraphQLInt, description: "The year the author was born."),
            ])
            let book = try GraphQLObjectType(name: "Book", description: "A book in the library.", fields: [
                "id": GraphQLField(type: GraphQLNonNull(GraphQLID)),
                "title": GraphQLField(type: GraphQLNonNull(GraphQLString)),
                "year": GraphQLField(type: GraphQLInt, description: "The year it was first published."),
                "author": GraphQLField(type: GraphQLNonNull(author)),
            ])
            let query = try GraphQLObjectType(name: "Query", fields: [
                "hello": GraphQLField(
                    type: GraphQLNonNull(GraphQLString), description: "A greeting, to the name given.",
                    args: ["name": GraphQLArgument(type: GraphQLString)],
                    resolve: { _, args, _, _ in "Hello, \(args["name"].string ?? "world")!" }),
                "book": GraphQLField(
                    type: book, description: "The book with this id; an error when there is none.",
                    args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID))],
                    resolve: { _, args, _, _ in
                        let id = args["id"].string ?? ""
                        guard let found = books.first(where: { $0["id"] as? String == id }) else {
                            // Not a GraphQLError: the executor places any other error at the field's path.
                            throw NoSuchBook(id: id)
                        }
                        return found
                    }),
                "books": GraphQLField(type: GraphQLNonNull(GraphQLList(GraphQLNonNull(book))), resolve: { _, _, _, _ in books }),
                "authors": GraphQLField(type: GraphQLNonNull(GraphQLList(GraphQLNonNull(author))), resolve: { _, _, _, _ in books.compactMap { $0["author"] } }),
            ])
            let mutation = try GraphQLObjectType(name: "Mutation", fields: [
                "addBook": GraphQLField(
                    type: GraphQLNonNull(book), description: "The book as it would be added (the demo server keeps nothing).",
                    args: [
                        "title": GraphQLArgument(type: GraphQLNonNull(GraphQLString)),
                        "author": GraphQLArgument(type: GraphQLNonNull(GraphQLString)),
                        "year": GraphQLArgument(type: GraphQLInt),
                    ],
                    resolve: { _, args, _, _ in
                        var added: [String: any Sendable] = [
                            "id": String(books.count + 1), "title": args["title"].string ?? "",
                            "author": ["name": args["author"].string ?? ""] as [String: any Sendable],
                        ]
                        if let year = args["year"].int { added["year"] = year }
                        return added
                    }),
            ])
            return try GraphQLSchema(query: query, mutation: mutation)
        } catch {
            fatalError("the demo GraphQL schema is invalid: \(error)")
        }
    }()
}

/// What `book` throws for an id no book has; the executor reports it with the field's path.
private struct NoSuchBook: Error, CustomStringConvertible {
    var id: String
    var description: String { "no book has the id \(id)" }
}
