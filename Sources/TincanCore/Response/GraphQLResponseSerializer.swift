/// Decodes a GraphQL response (`application/json` or `application/graphql-response+json`) as
/// JSON, and fails it when it carries an `errors` array, whatever its status, as GraphQL clients
/// report it: a GraphQL server answers 200 for a query whose fields failed.
///
/// The decoded body is the whole response (`data` and `errors`), so checks and the body view
/// read `$.data…` as in any JSON body.
public struct GraphQLResponseSerializer: ResponseSerializer {
    /// The JSON serializer that validates and decodes the body.
    public var json: JSONResponseSerializer
    public var kind: ResponseSerializerKind { .graphql }

    public var acceptableStatusCodes: StatusCodeSet? {
        get { json.acceptableStatusCodes }
        set { json.acceptableStatusCodes = newValue }
    }

    public var acceptableContentTypes: Set<String>? {
        get { json.acceptableContentTypes }
        set { json.acceptableContentTypes = newValue }
    }

    /// Creates the serializer: statuses 200–299, JSON types and the GraphQL-over-HTTP one.
    public init() {
        json = JSONResponseSerializer()
        json.acceptableContentTypes?.insert("application/graphql-response+json")
    }

    public func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization {
        var result = json.serialize(response, data: data, request: request)
        guard case .json(let document) = result.body,
              case .array(let errors)? = document.value(at: [.key("errors")]), !errors.isEmpty
        else { return result }
        let failure = ResponseSerializationError(.graphQLErrors(errors.map(GraphQLResponseError.init)), response: response, data: data)
        result.error = failure.wrapping(result.error)
        return result
    }
}

/// One entry of a GraphQL response's `errors`: its message and the path of the field that failed.
public struct GraphQLResponseError: Sendable, Equatable, CustomStringConvertible {
    /// The error's `message` (its JSON text when it has none, which the spec does not allow).
    public var message: String
    /// The `path` as written in JSONPath's dotted form from the response's `data` (`book.author`,
    /// `books[1].title`), or nil when the error has none (a parse or validation error).
    public var path: String?

    /// Creates an entry.
    public init(message: String, path: String? = nil) {
        self.message = message
        self.path = path
    }

    /// Reads an entry of `errors`.
    public init(_ value: ParameterValue) {
        guard case .dictionary(let members) = value else {
            self.init(message: JSONWriter.string(value))
            return
        }
        let message: String
        if case .string(let text)? = members["message"] { message = text } else { message = JSONWriter.string(value) }
        guard case .array(let steps)? = members["path"], !steps.isEmpty else {
            self.init(message: message)
            return
        }
        var path = ""
        for step in steps {
            switch step {
            case .integer(let index): path += "[\(index)]"
            case .string(let key): path += path.isEmpty ? key : ".\(key)"
            default: path += path.isEmpty ? JSONWriter.string(step) : ".\(JSONWriter.string(step))"
            }
        }
        self.init(message: message, path: path)
    }

    public var description: String { path.map { "\(message) (at \($0))" } ?? message }
}
