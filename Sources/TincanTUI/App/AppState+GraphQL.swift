import TerminalUI
import TincanCore
import TincanSessions

/// A GraphQL body's schema: asked of the server by introspection (alt+q), listed, and used to
/// complete field names while the query is typed (alt+/, and the note under the editor).
extension AppState {
    /// Sends the introspection query to the request's URL, with its headers, credentials and
    /// settings (a POST of JSON, whatever the request's method); the answer is listed when it
    /// comes (``receivedSchema(_:)``). The request itself is untouched.
    mutating func introspectSchema() -> [Effect] {
        guard case .graphql? = bodySource else {
            status = StatusMessage("The schema is asked of a GraphQL server: make the body GraphQL first (alt+k, graphql).", .warning)
            return []
        }
        guard let (request, prepared) = readyToSend() else { return [] }
        var asking = request
        asking.method = GraphQLQuery.defaultMethod
        // A GET's operation in the URL is not this query's.
        if let query = asking.url.query {
            let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { field in
                !["query", "variables", "operationName"].contains(String(field.prefix { $0 != "=" }))
            }
            asking.url.query = kept.isEmpty ? nil : kept.joined(separator: "&")
        }
        asking.body = .bytes(GraphQLQuery(query: GraphQLSchema.introspectionQuery).jsonBody)
        asking.headers.set(name: "Content-Type", value: GraphQLQuery.contentType)
        var plan = prepared
        plan.options.responseSerializer = GraphQLResponseSerializer()
        let id = nextExchangeID
        nextExchangeID += 1
        var exchange = Exchange(id: id, request: asking, startedAt: now)
        exchange.introspection = true
        exchange.responseSerializer = plan.options.responseSerializer
        exchange.flow.request = asking
        exchange.flow.plan = plan
        self.exchange = exchange
        responseScroll = ScrollState()
        status = StatusMessage("Asking \(Redaction.url(asking.url.string)) for its GraphQL schema (introspection)…")
        return dispatch(after: nil)
    }

    /// The introspection's answer: the schema kept and listed, or why there is none.
    mutating func receivedSchema(_ result: TaskResult) -> [Effect] {
        guard case .json(let document)? = result.serialization?.body, let schema = GraphQLSchema(response: document.value) else {
            let reason = result.transportError.map { "\($0)" }
                ?? result.serialization?.error.map(\.description)
                ?? "the answer (status \(result.response?.statusCode ?? 0)) holds no data.__schema"
            status = StatusMessage("No GraphQL schema: \(reason)", .error)
            return []
        }
        graphQLSchema = schema
        mode = .modal(.message(Dialog(
            title: "GraphQL schema: " + [(schema.queries.count, "query", "queries"), (schema.mutations.count, "mutation", "mutations"), (schema.types.count, "type", "types")]
                .map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }.joined(separator: ", "),
            lines: schema.listing.map { [Span($0)] }, hint: "↑↓ scroll · esc close · alt+/ completes field names")))
        status = StatusMessage("Schema loaded: alt+/ completes field names in the query.", .success)
        return []
    }

    /// The query up to the cursor (the variables and operation lines after it do not matter).
    private var graphQLTextBeforeCursor: Substring {
        let lines = body.lines
        let before = lines[..<body.row].map { String($0) } + [String(lines[body.row][..<body.column])]
        return Substring(before.joined(separator: "\n"))
    }

    /// Completes the field name at the cursor: the longest prefix the schema's candidates share
    /// is typed in, and the candidates are named in the status line.
    mutating func completeGraphQLField() {
        guard case .graphql? = bodySource else { return }
        guard let schema = graphQLSchema else {
            status = StatusMessage("No schema yet: alt+q asks the server for it.", .warning)
            return
        }
        let (word, names) = schema.completions(before: graphQLTextBeforeCursor)
        guard let first = names.first else {
            status = StatusMessage(word.isEmpty ? "No field to complete here." : "No field here starts with \(word).", .warning)
            return
        }
        var common = first
        for name in names.dropFirst() {
            common = String(zip(common, name).prefix { $0 == $1 }.map(\.0))
        }
        if common.count > word.count {
            body.insert(String(common.dropFirst(word.count)))
            bodyEdited()
        }
        status = names.count == 1 ? nil : StatusMessage("Fields: " + names.joined(separator: ", "))
    }

    /// The note under a GraphQL body's editor while a field name is typed: the schema's fields
    /// that complete it; nil when there is nothing to offer.
    var graphQLCompletionNote: String? {
        guard case .graphql? = bodySource, let schema = graphQLSchema, focus == .body else { return nil }
        let (word, names) = schema.completions(before: graphQLTextBeforeCursor)
        guard !word.isEmpty, !names.isEmpty else { return nil }
        return "alt+/ → " + names.prefix(6).joined(separator: " ") + (names.count > 6 ? " …" : "")
    }
}
