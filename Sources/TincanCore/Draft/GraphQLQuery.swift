import OrderedCollections

/// A GraphQL operation sent over HTTP, as GraphQL clients send it (the GraphQL-over-HTTP draft):
/// a JSON body `{"query", "variables", "operationName"}` with a POST (or any method with a
/// body), or the same members as URL query fields with a GET.
///
/// `variables` and `operationName` are left out when not given, as the draft allows; a server
/// reads an absent `variables` as `{}`.
public struct GraphQLQuery: Sendable, Hashable {
    /// The media type of the JSON body.
    public static let contentType = "application/json"
    /// The method a GraphQL request uses when none is given.
    public static let defaultMethod = "POST"

    /// The document: one or more operations and fragments.
    public var query: String
    /// The variables, an object; nil to send none.
    public var variables: ParameterValue?
    /// Which operation of the document to run, when it holds several.
    public var operationName: String?

    /// Creates an operation.
    public init(query: String, variables: ParameterValue? = nil, operationName: String? = nil) {
        self.query = query
        self.variables = variables
        self.operationName = operationName
    }

    /// The JSON object sent as the body, members in the draft's order.
    public var object: ParameterValue {
        var members: OrderedDictionary<String, ParameterValue> = [:]
        members["query"] = .string(query)
        if let variables { members["variables"] = variables }
        if let operationName { members["operationName"] = .string(operationName) }
        return .dictionary(members)
    }

    /// The body of a POST: ``object`` as compact JSON.
    public var jsonBody: [UInt8] { JSONWriter.bytes(object) }

    /// The query fields of a GET: `query`, then `variables` as compact JSON, then `operationName`.
    public var queryPairs: [QueryStringPair] {
        var pairs = [QueryStringPair(field: "query", value: query)]
        if let variables { pairs.append(QueryStringPair(field: "variables", value: JSONWriter.string(variables))) }
        if let operationName { pairs.append(QueryStringPair(field: "operationName", value: operationName)) }
        return pairs
    }

    /// Whether `method` sends the operation in the URL rather than in a body: GET alone, as
    /// GraphQL servers accept queries (never mutations) that way.
    public static func sendsInURL(method: String) -> Bool {
        method.uppercased() == "GET"
    }

    /// Why `variables` cannot be sent, or nil when it can: they must be a JSON object.
    public static func variablesProblem(_ variables: ParameterValue) -> String? {
        guard case .dictionary = variables else {
            return "GraphQL variables must be an object (name: value), not \(variables.kindName)"
        }
        return JSONWriter.invalidityReason(variables)
    }
}
