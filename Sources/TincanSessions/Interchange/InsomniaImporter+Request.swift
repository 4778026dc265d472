import Foundation
import OrderedCollections
import TincanCore

/// One Insomnia request (v4 and v5 name the same fields alike, scripts and settings aside).
extension InsomniaImporter {
    /// The request, with its folders' headers and auth; its variables (the folders', then its
    /// path parameters) are noted for it.
    mutating func request(_ node: ImportNode, inheritedHeaders: [HeaderSetting], auths: [ImportNode], scopes: [OrderedDictionary<String, ParameterValue>]) -> SavedRequest {
        let name = node.member("name")?.nonNullText ?? ""
        let place = "request '\(name)'"
        var url = withDefaultScheme(convert(node.member("url")?.nonNullText ?? "", place: place))
        // `:name` path segments that pathParameters lists are Insomnia's path parameters.
        var pathValues: OrderedDictionary<String, ParameterValue> = [:]
        for parameter in node.member("pathParameters")?.sequence ?? [] {
            guard let field = parameter.member("name")?.nonNullText, !field.isEmpty else { continue }
            pathValues[field] = .string(convert(parameter.member("value")?.nonNullText ?? "", place: place))
        }
        if !pathValues.isEmpty { url = PostmanImporter.convertPathVariables(url, only: Set(pathValues.keys)) }
        folderVariables.note(scopes + [pathValues], forRequest: requests.count)
        var request = SavedRequest(name: name, method: node.member("method")?.nonNullText?.uppercased() ?? "GET", url: url)
        request.headers = inheritedHeaders
        for parameter in node.member("parameters")?.sequence ?? [] {
            let field = parameter.member("name")?.nonNullText ?? ""
            guard !field.isEmpty else { continue }
            request.query.append(QuerySetting(name: convert(field, place: place), value: convert(parameter.member("value")?.parameterValue.importedText ?? "", place: place),
                                              isEnabled: !(parameter.member("disabled")?.isTrue ?? false)))
        }
        for header in node.member("headers")?.sequence ?? [] {
            guard let field = header.member("name")?.nonNullText.map({ convert($0, place: place) }), !field.isEmpty else { continue }
            request.headers.append(HeaderSetting(name: field, value: convert(header.member("value")?.parameterValue.importedText ?? "", place: place),
                                                 isEnabled: !(header.member("disabled")?.isTrue ?? false)))
        }
        if let body = node.member("body"), body.isMapping { addBody(body, to: &request, place: place) }
        // The request's own auth when it sets one (`{type: none}` included); else the nearest folder's.
        let own = node.member("authentication")
        if let own, Self.isAuth(own) {
            apply(own, to: &request, place: place)
        } else {
            if let type = own?.member("type")?.nonNullText { notCarried.append("\(place): the disabled \(type) auth is not carried over") }
            if let inherited = auths.first { apply(inherited, to: &request, place: place) }
        }
        notCarryScripts(node, place: place)
        settings(node, into: &request, place: place)
        return request
    }

    /// Redirects (`settings.followRedirects` in v5, `settingFollowRedirects` in v4: `global`,
    /// `on` or `off`); an unencoded URL is named.
    mutating func settings(_ node: ImportNode, into request: inout SavedRequest, place: String) {
        let follow = version == .v5 ? node.member("settings")?.member("followRedirects") : node.member("settingFollowRedirects")
        switch follow?.nonNullText {
        case "on": request.flow.followRedirects = nil  // what Tincan does unless told
        case "off": request.flow.followRedirects = false
        default: break
        }
        let encodes = version == .v5 ? node.member("settings")?.member("encodeUrl") : node.member("settingEncodeUrl")
        if case .bool(false)? = encodes?.parameterValue {
            notCarried.append("\(place): its URL is sent encoded; Insomnia's setting to send it as typed is not carried over")
        }
    }

    mutating func addBody(_ body: ImportNode, to request: inout SavedRequest, place: String) {
        let type = body.member("mimeType")?.nonNullText?.lowercased() ?? ""
        let sendsParametersInQuery = RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method)
        if type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/form-data") {
            var fields: OrderedDictionary<String, ParameterValue> = [:]
            var pairs: [(name: String, value: String)] = []
            let multipart = type.hasPrefix("multipart")
            for parameter in body.member("params")?.sequence ?? [] {
                let field = convert(parameter.member("name")?.nonNullText ?? "", place: place)
                if parameter.member("disabled")?.isTrue ?? false {
                    notCarried.append(NotCarried.disabledField(place, "form", field))
                } else if parameter.member("type")?.nonNullText == "file" {
                    if let path = parameter.member("fileName")?.nonNullText, !path.isEmpty, multipart {
                        request.files.append(SavedFile(field: field, path: path))
                    } else {
                        notCarried.append(NotCarried.fileWithoutPath(place, field))
                    }
                } else {
                    let value = convert(parameter.member("value")?.parameterValue.importedText ?? "", place: place)
                    pairs.append((field, value))
                    guard multipart else { continue }
                    do {
                        try FormFields.insert(field, value, into: &fields, source: place)
                    } catch {
                        notCarried.append("\(error), so it is not carried over")
                    }
                }
            }
            if multipart {
                // A form with no field sent is no body.
                if !fields.isEmpty || !request.files.isEmpty { request.serializer = .multipart }
                if !fields.isEmpty { request.params = .dictionary(fields) }
            } else {
                FormFields.urlencoded(pairs, into: &request, source: place)
            }
        } else if let file = body.member("fileName")?.nonNullText, !file.isEmpty {
            request.upload = SavedUpload(file: file)
        } else if let text = body.member("text")?.nonNullText {
            let converted = convert(text, place: place)
            if OpenAPIImporter.isJSON(type) || type == "application/graphql", !sendsParametersInQuery,
               var value = try? JSONParser.parse(bytes: Array(converted.utf8)), value.isCollection {
                if type == "application/graphql", let text = Self.graphQLVariables(&value) {
                    request.body = .text(text)
                } else if type == "application/graphql", let operation = Self.graphQLOperation(value) {
                    request.body = .graphql(operation)
                } else {
                    request.serializer = .json
                    request.params = value
                }
            } else if !converted.isEmpty {
                request.body = .text(converted)
            }
        }
        if type == "application/graphql", !request.body.isGraphQL, !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) {
            request.headers.append(HeaderSetting(name: "Content-Type", value: "application/json"))
        }
    }

    /// The GraphQL operation Insomnia's body object says (`query`, parsed `variables`,
    /// `operationName`), or nil when it holds other members or no query.
    static func graphQLOperation(_ body: ParameterValue) -> GraphQLQuery? {
        guard case .dictionary(let members) = body, case .string(let query)? = members["query"],
              members.keys.allSatisfy(["query", "variables", "operationName"].contains) else { return nil }
        var operation = GraphQLQuery(query: query)
        switch members["variables"] {
        case nil, .null?: break
        case let variables? where GraphQLQuery.variablesProblem(variables) == nil: operation.variables = variables
        default: return nil
        }
        switch members["operationName"] {
        case nil, .null?: break
        case .string(let name)?: operation.operationName = name
        default: return nil
        }
        return operation
    }

    /// Insomnia keeps a GraphQL body's variables as text, and sends them parsed
    /// (`parseGraphQLReqeustBody`): they become JSON here. Text that is JSON only once its
    /// `{{variables}}` are filled in makes the whole body text, returned, with them in place.
    static func graphQLVariables(_ body: inout ParameterValue) -> String? {
        guard case .dictionary(var members) = body, case .string(let variables)? = members["variables"] else { return nil }
        let trimmed = variables.trimmingWhitespaceAndNewlines()
        if trimmed.isEmpty {
            members["variables"] = nil
        } else if let parsed = try? JSONParser.parse(bytes: Array(trimmed.utf8)) {
            members["variables"] = parsed
        } else {
            members["variables"] = nil
            let rest = JSONWriter.string(.dictionary(members))
            return String(rest.dropLast()) + (members.isEmpty ? "" : ",") + "\"variables\":" + trimmed + "}"
        }
        body = .dictionary(members)
        return nil
    }

    mutating func apply(_ auth: ImportNode, to request: inout SavedRequest, place: String) {
        guard let type = auth.member("type")?.nonNullText, type != "none" else { return }
        if auth.member("disabled")?.isTrue ?? false {
            notCarried.append("\(place): the disabled \(type) auth is not carried over")
            return
        }
        func value(_ key: String) -> String { convert(auth.member(key)?.parameterValue.importedText ?? "", place: place) }
        // Insomnia adds its auth's Authorization header only when the request has none.
        if ["basic", "bearer"].contains(type), request.headers.contains(where: { HTTPHeaders.same($0.name, "Authorization") && $0.isEnabled }) {
            notCarried.append("\(place): its \(type) auth is not sent: the request's own Authorization header is, as Insomnia sends it")
            return
        }
        switch type {
        case "basic", "digest":
            request.auth = SavedAuth(scheme: type == "digest" ? .digest : .basic, user: value("username"), password: value("password"))
        case "bearer":
            let prefix = value("prefix")
            request.headers.append(HeaderSetting(name: "Authorization", value: "\(prefix.isEmpty ? "Bearer" : prefix) \(value("token"))"))
        case "oauth2":
            let (imported, lines) = CollectionOAuth2.read(CollectionOAuth2.insomnia, place: place) { key in
                auth.member(key).map { convert($0.parameterValue.importedText, place: place) }
            }
            notCarried += lines
            if let imported { request.auth = imported }
        case "apikey":
            switch auth.member("addTo")?.nonNullText {
            case "queryParams": request.query.append(QuerySetting(name: value("key"), value: value("value")))
            case "cookie": request.headers.append(HeaderSetting(name: "Cookie", value: "\(value("key"))=\(value("value"))"))
            default: request.headers.append(HeaderSetting(name: value("key"), value: value("value")))
            }
        default:
            notCarried.append(NotCarried.auth(place, type))
        }
    }

    // MARK: - Templates

    /// Text with Insomnia's references as Tincan's (``convert(_:)``); a template tag that has no
    /// equivalent (`{% response … %}`) is kept as written and reported.
    mutating func convert(_ text: String, place: String) -> String {
        var converted = Self.convert(text)
        guard converted.contains("{%") else { return converted }
        converted = Self.convertTags(converted)
        if converted.contains("{%") {
            notCarried.append("\(place): a template tag ({% … %}) in '\(text)' is kept as written; Tincan does not run Insomnia's tags")
        }
        return converted
    }

    /// `{{ _.name }}`, `{{ _['name-with-dashes'] }}`, `{{ _.a['b'] }}` and `{{ name }}` as
    /// `{{name}}` (dotted for nested data, as environments are flattened); anything else kept.
    static func convert(_ text: String) -> String {
        Template.replacingReferences(in: text) { expression in
            variableName(expression).map { "{{\($0)}}" } ?? "{{\(expression)}}"
        }
    }

    /// The variable a Nunjucks expression reads: `_` (optional) and then names joined by `.`
    /// or given as `['name']` / `["name"]`; nil for anything else (a filter, a call).
    static func variableName(_ expression: String) -> String? {
        var rest = Substring(expression.trimmingWhitespace())
        var parts: [String] = []
        func identifier() -> String? {
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" || $0 == "-" }
            guard !name.isEmpty else { return nil }
            rest = rest.dropFirst(name.count)
            return String(name)
        }
        if rest.hasPrefix("_"), rest.dropFirst().first.map({ $0 == "." || $0 == "[" }) ?? false {
            rest = rest.dropFirst()
        } else {
            guard let first = identifier() else { return nil }
            parts.append(first)
        }
        while let next = rest.first {
            if next == "." {
                rest = rest.dropFirst()
                guard let name = identifier() else { return nil }
                parts.append(name)
            } else if next == "[" {
                rest = rest.dropFirst()
                guard let quote = rest.first, quote == "'" || quote == "\"" else { return nil }
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: quote) else { return nil }
                parts.append(String(rest[..<close]))
                rest = rest[rest.index(after: close)...]
                guard rest.first == "]" else { return nil }
                rest = rest.dropFirst()
            } else {
                return nil
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ".")
    }

    /// The tags Tincan has a built-in for: `{% uuid … %}` is `{{$uuid}}`, `{% now 'unix' %}` and
    /// `{% timestamp %}` `{{$timestamp}}`.
    static func convertTags(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{%"), let close = rest[open.upperBound...].range(of: "%}") {
            result += rest[..<open.lowerBound]
            let words = rest[open.upperBound..<close.lowerBound].split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) }
            switch (words.first, words.dropFirst().first) {
            case ("uuid"?, _): result += "{{$uuid}}"
            case ("now"?, "unix"?), ("timestamp"?, _): result += "{{$timestamp}}"
            default: result += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}
