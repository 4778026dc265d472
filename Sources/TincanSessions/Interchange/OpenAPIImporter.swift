import Foundation
import OrderedCollections
import TincanCore

/// Imports an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (OpenAPI 2.0): one request per
/// operation, grouped by tag, with path parameters as variables, examples for parameters and
/// bodies, servers as environments of the variable `baseUrl`, and security schemes as auth
/// with variables. Optional query, header and cookie parameters are imported turned off,
/// required ones on.
struct OpenAPIImporter {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    /// The variable every request URL starts with: the first server's URL, or an environment's.
    static let baseVariable = "baseUrl"

    /// Which specification the document follows.
    enum Version {
        /// Swagger 2.0: `host`, `basePath`, `schemes`, `consumes`, body and formData parameters.
        case swagger2
        /// OpenAPI 3.0 or 3.1: `servers`, `requestBody`, `components`.
        case openAPI3
    }

    let document: ImportDocument
    var version = Version.openAPI3
    var references: OpenAPIReferences
    var notCarried: [String] = []
    var variables: OrderedDictionary<String, ParameterValue> = [:]
    /// Recursive schemas already reported, so a schema used by many operations is named once.
    var reportedRecursion: Set<String> = []
    /// The values examples built from schemas may still hold in this document, and how many
    /// were kept short once they were spent.
    var documentValuesLeft = OpenAPIImporter.documentExampleValues
    var shortenedExamples = 0
    /// Security schemes already reported as partly carried over.
    var reportedSchemes: Set<String> = []
    var schemes: [String: ImportNode] = [:]
    /// Swagger 2.0's document-wide `consumes`.
    var consumes: [String] = []
    /// Told how many requests are made, as they are.
    var progress: ImportProgress?

    init(document: ImportDocument) {
        self.document = document
        references = OpenAPIReferences(document: document)
    }

    mutating func run() throws -> ImportedCollection {
        let root = document.root
        if let swagger = root.member("swagger") {
            guard swagger.text == "2.0" else {
                throw document.error(at: swagger, "expected Swagger 2.0 (`swagger: \"2.0\"`) or OpenAPI 3.x, found swagger: \(swagger.text ?? "a collection")")
            }
            version = .swagger2
        } else {
            guard let openapi = root.member("openapi") else {
                throw document.error(at: nil, "expected \(CollectionFormat.openapi.expected)")
            }
            guard let text = openapi.text, text.hasPrefix("3.") else {
                throw document.error(at: openapi, "expected an OpenAPI 3.x document (an `openapi: 3.x` key) or Swagger 2.0, found openapi: \(openapi.text ?? "a collection")")
            }
        }
        var session = Session(name: root.member("info")?.member("title")?.nonNullText ?? "Imported from OpenAPI")
        session.description = root.member("info")?.member("description")?.nonNullText
        session.environments = version == .swagger2 ? swaggerServers(root) : try servers(root.member("servers"))
        variables[Self.baseVariable] = session.environments.values.first?[Self.baseVariable] ?? .string("")
        if session.environments.isEmpty {
            notCarried.append("servers: the document names none, so the variable \(Self.baseVariable) is empty; set it to the API's URL")
        }
        let schemeNodes = version == .swagger2 ? root.member("securityDefinitions") : root.member("components")?.member("securitySchemes")
        for member in schemeNodes?.members ?? [] {
            if let scheme = try resolved(member.value, place: "security scheme '\(member.key)'") { schemes[member.key] = scheme }
        }
        consumes = root.member("consumes")?.sequence?.compactMap(\.nonNullText) ?? []
        let security = root.member("security")
        if let alternatives = security?.sequence, alternatives.count > 1 {
            notCarried.append("security: the first of \(alternatives.count) alternatives is used; these are not carried over: \(alternatives.dropFirst().map { $0.members.map(\.key).joined(separator: " and ") }.joined(separator: ", "))")
        }
        // OpenAPI 3.1 lets a document describe webhooks alone: there is no request to import.
        let webhooksOnly = root.member("paths") == nil && !(root.member("webhooks")?.members.isEmpty ?? true)
        guard let paths = root.member("paths") ?? (webhooksOnly ? ImportNode.mapping([], at: .unknown) : nil) else {
            throw document.error(at: nil, "the \(version == .swagger2 ? "Swagger" : "OpenAPI") document has no paths: (the operations to import)")
        }
        guard paths.isMapping else { throw document.error(at: paths, "expected paths: to be a mapping of paths such as /pets to their operations") }
        var groups: OrderedDictionary<String, [SavedRequest]> = [:]
        var ungrouped: [SavedRequest] = []
        var imported = 0
        for member in paths.members where !member.key.hasPrefix("x-") {
            var path = member.key
            if !path.hasPrefix("/") {
                // OpenAPI asks for a leading slash; a document without one means the same path,
                // which joined to the server as written would run into its host or port.
                notCarried.append("path \(path): a path starts with /; it is read as /\(path)")
                path = "/" + path
            }
            guard let item = try resolved(member.value, place: "path \(path)") else { continue }
            let shared = item.member("parameters")?.sequence ?? []
            if item.member("servers") != nil { notCarried.append("path \(path): its own servers are not carried over; the requests use \(Self.baseVariable)") }
            for operationMember in item.members where Self.methods.contains(operationMember.key) {
                var request = try self.request(method: operationMember.key, path: path, operation: operationMember.value, shared: shared, security: security)
                imported += 1
                if imported % 64 == 0 { progress?(.importing(requests: imported)) }
                if let tag = operationMember.value.member("tags")?.sequence?.first?.nonNullText, let group = groupPath([tag]) {
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
        if let note = shortenedExamplesNote { notCarried.append(note) }
        return ImportedCollection(session: session, notCarried: notCarried)
    }

    /// A node with its `$ref`s followed; nil (reported) for a reference to another file.
    mutating func resolved(_ node: ImportNode, place: String) throws -> ImportNode? {
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
    mutating func servers(_ node: ImportNode?) throws -> OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> {
        var environments: OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> = [:]
        guard let node, node.nonNullText != nil || node.sequence != nil else { return environments }
        for server in try document.list(node, "a list of servers, each with url:") {
            var url = try document.text(server.member("url") ?? server, "a server URL")
            for member in server.member("variables")?.members ?? [] {
                let value = member.value.member("default")?.text ?? member.value.member("enum")?.sequence?.first?.text ?? ""
                url = url.replacingOccurrences(of: "{\(member.key)}", with: value)
            }
            addServer(url, name: server.member("description")?.nonNullText, to: &environments)
        }
        return environments
    }

    /// A server's URL (trailing slashes cut) as an environment.
    mutating func addServer(_ url: String, name: String?, to environments: inout OrderedDictionary<String, OrderedDictionary<String, ParameterValue>>) {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        if !url.contains("://") {
            notCarried.append("server '\(url.isEmpty ? "/" : url)': a URL relative to where the document is served; set \(Self.baseVariable) to an absolute URL")
        }
        var name = name ?? (url.isEmpty ? "/" : url)
        if environments[name] != nil { name += " (\(environments.count + 1))" }
        environments[name] = [Self.baseVariable: .string(url)]
    }

    // MARK: - Operations

    mutating func request(method: String, path: String, operation: ImportNode, shared: [ImportNode], security: ImportNode?) throws -> SavedRequest {
        let name = operation.member("operationId")?.nonNullText ?? operation.member("summary")?.nonNullText ?? "\(method.uppercased()) \(path)"
        let place = "request '\(name)'"
        var request = SavedRequest(name: name, method: method.uppercased(), url: "{{\(Self.baseVariable)}}" + path.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}"))
        // Operation parameters replace the path item's of the same name and location.
        var parameters: OrderedDictionary<String, (name: String, location: String, node: ImportNode)> = [:]
        for node in shared + (operation.member("parameters")?.sequence ?? []) {
            guard let parameter = try resolved(node, place: place) else { continue }
            let name = try document.text(parameter.member("name") ?? parameter, "a parameter name")
            let location = try document.text(parameter.member("in") ?? parameter, "where the parameter goes: path, query, header or cookie")
            parameters["\(location) \(name)"] = (name, location, parameter)
        }
        var cookies: [(text: String, required: Bool)] = []
        var bodyParameters: [(name: String, location: String, node: ImportNode)] = []
        for (name, location, parameter) in parameters.values {
            let required = parameter.member("required")?.isTrue ?? false
            switch location {
            case "path":
                let value = try parameterExample(parameter, place: "\(place), parameter '\(name)'") ?? .string("")
                if variables[name] == nil { variables[name] = .string(value.importedText) }
            case "query":
                let value = try parameterExample(parameter, place: "\(place), parameter '\(name)'") ?? .string("")
                request.query += queryFields(name, value, parameter: parameter, enabled: required)
            case "header":
                if ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                    notCarried.append("\(place): the header parameter \(name) is ignored, as OpenAPI says; the body's media type and the security scheme set it")
                } else {
                    let value = try parameterExample(parameter, place: "\(place), parameter '\(name)'") ?? .string("")
                    request.headers.append(HeaderSetting(name: name, value: value.importedText, isEnabled: required))
                }
            case "cookie":
                let value = try parameterExample(parameter, place: "\(place), parameter '\(name)'") ?? .string("")
                cookies.append(("\(name)=\(value.importedText)", required))
            case "body" where version == .swagger2, "formData" where version == .swagger2:
                bodyParameters.append((name, location, parameter))
            default: throw document.error(at: parameter.member("in"), "'\(location)' is not a parameter location; expected \(version == .swagger2 ? "path, query, header, body or formData" : "path, query, header or cookie")")
            }
        }
        if !cookies.isEmpty {
            // One Cookie header: on when any of its cookies is required.
            request.headers.append(HeaderSetting(name: "Cookie", value: cookies.map(\.text).joined(separator: "; "), isEnabled: cookies.contains { $0.required }))
        }
        for name in Template.references(in: request.url) where variables[name] == nil {
            variables[name] = .string("")
            notCarried.append("\(place): the path names {\(name)}, which no parameter describes; the variable \(name) is empty")
        }
        if version == .swagger2 {
            try addSwaggerBody(bodyParameters, operation: operation, to: &request, place: place)
        } else if let body = operation.member("requestBody"), let resolvedBody = try resolved(body, place: place) {
            try addBody(resolvedBody, to: &request, place: place)
        }
        let requirements = operation.member("security") ?? security
        if let alternatives = requirements?.sequence, let first = alternatives.first {
            if operation.member("security") != nil, alternatives.count > 1 {
                notCarried.append("\(place): the first of \(alternatives.count) security alternatives is used; the others are not carried over")
            }
            for member in first.members { applySecurity(member.key, to: &request) }
        }
        if let callbacks = operation.member("callbacks"), !callbacks.members.isEmpty {
            notCarried.append("\(place): callbacks (\(callbacks.members.map(\.key).joined(separator: ", "))) are not carried over: they are requests the API sends")
        }
        if operation.member("servers") != nil { notCarried.append("\(place): its own servers are not carried over; it uses \(Self.baseVariable)") }
        return request
    }

    /// A parameter's example: its own, its `content`'s, else its schema's (Swagger 2.0: its
    /// `x-example`, else its own type, `default` and `enum`, which sit on the parameter itself).
    mutating func parameterExample(_ parameter: ImportNode, place: String) throws -> ParameterValue? {
        if let content = parameter.member("content")?.members.first?.value { return try example(of: content, place: place) }
        if version == .swagger2, parameter.member("schema") == nil {
            if let example = parameter.member("x-example") { return example.parameterValue }
            return try example(ofSchema: parameter, place: place)
        }
        return try example(of: parameter, place: place)
    }

    /// A query parameter's fields, serialized as its style says: OpenAPI 3's `form` (exploded
    /// by default: one field per array item, per object member), `spaceDelimited`,
    /// `pipeDelimited`, `deepObject`; Swagger 2.0's `collectionFormat` (`csv` by default, `multi`
    /// one field per item).
    func queryFields(_ name: String, _ value: ParameterValue, parameter: ImportNode, enabled: Bool) -> [QuerySetting] {
        func field(_ name: String, _ text: String) -> QuerySetting { QuerySetting(name: name, value: text, isEnabled: enabled) }
        let style = parameter.member("style")?.nonNullText ?? "form"
        let explode = parameter.member("explode").map(\.isTrue) ?? (style == "form")
        switch value {
        case .array(let items) where !items.contains(where: \.isCollection):
            let texts = items.map(\.importedText)
            if version == .swagger2 {
                switch parameter.member("collectionFormat")?.nonNullText ?? "csv" {
                case "multi": return texts.map { field(name, $0) }
                case "ssv": return [field(name, texts.joined(separator: " "))]
                case "tsv": return [field(name, texts.joined(separator: "\t"))]
                case "pipes": return [field(name, texts.joined(separator: "|"))]
                default: return [field(name, texts.joined(separator: ","))]
                }
            }
            switch style {
            case "spaceDelimited": return [field(name, texts.joined(separator: " "))]
            case "pipeDelimited": return [field(name, texts.joined(separator: "|"))]
            default: return explode ? texts.map { field(name, $0) } : [field(name, texts.joined(separator: ","))]
            }
        case .dictionary(let members) where version == .openAPI3 && !members.values.contains(where: \.isCollection):
            if style == "deepObject" { return members.map { field("\(name)[\($0.key)]", $0.value.importedText) } }
            if explode { return members.map { field($0.key, $0.value.importedText) } }
            return [field(name, members.map { "\($0.key),\($0.value.importedText)" }.joined(separator: ","))]
        default:
            return [field(name, value.importedText)]
        }
    }

    // MARK: - Bodies

    mutating func addBody(_ body: ImportNode, to request: inout SavedRequest, place: String) throws {
        let content = body.member("content")?.members ?? []
        let preferred = content.first { Self.isJSON($0.key) }
            ?? content.first { $0.key.lowercased().hasPrefix("application/x-www-form-urlencoded") }
            ?? content.first { $0.key.lowercased().hasPrefix("multipart/form-data") }
            ?? content.first
        guard let preferred else { return }
        let type = preferred.key
        let media = preferred.value
        let others = content.map(\.key).filter { $0 != type }
        if !others.isEmpty { notCarried.append("\(place): the body is imported as \(type); the other media types are not carried over: \(others.joined(separator: ", "))") }
        let value = try example(of: media, place: place)
        var binaryFields: [String] = []
        if type.lowercased().hasPrefix("multipart/form-data"), let node = media.member("schema"), case .node(let schema, _) = try references.resolve(node) {
            for member in schema.member("properties")?.members ?? [] where try isBinary(member.value) { binaryFields.append(member.key) }
        }
        var isFile = false
        if let schema = media.member("schema") { isFile = try isBinary(schema) }
        setBody(type: type, value: value, binaryFields: binaryFields, isFile: isFile, to: &request, place: place)
    }

    /// A body of `type` whose example is `value`: JSON as the JSON serializer's parameters, a
    /// form as the form serializer's (a multipart one's `binaryFields` named as files to add),
    /// anything else as text with its Content-Type (a file, `isFile`, named). GET, HEAD and
    /// DELETE keep text bodies, since those methods put parameters in the query.
    mutating func setBody(type: String, value: ParameterValue?, binaryFields: [String], isFile: Bool, to request: inout SavedRequest, place: String) {
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
        } else if lowered.hasPrefix("multipart/form-data"), !sendsParametersInQuery, case .dictionary(var fields)? = value {
            request.serializer = .multipart
            for field in binaryFields {
                fields[field] = nil
                notCarried.append("\(place): the file field '\(field)' is not carried over; add it under files: with the file's path")
            }
            if !fields.isEmpty { request.params = .dictionary(fields) }
        } else {
            request.headers.append(HeaderSetting(name: "Content-Type", value: type))
            if isFile {
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
            if reportedSchemes.insert(name).inserted {
                notCarried.append("security: '\(name)' is not in \(version == .swagger2 ? "securityDefinitions" : "components.securitySchemes"), so it is not carried over")
            }
            return
        }
        let type = scheme.member("type")?.nonNullText ?? ""
        switch (type, scheme.member("scheme")?.nonNullText?.lowercased()) {
        case ("http", "basic"?), ("http", "digest"?), ("basic", _):
            request.auth = SavedAuth(scheme: scheme.member("scheme")?.nonNullText?.lowercased() == "digest" ? .digest : .basic, user: "{{username}}", password: "{{password}}")
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
            let field = scheme.member("name")?.nonNullText ?? name
            switch scheme.member("in")?.nonNullText {
            case "query": request.query.append(QuerySetting(name: field, value: "{{\(name)}}"))
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
