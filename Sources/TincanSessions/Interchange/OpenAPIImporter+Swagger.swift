import OrderedCollections
import TincanCore

/// What Swagger 2.0 says differently from OpenAPI 3: where the API is (`host`, `basePath`,
/// `schemes`) and what a body is (a `body` parameter's schema, or `formData` parameters, sent
/// as the operation's `consumes` says).
extension OpenAPIImporter {
    /// Each scheme as an environment of `scheme://host/basePath`; a document without `host` is
    /// served from where it is read, so its URL is relative (and named). Without `schemes`,
    /// https is assumed, the scheme such a document is served by today.
    mutating func swaggerServers(_ root: ImportNode) -> OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> {
        var environments: OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> = [:]
        let basePath = root.member("basePath")?.nonNullText ?? ""
        guard let host = root.member("host")?.nonNullText, !host.isEmpty else {
            addServer(basePath, name: nil, to: &environments)
            return environments
        }
        var schemes = root.member("schemes")?.sequence?.compactMap(\.nonNullText).map { $0.lowercased() } ?? []
        if schemes.isEmpty { schemes = ["https"] }
        // https first, as a client should prefer it when the API offers both.
        schemes.sort { ($0 == "https" ? 0 : 1, $0) < ($1 == "https" ? 0 : 1, $1) }
        for scheme in schemes where scheme == "http" || scheme == "https" {
            addServer("\(scheme)://\(host)\(basePath.hasPrefix("/") || basePath.isEmpty ? basePath : "/" + basePath)", name: nil, to: &environments)
        }
        for scheme in schemes where scheme != "http" && scheme != "https" {
            notCarried.append("schemes: \(scheme) is not carried over; Tincan sends http and https")
        }
        return environments
    }

    /// The body of a Swagger 2.0 operation: its `body` parameter's schema, or its `formData`
    /// parameters (a multipart form when it consumes `multipart/form-data` or one of them is a
    /// file, else a URL-encoded form).
    mutating func addSwaggerBody(_ parameters: [(name: String, location: String, node: ImportNode)], operation: ImportNode, to request: inout SavedRequest, place: String) throws {
        guard !parameters.isEmpty else { return }
        let consumes = operation.member("consumes")?.sequence?.compactMap(\.nonNullText) ?? self.consumes
        if let body = parameters.first(where: { $0.location == "body" }) {
            let type = consumes.first { Self.isJSON($0) } ?? consumes.first ?? "application/json"
            let value = try body.node.member("schema").flatMap { schema in try example(of: ImportNode.mapping([ImportMember(key: "schema", value: schema)], at: schema.place), place: place) }
            var isFile = false
            if let schema = body.node.member("schema") { isFile = try isBinary(schema) }
            setBody(type: type, value: value, binaryFields: [], isFile: isFile, to: &request, place: place)
            return
        }
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        var files: [String] = []
        for (name, _, node) in parameters {
            if node.member("type")?.nonNullText == "file" {
                files.append(name)
                continue
            }
            let value = try parameterExample(node, place: "\(place), parameter '\(name)'") ?? .string("")
            fields[name] = value
        }
        let multipart = !files.isEmpty || consumes.contains { $0.lowercased().hasPrefix("multipart/form-data") }
        setBody(type: multipart ? "multipart/form-data" : "application/x-www-form-urlencoded", value: .dictionary(fields), binaryFields: [], isFile: false, to: &request, place: place)
        if !multipart || RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method) { return }
        request.serializer = .multipart
        for file in files {
            notCarried.append("\(place): the file field '\(file)' is not carried over; add it under files: with the file's path")
        }
    }
}
