import Foundation
import OrderedCollections
import TincanCore

/// Imports a Postman collection, v2.1 or v2.0 (whose auth settings are objects rather than
/// lists): folders as groups, collection variables as the session's, folder variables for the
/// requests under them (``FolderVariables``), auth inherited from the nearest folder, disabled
/// headers and query fields turned off, and the raw, urlencoded, formdata, file and graphql
/// bodies, as the collection format's schema (schema.postman.com) defines them.
/// Postman's `{{name}}` is already Tincan's.
struct PostmanImporter {
    let document: ImportDocument
    var notCarried: [String] = []
    var variables: OrderedDictionary<String, ParameterValue> = [:]
    var requests: [SavedRequest] = []
    var folderVariables = FolderVariables()
    /// Told how many requests are made, as they are.
    var progress: ImportProgress?

    init(document: ImportDocument) {
        self.document = document
    }

    mutating func run() throws -> ImportedCollection {
        // The Postman API answers with the collection under `collection:`.
        var root = document.root
        if root.member("info") == nil, let wrapped = root.member("collection"), wrapped.member("info") != nil { root = wrapped }
        let info = root.member("info")
        let schemaNode = info?.member("schema")
        let schema = schemaNode?.text ?? ""
        // Postman reads any collection with `info` and `item` as v2 (its transformer asks for
        // `info.schema` alone): v2.1, v2.0 and the drafts before them (`collection/v2/`).
        // v2.0's auth objects and v2.1's lists are told apart where they are read.
        let namesVersion2 = schema.contains("/collection/v2") || schema.contains("#2.")
        if schema.contains("/collection/v1") || (!namesVersion2 && root.member("item") == nil && (root.member("requests") != nil || root.member("order") != nil)) {
            throw document.error(at: root.member("requests") ?? root.member("order") ?? schemaNode, "this is a Postman v1 collection; expected v2.1 or v2.0 (export it again from Postman as Collection v2.1)")
        }
        guard info != nil, namesVersion2 || (root.member("item")?.sequence != nil && (schema.isEmpty || schema.contains("getpostman.com") || schema.contains("postman.com"))) else {
            throw document.error(at: schemaNode ?? info, "expected \(CollectionFormat.postman.expected)" + (schema.isEmpty ? "" : ", found \(schema)"))
        }
        let name = info?.member("name")?.nonNullText ?? "Imported from Postman"
        try addVariables(root.member("variable"), place: "collection")
        notCarry(events: root.member("event"), place: "collection")
        try items(root.member("item"), folders: [], auth: root.member("auth"), scopes: [])
        var session = Session(name: name)
        session.description = Self.description(info?.member("description"))
        session.variables = variables
        session.requests = requests
        folderVariables.place(into: &session)
        return ImportedCollection(session: session, notCarried: notCarried)
    }

    /// A description: text, or `{content: …}`.
    static func description(_ node: ImportNode?) -> String? {
        (node?.member("content") ?? node)?.nonNullText.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Folders (items with `item:`) and requests, in order; `auth` is the nearest folder's,
    /// `scopes` the folders' variables, outermost first.
    mutating func items(_ node: ImportNode?, folders: [String], auth: ImportNode?, scopes: [OrderedDictionary<String, ParameterValue>]) throws {
        guard let node, node.nonNullText != nil || node.sequence != nil else { return }
        for item in try document.list(node, "a list of items (requests and folders)") {
            let name = item.member("name")?.nonNullText ?? ""
            let place = "item '\((folders + [name]).joined(separator: "/"))'"
            notCarry(events: item.member("event"), place: place)
            let itemAuth = Self.inherited(item.member("auth")) ?? auth
            if let children = item.member("item") {
                let scope = try folderScope(item.member("variable"), place: "folder '\((folders + [name]).joined(separator: "/"))'")
                try items(children, folders: folders + [name], auth: itemAuth, scopes: scopes + [scope])
            } else if let request = item.member("request") {
                var saved = try self.request(request, name: name, place: place)
                saved.group = groupPath(folders)
                apply(Self.inherited(request.member("auth")) ?? itemAuth, to: &saved, place: place)
                flow(item.member("protocolProfileBehavior"), into: &saved, place: place)
                if let responses = item.member("response")?.sequence, !responses.isEmpty {
                    notCarried.append("\(place): \(responses.count) saved example response\(responses.count == 1 ? " is" : "s are") not carried over")
                }
                folderVariables.note(scopes + [pathVariables(request.member("url")), try folderScope(item.member("variable"), place: place)], forRequest: requests.count)
                requests.append(saved)
                if requests.count % 64 == 0 { progress?(.importing(requests: requests.count)) }
            } else {
                throw document.error(at: item, "expected an item with request: (a request) or item: (a folder)")
            }
        }
    }

    /// A request: its URL (`:name` path variables become `{{name}}`), method, headers and body.
    mutating func request(_ node: ImportNode, name: String, place: String) throws -> SavedRequest {
        if let url = node.text { return SavedRequest(name: name, url: withDefaultScheme(Self.convert(Self.convertPathVariables(url)))) }
        let method = node.member("method")?.nonNullText?.uppercased() ?? "GET"
        var request = SavedRequest(name: name, method: method, url: "")
        let address = try url(node.member("url"), into: &request, place: place)
        request.url = withDefaultScheme(address)
        headers(node.member("header"), into: &request, place: place)
        if let body = node.member("body"), body.isMapping, !(body.member("disabled")?.isTrue ?? false) {
            try addBody(body, to: &request, place: place)
        }
        for field in ["proxy", "certificate"] where node.member(field)?.isMapping == true {
            notCarried.append("\(place): its own \(field) setting is not carried over (Tincan's are session-wide: defaults:)")
        }
        return request
    }

    /// `header:`: a list of `{key, value, disabled}`, or `Name: value` lines in one text.
    mutating func headers(_ node: ImportNode?, into request: inout SavedRequest, place: String) {
        let lines = node?.text.map { $0.split(whereSeparator: \.isNewline).map { ImportNode.scalar(ImportScalar(text: String($0), kind: .string, place: .unknown)) } }
        for header in lines ?? node?.sequence ?? [] {
            // A header may also be written as one line, `Name: value`.
            if let line = header.text.flatMap({ try? HeaderLine(parsing: $0) }) {
                request.headers.append(HeaderSetting(name: line.name, value: Self.convert(line.value)))
                continue
            }
            guard let key = header.member("key")?.nonNullText, !key.isEmpty else {
                notCarried.append("\(place): the header \(header.text ?? "without a key") is not carried over")
                continue
            }
            let value = Self.convert(header.member("value")?.parameterValue.importedText ?? "")
            request.headers.append(HeaderSetting(name: key, value: value, isEnabled: !(header.member("disabled")?.isTrue ?? false)))
        }
    }

    /// The URL: `raw`, else built from its parts; `:name` path segments become `{{name}}`.
    /// Disabled query fields are kept in `request`, turned off (they are never in `raw`).
    mutating func url(_ node: ImportNode?, into request: inout SavedRequest, place: String) throws -> String {
        // `url: null` (a request saved before it had one) is no URL, not the text null.
        guard let node, node.isMapping || node.nonNullText != nil else { return "" }
        if let text = node.text { return Self.convert(Self.convertPathVariables(text)) }
        var url: String
        let query = node.member("query")?.sequence ?? []
        if let raw = node.member("raw")?.nonNullText {
            url = raw
        } else {
            let host = node.member("host").map { $0.text ?? ($0.sequence?.compactMap(\.text).joined(separator: ".") ?? "") } ?? ""
            let path = node.member("path").map { $0.text ?? ($0.sequence?.compactMap { $0.text ?? $0.member("value")?.text }.joined(separator: "/") ?? "") } ?? ""
            let port = node.member("port")?.nonNullText.map { ":\($0)" } ?? ""
            url = (node.member("protocol")?.nonNullText.map { "\($0)://" } ?? "") + host + port + (path.isEmpty ? "" : "/" + path)
            let enabled = query.filter { !($0.member("disabled")?.isTrue ?? false) }
                .map { field in
                    let value = field.member("value")?.nonNullText
                    return (field.member("key")?.nonNullText ?? "") + (value.map { "=\($0)" } ?? "")
                }
            if !enabled.isEmpty { url += "?" + enabled.joined(separator: "&") }
            if let hash = node.member("hash")?.nonNullText, !hash.isEmpty { url += "#" + hash }
        }
        for field in query where field.member("disabled")?.isTrue ?? false {
            request.query.append(QuerySetting(name: Self.convert(field.member("key")?.nonNullText ?? ""),
                                              value: Self.convert(field.member("value")?.nonNullText ?? ""), isEnabled: false))
        }
        return Self.convert(Self.convertPathVariables(url))
    }

    /// A request's path variables (`url.variable`), the innermost layer of its variables.
    func pathVariables(_ url: ImportNode?) -> OrderedDictionary<String, ParameterValue> {
        var values: OrderedDictionary<String, ParameterValue> = [:]
        for variable in url?.member("variable")?.sequence ?? [] {
            guard let key = (variable.member("key") ?? variable.member("id"))?.nonNullText, !key.isEmpty else { continue }
            values[key] = .string(variable.member("value")?.parameterValue.importedText ?? "")
        }
        return values
    }

    /// `/:id` path segments as `/{{id}}` (with `only`, just the names it holds).
    static func convertPathVariables(_ url: String, only names: Set<String>? = nil) -> String {
        guard url.contains("/:") else { return url }
        var result = ""
        var rest = Substring(url)
        while let range = rest.range(of: "/:") {
            result += rest[..<range.upperBound].dropLast()
            rest = rest[range.upperBound...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
            if name.isEmpty || names.map({ !$0.contains(String(name)) }) == true {
                result += ":"
            } else {
                result += "{{\(name)}}"
                rest = rest.dropFirst(name.count)
            }
        }
        return result + rest
    }

    /// Postman's dynamic variables as Tincan's built-ins (`{{$guid}}` is `{{$uuid}}`); one
    /// Tincan has no equivalent for (`{{$randomInt}}`) is named by ``ImportChecks``.
    static func convert(_ text: String) -> String {
        guard text.contains("{{$") else { return text }
        return Template.replacingReferences(in: text) { name in
            name == "$guid" || name == "$randomUUID" ? "{{$uuid}}" : "{{\(name)}}"
        }
    }

    /// `protocolProfileBehavior`: redirects are carried over, the rest named.
    mutating func flow(_ node: ImportNode?, into request: inout SavedRequest, place: String) {
        for member in node?.members ?? [] {
            switch member.key {
            // Following redirects is what Tincan does unless told: only `false` is written.
            case "followRedirects": request.flow.followRedirects = member.value.isTrue ? nil : false
            case "maxRedirects":
                if case .integer(let count) = member.value.parameterValue, (0...1_000).contains(count) { request.flow.maxRedirects = Int(count) }
            case "disableBodyPruning": break
            default: notCarried.append("\(place): the setting \(member.key) is not carried over")
            }
        }
    }

    // MARK: - Bodies

    mutating func addBody(_ body: ImportNode, to request: inout SavedRequest, place: String) throws {
        switch body.member("mode")?.nonNullText ?? "" {
        case "":
            break
        case "raw":
            let text = Self.convert(body.member("raw")?.parameterValue.importedText ?? "")
            let language = body.member("options")?.member("raw")?.member("language")?.nonNullText
            setText(text, json: language == "json", to: &request)
            // Postman names the type from the language when the request does not.
            if !text.isEmpty, request.serializer != .json, let type = Self.rawContentType(language),
               !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }) {
                request.headers.append(HeaderSetting(name: "Content-Type", value: type))
            }
        case "urlencoded":
            var pairs: [(name: String, value: String)] = []
            for field in body.member("urlencoded")?.sequence ?? [] {
                let key = Self.convert(field.member("key")?.nonNullText ?? "")
                if field.member("disabled")?.isTrue ?? false {
                    notCarried.append(NotCarried.disabledField(place, "form", key))
                } else {
                    pairs.append((key, Self.convert(field.member("value")?.parameterValue.importedText ?? "")))
                }
            }
            FormFields.urlencoded(pairs, into: &request, source: place)
        case "formdata":
            let (params, files) = fields(body.member("formdata"), place: place)
            // A form with no field sent is no body, as Postman sends it.
            guard params != nil || !files.isEmpty else { break }
            request.serializer = .multipart
            (request.params, request.files) = (params, files)
        case "file":
            let file = body.member("file")
            if let source = file?.member("src")?.nonNullText, !source.isEmpty {
                request.upload = SavedUpload(file: source)
            } else if let content = file?.member("content")?.nonNullText {
                request.body = .text(content)
            } else {
                notCarried.append("\(place): the file body names no file, so it is not carried over")
            }
        case "graphql":
            // A GraphQL body (`body: {graphql: …}`), sent as Postman's runtime sends it: query,
            // operationName and variables as JSON; variables written as text are parsed when they
            // are a JSON object, and else (JSON only once `{{variables}}` are filled in) the
            // whole body is kept as text, as Postman sends it.
            let graphql = body.member("graphql")
            var operation = GraphQLQuery(query: "")
            var written: [String] = []
            if let query = graphql?.member("query")?.text {
                operation.query = Self.convert(query)
                written.append("\"query\":" + JSONWriter.string(.string(Self.convert(query))))
            }
            if let name = graphql?.member("operationName")?.text {
                operation.operationName = name
                written.append("\"operationName\":" + JSONWriter.string(.string(name)))
            }
            let variablesNode = graphql?.member("variables")
            if let object = variablesNode, object.isMapping {
                operation.variables = object.parameterValue
            } else if let text = variablesNode?.text.map(Self.convert), !text.trimmingWhitespaceAndNewlines().isEmpty {
                if let parsed = try? JSONParser.parse(bytes: Array(text.utf8)), GraphQLQuery.variablesProblem(parsed) == nil {
                    operation.variables = parsed
                } else {
                    request.body = .text("{" + (written + ["\"variables\":" + text]).joined(separator: ",") + "}")
                    if !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }) {
                        request.headers.append(HeaderSetting(name: "Content-Type", value: "application/json"))
                    }
                    break
                }
            }
            request.body = .graphql(operation)
        case let mode:
            notCarried.append("\(place): the body mode \(mode) is not carried over")
        }
    }

    /// The Content-Type Postman sends for a raw body of a language.
    static func rawContentType(_ language: String?) -> String? {
        switch language {
        case "json": "application/json"
        case "xml": "application/xml"
        case "javascript": "application/javascript"
        case "html": "text/html"
        case "text": "text/plain"
        default: nil
        }
    }

    /// Raw text as the JSON serializer's parameters when it is a JSON object or list (and the
    /// method sends a body), else as the body.
    func setText(_ text: String, json: Bool, to request: inout SavedRequest) {
        if json, !RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method), let value = try? JSONParser.parse(bytes: Array(text.utf8)), value.isCollection {
            request.serializer = .json
            request.params = value
        } else if !text.isEmpty {
            request.body = .text(text)
        }
    }

    /// A multipart form's text fields as parameters and its file fields as file parts; disabled
    /// fields are reported.
    mutating func fields(_ node: ImportNode?, place: String) -> (parameters: ParameterValue?, files: [SavedFile]) {
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        var files: [SavedFile] = []
        for field in node?.sequence ?? [] {
            let key = Self.convert(field.member("key")?.nonNullText ?? "")
            if field.member("disabled")?.isTrue ?? false {
                notCarried.append(NotCarried.disabledField(place, "form", key))
                continue
            }
            if field.member("type")?.nonNullText == "file" {
                let sources = field.member("src").map { $0.nonNullText.map { [$0] } ?? ($0.sequence?.compactMap(\.nonNullText) ?? []) } ?? []
                if sources.isEmpty { notCarried.append(NotCarried.fileWithoutPath(place, key)) }
                files += sources.map { SavedFile(field: key, path: $0, type: field.member("contentType")?.nonNullText) }
                continue
            }
            if let type = field.member("contentType")?.nonNullText, !type.isEmpty {
                notCarried.append("\(place): the form field \(key) is sent without its Content-Type \(type) (Tincan's text fields have none)")
            }
            do {
                try FormFields.insert(key, Self.convert(field.member("value")?.parameterValue.importedText ?? ""), into: &fields, source: place)
            } catch {
                notCarried.append("\(error), so it is not carried over")
            }
        }
        return (fields.isEmpty ? nil : .dictionary(fields), files)
    }
}
