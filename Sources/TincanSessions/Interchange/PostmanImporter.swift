import Foundation
import OrderedCollections
import TincanCore
import Yams

/// Imports a Postman v2.1 collection: folders as groups, collection and folder variables,
/// basic, digest, bearer and API-key auth (inherited from folders), and the raw, urlencoded,
/// formdata, file and graphql bodies. Postman's `{{name}}` is already Tincan's.
struct PostmanImporter {
    let document: ImportDocument
    var notCarried: [String] = []
    var variables: OrderedDictionary<String, ParameterValue> = [:]
    var requests: [SavedRequest] = []

    init(document: ImportDocument) {
        self.document = document
    }

    mutating func run() throws -> ImportedCollection {
        let root = document.root
        let info = root.member("info")
        let schema = info?.member("schema")?.text ?? ""
        guard schema.contains("/collection/v2.1") else {
            throw document.error(at: info?.member("schema") ?? info, "expected a Postman v2.1 collection (`info.schema` naming collection/v2.1.0)" + (schema.isEmpty ? "" : ", found \(schema)"))
        }
        let name = info?.member("name")?.text ?? "Imported from Postman"
        try addVariables(root.member("variable"), place: "collection")
        notCarry(events: root.member("event"), place: "collection")
        try items(root.member("item"), folders: [], auth: root.member("auth"))
        var session = Session(name: name)
        session.description = info?.member("description")?.text
        session.variables = variables
        session.requests = requests
        return ImportedCollection(session: session, notCarried: notCarried)
    }

    /// Folders (items with `item:`) and requests, in order; `auth` is the nearest folder's.
    mutating func items(_ node: Node?, folders: [String], auth: Node?) throws {
        guard let node else { return }
        for item in try document.list(node, "a list of items (requests and folders)") {
            let name = item.member("name")?.text ?? ""
            let place = "item '\((folders + [name]).joined(separator: "/"))'"
            notCarry(events: item.member("event"), place: place)
            let itemAuth = Self.inherited(item.member("auth")) ?? auth
            if let children = item.member("item") {
                try addVariables(item.member("variable"), place: "folder '\(name)'")
                try items(children, folders: folders + [name], auth: itemAuth)
            } else if let request = item.member("request") {
                var saved = try self.request(request, name: name, place: place)
                saved.group = groupPath(folders)
                apply(Self.inherited(request.member("auth")) ?? itemAuth, to: &saved, place: place)
                if let responses = item.member("response")?.sequence, !responses.isEmpty {
                    notCarried.append("\(place): \(responses.count) saved example response\(responses.count == 1 ? " is" : "s are") not carried over")
                }
                requests.append(saved)
            } else {
                throw document.error(at: item, "expected an item with request: (a request) or item: (a folder)")
            }
        }
    }

    /// A request: its URL (`:name` path variables become `{{name}}`), method, headers and body.
    mutating func request(_ node: Node, name: String, place: String) throws -> SavedRequest {
        if let url = node.text { return SavedRequest(name: name, url: Self.convertPathVariables(url)) }
        var request = SavedRequest(name: name, method: node.member("method")?.text?.uppercased() ?? "GET", url: try url(node.member("url"), place: place))
        for header in node.member("header")?.sequence ?? [] {
            // A header may also be written as one line, `Name: value`.
            if let line = header.text.flatMap({ try? HeaderLine(parsing: $0) }) {
                request.headers.append(HeaderSetting(name: line.name, value: line.value))
                continue
            }
            guard let key = header.member("key")?.text else {
                notCarried.append("\(place): the header \(header.text ?? "without a key") is not carried over")
                continue
            }
            request.headers.append(HeaderSetting(name: key, value: header.member("value")?.text ?? "", isEnabled: !(header.member("disabled")?.isTrue ?? false)))
        }
        if let body = node.member("body"), !(body.member("disabled")?.isTrue ?? false) {
            try addBody(body, to: &request, place: place)
        }
        return request
    }

    /// The URL: `raw`, else built from its parts; path variables become variables.
    mutating func url(_ node: Node?, place: String) throws -> String {
        guard let node else { return "" }
        if let text = node.text { return Self.convertPathVariables(text) }
        var url: String
        if let raw = node.member("raw")?.text {
            url = raw
        } else {
            let host = node.member("host").map { $0.text ?? ($0.sequence?.compactMap(\.text).joined(separator: ".") ?? "") } ?? ""
            let path = node.member("path").map { $0.text ?? ($0.sequence?.compactMap(\.text).joined(separator: "/") ?? "") } ?? ""
            url = (node.member("protocol")?.text.map { "\($0)://" } ?? "") + host + (path.isEmpty ? "" : "/" + path)
            let query = (node.member("query")?.sequence ?? []).filter { !($0.member("disabled")?.isTrue ?? false) }
                .map { "\($0.member("key")?.text ?? "")=\($0.member("value")?.text ?? "")" }
            if !query.isEmpty { url += "?" + query.joined(separator: "&") }
        }
        for field in node.member("query")?.sequence ?? [] where field.member("disabled")?.isTrue ?? false {
            notCarried.append(NotCarried.disabledField(place, "query", field.member("key")?.text ?? ""))
        }
        for variable in node.member("variable")?.sequence ?? [] {
            guard let key = variable.member("key")?.text, variables[key] == nil else { continue }
            variables[key] = .string(variable.member("value")?.parameterValue.importedText ?? "")
        }
        return Self.convertPathVariables(url)
    }

    /// `/:id` path segments as `/{{id}}`.
    static func convertPathVariables(_ url: String) -> String {
        guard url.contains("/:") else { return url }
        var result = ""
        var rest = Substring(url)
        while let range = rest.range(of: "/:") {
            result += rest[..<range.upperBound].dropLast()
            rest = rest[range.upperBound...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
            if name.isEmpty {
                result += ":"
            } else {
                result += "{{\(name)}}"
                rest = rest.dropFirst(name.count)
            }
        }
        return result + rest
    }

    // MARK: - Bodies

    mutating func addBody(_ body: Node, to request: inout SavedRequest, place: String) throws {
        switch body.member("mode")?.text ?? "" {
        case "":
            break
        case "raw":
            let text = body.member("raw")?.text ?? ""
            let language = body.member("options")?.member("raw")?.member("language")?.text
            setText(text, json: language == "json", to: &request)
        case "urlencoded":
            request.serializer = .form
            request.params = fields(body.member("urlencoded"), place: place).parameters
        case "formdata":
            request.serializer = .multipart
            (request.params, request.files) = fields(body.member("formdata"), place: place)
        case "file":
            if let source = body.member("file")?.member("src")?.text, !source.isEmpty {
                request.upload = SavedUpload(file: source)
            } else {
                notCarried.append("\(place): the file body names no file, so it is not carried over")
            }
        case "graphql":
            let graphql = body.member("graphql")
            let variablesText = graphql?.member("variables")?.text ?? ""
            var variables = ParameterValue.dictionary([:])
            if !variablesText.trimmingWhitespaceAndNewlines().isEmpty {
                if let parsed = try? JSONParser.parse(bytes: Array(variablesText.utf8)) {
                    variables = parsed
                } else {
                    notCarried.append("\(place): the GraphQL variables are not JSON, so they are left out: \(variablesText)")
                }
            }
            request.serializer = .json
            request.params = .dictionary(["query": .string(graphql?.member("query")?.text ?? ""), "variables": variables])
        case let mode:
            notCarried.append("\(place): the body mode \(mode) is not carried over")
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

    /// Form fields as parameters; file fields of a multipart form become file parts, disabled
    /// fields are reported.
    mutating func fields(_ node: Node?, place: String) -> (parameters: ParameterValue?, files: [SavedFile]) {
        var fields: OrderedDictionary<String, ParameterValue> = [:]
        var files: [SavedFile] = []
        for field in node?.sequence ?? [] {
            let key = field.member("key")?.text ?? ""
            if field.member("disabled")?.isTrue ?? false {
                notCarried.append(NotCarried.disabledField(place, "form", key))
                continue
            }
            if field.member("type")?.text == "file" {
                let sources = field.member("src").map { $0.text.map { [$0] } ?? ($0.sequence?.compactMap(\.text) ?? []) } ?? []
                if sources.isEmpty { notCarried.append(NotCarried.fileWithoutPath(place, key)) }
                files += sources.map { SavedFile(field: key, path: $0, type: field.member("contentType")?.text) }
                continue
            }
            do {
                try FormFields.insert(key, field.member("value")?.text ?? "", into: &fields, source: place)
            } catch {
                notCarried.append("\(error), so it is not carried over")
            }
        }
        return (fields.isEmpty ? nil : .dictionary(fields), files)
    }
}
