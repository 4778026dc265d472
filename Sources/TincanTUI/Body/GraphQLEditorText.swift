import TincanCore

/// A GraphQL body as the Body tab's editor holds it: the query, then, when given, its variables
/// as JSON under a `### variables` line and its operation name on a `### operation-name NAME`
/// line. Both marker lines are GraphQL comments, so the text stays a valid document (an editor
/// opened with F4 highlights it as GraphQL).
enum GraphQLEditorText {
    /// The line that starts the variables.
    static let variablesMarker = "### variables"
    /// The start of the line that names the operation.
    static let operationMarker = "### operation-name "

    /// The editor's text for `operation`.
    static func text(_ operation: GraphQLQuery) -> String {
        var text = operation.query
        if let variables = operation.variables {
            text += "\n\(variablesMarker)\n" + JSONWriter.string(variables, indent: 2)
        }
        if let name = operation.operationName { text += "\n\(operationMarker)\(name)" }
        return text
    }

    /// The operation the editor's text says.
    ///
    /// - Throws: ``GraphQLEditorError`` when the variables are not a JSON object.
    static func operation(_ text: String) throws(GraphQLEditorError) -> GraphQLQuery {
        var query: [Substring] = []
        var variables: [Substring] = []
        var inVariables = false
        var operationName: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingWhitespace() == variablesMarker {
                inVariables = true
            } else if line.hasPrefix(operationMarker) {
                let name = line.dropFirst(operationMarker.count).trimmingWhitespace()
                operationName = name.isEmpty ? nil : String(name)
            } else if inVariables {
                variables.append(line)
            } else {
                query.append(line)
            }
        }
        var operation = GraphQLQuery(query: query.joined(separator: "\n"), operationName: operationName)
        let variablesText = variables.joined(separator: "\n")
        if inVariables, !variablesText.trimmingWhitespaceAndNewlines().isEmpty {
            let value: ParameterValue
            do {
                value = try JSONParser.parse(variablesText)
            } catch {
                throw GraphQLEditorError(reason: "the variables are not valid JSON: \(error)")
            }
            if let problem = GraphQLQuery.variablesProblem(value) { throw GraphQLEditorError(reason: problem) }
            operation.variables = value
        }
        return operation
    }
}

/// Why the editor's GraphQL text cannot be applied.
struct GraphQLEditorError: Error, Sendable, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
