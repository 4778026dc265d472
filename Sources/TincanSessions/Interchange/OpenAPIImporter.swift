import Foundation
import OrderedCollections
import TincanCore
import Yams

/// Imports an OpenAPI 3.0 or 3.1 document: one request per operation, grouped by tag, with
/// path parameters as variables, examples for parameters and bodies, servers as environments
/// of the variable `baseUrl`, and security schemes as auth with variables.
struct OpenAPIImporter {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    /// The variable every request URL starts with: the first server's URL, or an environment's.
    static let baseVariable = "baseUrl"

    let document: ImportDocument
    var references: OpenAPIReferences
    var notCarried: [String] = []
    var variables: OrderedDictionary<String, ParameterValue> = [:]
    /// Recursive schemas already reported, so a schema used by many operations is named once.
    var reportedRecursion: Set<String> = []
    /// Security schemes already reported as partly carried over.
    var reportedSchemes: Set<String> = []
    var schemes: [String: Node] = [:]

    init(document: ImportDocument) {
        self.document = document
        references = OpenAPIReferences(document: document)
    }

    mutating func run() throws -> ImportedCollection {
        let root = document.root
        guard let version = root.member("openapi") else {
            let swagger = root.member("swagger")
            throw document.error(at: swagger, "expected an OpenAPI 3.x document (an `openapi: 3.x` key)" + (swagger == nil ? "" : "; this is Swagger 2.0, which an import does not read: convert it to OpenAPI 3 first"))
        }
        guard let text = version.text, text.hasPrefix("3.") else {
            throw document.error(at: version, "expected an OpenAPI 3.x document (an `openapi: 3.x` key), found openapi: \(version.text ?? "a collection")")
        }
        var session = Session(name: root.member("info")?.member("title")?.text ?? "Imported from OpenAPI")
        session.description = root.member("info")?.member("description")?.text
        session.environments = try servers(root.member("servers"))
        variables[Self.baseVariable] = session.environments.values.first?[Self.baseVariable] ?? .string("")
        if session.environments.isEmpty {
            notCarried.append("servers: the document names none, so the variable \(Self.baseVariable) is empty; set it to the API's URL")
        }
        for (name, node) in root.member("components")?.member("securitySchemes")?.members ?? [] {
            if let scheme = try resolved(node, place: "security scheme '\(name)'") { schemes[name] = scheme }
        }
        let security = root.member("security")
        if let alternatives = security?.sequence, alternatives.count > 1 {
            notCarried.append("security: the first of \(alternatives.count) alternatives is used; these are not carried over: \(alternatives.dropFirst().map { $0.members.map(\.key).joined(separator: " and ") }.joined(separator: ", "))")
        }
        guard let paths = root.member("paths") else {
            throw document.error(at: nil, "the OpenAPI document has no paths: (the operations to import)")
        }
        guard paths.mapping != nil else { throw document.error(at: paths, "expected paths: to be a mapping of paths such as /pets to their operations") }
        var groups: OrderedDictionary<String, [SavedRequest]> = [:]
        var ungrouped: [SavedRequest] = []
        for (path, itemNode) in paths.members where !path.hasPrefix("x-") {
            guard let item = try resolved(itemNode, place: "path \(path)") else { continue }
            let shared = item.member("parameters")?.sequence.map { Array($0) } ?? []
            if item.member("servers") != nil { notCarried.append("path \(path): its own servers are not carried over; the requests use \(Self.baseVariable)") }
            for (method, operation) in item.members where Self.methods.contains(method) {
                var request = try self.request(method: method, path: path, operation: operation, shared: shared, security: security)
                if let tag = operation.member("tags")?.sequence?.first?.text, let group = groupPath([tag]) {
                    request.group = group
                    groups[group, default: []].append(request)
                } else {
                    ungrouped.append(request)
                }
            }
        }
        if let webhooks = root.member("webhooks"), !webhooks.members.isEmpty {
            notCarried.append("webhooks: \(webhooks.members.map(\.key).joined(separator: ", ")) are not carried over: they are requests the API sends, not ones a client sends")
        }
        session.requests = groups.values.flatMap { $0 } + ungrouped
        session.variables = variables
        return ImportedCollection(session: session, notCarried: notCarried)
    }

    /// A node with its `$ref`s followed; nil (reported) for a reference to another file.
    mutating func resolved(_ node: Node, place: String) throws -> Node? {
        switch try references.resolve(node) {
        case .node(let target, _): return target
        case .external(let reference):
            notCarried.append("\(place): \(reference) is not carried over: it is in another file, which an import cannot read")
            return nil
        }
    }

    // MARK: - Servers

    /// Each server as an environment setting ``baseVariable`` (its variables at their defaults),
    /// named by its description, else its URL.
    mutating func servers(_ node: Node?) throws -> OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> {
        var environments: OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> = [:]
        guard let node else { return environments }
        for server in try document.list(node, "a list of servers, each with url:") {
            var url = try document.text(server.member("url") ?? server, "a server URL")
            for (name, variable) in server.member("variables")?.members ?? [] {
                let value = variable.member("default")?.text ?? variable.member("enum")?.sequence?.first?.text ?? ""
                url = url.replacingOccurrences(of: "{\(name)}", with: value)
            }
            while url.hasSuffix("/") { url.removeLast() }
            if !url.contains("://") {
                notCarried.append("server '\(url.isEmpty ? "/" : url)': a URL relative to where the document is served; set \(Self.baseVariable) to an absolute URL")
            }
            var name = server.member("description")?.text ?? (url.isEmpty ? "/" : url)
            if environments[name] != nil { name += " (\(environments.count + 1))" }
            environments[name] = [Self.baseVariable: .string(url)]
        }
        return environments
    }

    // MARK: - Operations

    mutating func request(method: String, path: String, operation: Node, shared: [Node], security: Node?) throws -> SavedRequest {
        let name = operation.member("operationId")?.text ?? operation.member("summary")?.text ?? "\(method.uppercased()) \(path)"
        let place = "request '\(name)'"
        var request = SavedRequest(name: name, method: method.uppercased(), url: "{{\(Self.baseVariable)}}" + path.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}"))
        // Operation parameters replace the path item's of the same name and location.
        var parameters: OrderedDictionary<String, (name: String, location: String, node: Node)> = [:]
        for node in shared + (operation.member("parameters")?.sequence.map { Array($0) } ?? []) {
            guard let parameter = try resolved(node, place: place) else { continue }
            let name = try document.text(parameter.member("name") ?? parameter, "a parameter name")
            let location = try document.text(parameter.member("in") ?? parameter, "where the parameter goes: path, query, header or cookie")
            parameters["\(location) \(name)"] = (name, location, parameter)
        }
        var cookies: [String] = []
        for (name, location, parameter) in parameters.values {
            let value = try parameterExample(parameter, place: "\(place), parameter '\(name)'") ?? .string("")
            switch location {
            case "path": if variables[name] == nil { variables[name] = .string(value.importedText) }
            case "query": request.query.append((name, value.importedText))
            case "header":
                if ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                    notCarried.append("\(place): the header parameter \(name) is ignored, as OpenAPI says; the body's media type and the security scheme set it")
                } else {
                    request.headers.append(HeaderSetting(name: name, value: value.importedText, isEnabled: parameter.member("required")?.isTrue ?? false))
                }
            case "cookie": cookies.append("\(name)=\(value.importedText)")
            default: throw document.error(at: parameter.member("in"), "'\(location)' is not a parameter location; expected path, query, header or cookie")
            }
        }
        if !cookies.isEmpty { request.headers.append(HeaderSetting(name: "Cookie", value: cookies.joined(separator: "; "))) }
        for name in Template.references(in: request.url) where variables[name] == nil {
            variables[name] = .string("")
            notCarried.append("\(place): the path names {\(name)}, which no parameter describes; the variable \(name) is empty")
        }
        if let body = operation.member("requestBody"), let resolvedBody = try resolved(body, place: place) {
            try addBody(resolvedBody, to: &request, place: place)
        }
        let requirements = operation.member("security") ?? security
        if let alternatives = requirements?.sequence, let first = alternatives.first {
            if operation.member("security") != nil, alternatives.count > 1 {
                notCarried.append("\(place): the first of \(alternatives.count) security alternatives is used; the others are not carried over")
            }
            for (scheme, _) in first.members { applySecurity(scheme, to: &request) }
        }
        if let callbacks = operation.member("callbacks"), !callbacks.members.isEmpty {
            notCarried.append("\(place): callbacks (\(callbacks.members.map(\.key).joined(separator: ", "))) are not carried over: they are requests the API sends")
        }
        if operation.member("servers") != nil { notCarried.append("\(place): its own servers are not carried over; it uses \(Self.baseVariable)") }
        return request
    }

    /// A parameter's example: its own, its `content`'s, else its schema's.
    mutating func parameterExample(_ parameter: Node, place: String) throws -> ParameterValue? {
        if let content = parameter.member("content")?.members.first?.value { return try example(of: content, place: place) }
        return try example(of: parameter, place: place)
    }

    // MARK: - Bodies

    mutating func addBody(_ body: Node, to request: inout SavedRequest, place: String) throws {
        let content = body.member("content")?.members ?? []
        let preferred = content.first { Self.isJSON($0.key) }
            ?? content.first { $0.key.lowercased().hasPrefix("application/x-www-form-urlencoded") }
            ?? content.first { $0.key.lowercased().hasPrefix("multipart/form-data") }
            ?? content.first
        guard let (type, media) = preferred else { return }
        let others = content.map(\.key).filter { $0 != type }
        if !others.isEmpty { notCarried.append("\(place): the body is imported as \(type); the other media types are not carried over: \(others.joined(separator: ", "))") }
        let value = try example(of: media, place: place)
        let lowered = type.lowercased()
        let sendsParametersInQuery = RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method)
        if Self.isJSON(type), !sendsParametersInQuery, case .dictionary? = value {
            request.serializer = .json
            request.params = value
        } else if Self.isJSON(type), !sendsParametersInQuery, case .array? = value {
            request.serializer = .json
            request.params = value
        } else if lowered.hasPrefix("application/x-www-form-urlencoded"), !sendsParametersInQuery, case .dictionary? = value {
            request.serializer = .form
            request.params = value
        } else if lowered.hasPrefix("multipart/form-data"), case .dictionary(var fields)? = value {
            request.serializer = .multipart
            var schema: Node?
            if let node = media.member("schema"), case .node(let target, _) = try references.resolve(node) { schema = target }
            for (field, property) in schema?.member("properties")?.members ?? [] {
                guard try isBinary(property) else { continue }
                fields[field] = nil
                notCarried.append("\(place): the file field '\(field)' is not carried over; add it under files: with the file's path")
            }
            if !fields.isEmpty { request.params = .dictionary(fields) }
        } else {
            request.headers.append(HeaderSetting(name: "Content-Type", value: type))
            if let schema = media.member("schema"), try isBinary(schema) {
                notCarried.append("\(place): the body is a file (\(type)), which is not carried over; add upload: or body: {file: PATH}")
            } else if let value {
                request.body = .text(value.scalarText ?? JSONWriter.string(value))
            }
        }
    }

    /// `application/json`, `application/problem+json` and the like.
    static func isJSON(_ type: String) -> Bool {
        let essence = type.lowercased().split(separator: ";").first.map { $0.trimmingWhitespace() } ?? ""
        return essence == "application/json" || essence.hasSuffix("+json")
    }

    // MARK: - Security

    /// A security scheme as the session's auth, a header or a query field, each with a variable.
    mutating func applySecurity(_ name: String, to request: inout SavedRequest) {
        guard let scheme = schemes[name] else {
            if reportedSchemes.insert(name).inserted { notCarried.append("security: '\(name)' is not in components.securitySchemes, so it is not carried over") }
            return
        }
        let type = scheme.member("type")?.text ?? ""
        switch (type, scheme.member("scheme")?.text?.lowercased()) {
        case ("http", "basic"?), ("http", "digest"?):
            request.auth = SavedAuth(scheme: scheme.member("scheme")?.text?.lowercased() == "digest" ? .digest : .basic, user: "{{username}}", password: "{{password}}")
            addVariables(["username", "password"])
        case ("http", "bearer"?):
            request.headers.append(HeaderSetting(name: "Authorization", value: "Bearer {{token}}"))
            addVariables(["token"])
        case ("http", let other):
            let word = other.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? "Token"
            request.headers.append(HeaderSetting(name: "Authorization", value: "\(word) {{token}}"))
            addVariables(["token"])
            if reportedSchemes.insert(name).inserted { notCarried.append("security scheme '\(name)' (http \(other ?? "")): sent as Authorization: \(word) {{token}}; how the credential is made is not carried over") }
        case ("apiKey", _):
            let field = scheme.member("name")?.text ?? name
            switch scheme.member("in")?.text {
            case "query": request.query.append((field, "{{\(name)}}"))
            case "cookie": request.headers.append(HeaderSetting(name: "Cookie", value: "\(field)={{\(name)}}"))
            default: request.headers.append(HeaderSetting(name: field, value: "{{\(name)}}"))
            }
            addVariables([name])
        case ("oauth2", _), ("openIdConnect", _):
            request.headers.append(HeaderSetting(name: "Authorization", value: "Bearer {{token}}"))
            addVariables(["token"])
            if reportedSchemes.insert(name).inserted {
                notCarried.append("security scheme '\(name)' (\(type)): the flow is not carried over; put an access token in the variable token")
            }
        default:
            if reportedSchemes.insert(name).inserted { notCarried.append("security scheme '\(name)' (\(type)) is not carried over") }
        }
    }

    mutating func addVariables(_ names: [String]) {
        for name in names where variables[name] == nil { variables[name] = .string("") }
    }
}
