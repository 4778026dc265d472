import Foundation
import OrderedCollections
import TincanCore
import Yams

/// Imports an Insomnia v4 export: requests, folders (`request_group` parent chains) as
/// groups, the base environment's data as variables and its sub-environments as
/// environments. Insomnia's `{{ _.name }}` becomes `{{name}}`.
struct InsomniaImporter {
    let document: ImportDocument
    var notCarried: [String] = []
    var variables: OrderedDictionary<String, ParameterValue> = [:]

    init(document: ImportDocument) {
        self.document = document
    }

    mutating func run() throws -> ImportedCollection {
        let root = document.root
        guard root.member("_type")?.text == "export", let format = root.member("__export_format") else {
            throw document.error(at: root.member("_type"), "expected an Insomnia v4 export (`_type: export` and `__export_format: 4`)")
        }
        guard format.text == "4" else {
            throw document.error(at: format, "expected an Insomnia v4 export (`__export_format: 4`), found format \(format.text ?? "that is not a number")")
        }
        let resources = try document.list(root.member("resources") ?? root, "resources: a list of the export's requests, folders and environments")
        var byID: [String: Node] = [:]
        for resource in resources {
            if let id = resource.member("_id")?.text { byID[id] = resource }
        }
        var session = Session()
        var groups: [String: [String]] = [:]
        var requests: [SavedRequest] = []
        for resource in resources {
            let type = resource.member("_type")?.text ?? ""
            let name = resource.member("name")?.text ?? ""
            switch type {
            case "workspace":
                if session.name == nil { session.name = name }
            case "request":
                var request = try self.request(resource, name: name)
                request.group = try group(of: resource, byID: byID, memo: &groups)
                requests.append(request)
            case "request_group":
                addVariables(flattened(resource.member("environment")), place: "folder '\(name)'")
            case "environment":
                let parent = resource.member("parentId")?.text.flatMap { byID[$0] }
                let data = flattened(resource.member("data"))
                if parent?.member("_type")?.text == "environment" {
                    session.environments[name.isEmpty ? "environment \(session.environments.count + 1)" : name] = data
                } else {
                    addVariables(data, place: "environment '\(name)'")
                }
            default:
                notCarried.append("\(type.isEmpty ? "a resource" : type) '\(name)' is not carried over")
            }
        }
        session.requests = requests
        session.variables = variables
        if session.name == nil { session.name = "Imported from Insomnia" }
        return ImportedCollection(session: session, notCarried: notCarried)
    }

    /// The folder path of a resource: its `request_group` parents' names, outermost first.
    func group(of resource: Node, byID: [String: Node], memo: inout [String: [String]]) throws -> String? {
        var names: [String] = []
        var seen: Set<String> = []
        var parent = resource.member("parentId")?.text
        while let id = parent, let node = byID[id], node.member("_type")?.text == "request_group" {
            if let known = memo[id] {
                names = known + names
                break
            }
            guard seen.insert(id).inserted else {
                throw document.error(at: node, "the folder \(id) is its own parent (through parentId); expected a chain that ends at the workspace")
            }
            names.insert(node.member("name")?.text ?? "", at: 0)
            parent = node.member("parentId")?.text
        }
        if let id = resource.member("parentId")?.text { memo[id] = names }
        return groupPath(names)
    }

    /// Environment data as variables: nested objects flattened to dotted names (`api.url`), as
    /// Insomnia's `{{ _.api.url }}` reads them.
    func flattened(_ node: Node?) -> OrderedDictionary<String, ParameterValue> {
        var result: OrderedDictionary<String, ParameterValue> = [:]
        func add(_ value: ParameterValue, prefix: String) {
            if case .dictionary(let members) = value, !prefix.isEmpty || !members.isEmpty {
                for (key, member) in members { add(member, prefix: prefix.isEmpty ? key : "\(prefix).\(key)") }
            } else if !prefix.isEmpty {
                result[prefix] = value.scalarText.map { .string(Self.convert($0)) } ?? value
            }
        }
        if let node { add(node.parameterValue, prefix: "") }
        return result
    }

    mutating func addVariables(_ data: OrderedDictionary<String, ParameterValue>, place: String) {
        for (key, value) in data {
            if let line = NotCarried.add(key, value, to: &variables, place: place) { notCarried.append(line) }
        }
    }

    // MARK: - Requests

    mutating func request(_ resource: Node, name: String) throws -> SavedRequest {
        let place = "request '\(name)'"
        var request = SavedRequest(name: name, method: resource.member("method")?.text?.uppercased() ?? "GET", url: convert(resource.member("url")?.text ?? "", place: place))
        for parameter in resource.member("parameters")?.sequence ?? [] {
            let field = parameter.member("name")?.text ?? ""
            if parameter.member("disabled")?.isTrue ?? false {
                notCarried.append(NotCarried.disabledField(place, "query", field))
            } else {
                request.query.append((convert(field, place: place), convert(parameter.member("value")?.text ?? "", place: place)))
            }
        }
        for header in resource.member("headers")?.sequence ?? [] {
            guard let field = header.member("name")?.text, !field.isEmpty else { continue }
            request.headers.append(HeaderSetting(name: field, value: convert(header.member("value")?.text ?? "", place: place), isEnabled: !(header.member("disabled")?.isTrue ?? false)))
        }
        if let body = resource.member("body") { addBody(body, to: &request, place: place) }
        if let auth = resource.member("authentication") { apply(auth, to: &request, place: place) }
        for script in ["preRequestScript", "afterResponseScript"] {
            if let text = resource.member(script)?.text, !text.trimmingWhitespaceAndNewlines().isEmpty {
                notCarried.append("\(place): the \(script) is not carried over; use capture: and assert: instead")
            }
        }
        return request
    }

    mutating func addBody(_ body: Node, to request: inout SavedRequest, place: String) {
        let type = body.member("mimeType")?.text?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") || type.hasPrefix("multipart/form-data") {
            var fields: OrderedDictionary<String, ParameterValue> = [:]
            request.serializer = type.hasPrefix("multipart") ? .multipart : .form
            for parameter in body.member("params")?.sequence ?? [] {
                let field = convert(parameter.member("name")?.text ?? "", place: place)
                if parameter.member("disabled")?.isTrue ?? false {
                    notCarried.append(NotCarried.disabledField(place, "form", field))
                } else if parameter.member("type")?.text == "file" {
                    if let path = parameter.member("fileName")?.text, !path.isEmpty, request.serializer == .multipart {
                        request.files.append(SavedFile(field: field, path: path))
                    } else {
                        notCarried.append(NotCarried.fileWithoutPath(place, field))
                    }
                } else {
                    do {
                        try FormFields.insert(field, convert(parameter.member("value")?.text ?? "", place: place), into: &fields, source: place)
                    } catch {
                        notCarried.append("\(error), so it is not carried over")
                    }
                }
            }
            if !fields.isEmpty { request.params = .dictionary(fields) }
        } else if let file = body.member("fileName")?.text, !file.isEmpty {
            request.upload = SavedUpload(file: file)
        } else if let text = body.member("text")?.text {
            let converted = convert(text, place: place)
            if (Self.isJSON(type) || type == "application/graphql"), !RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method),
               let value = try? JSONParser.parse(bytes: Array(converted.utf8)), value.isCollection {
                request.serializer = .json
                request.params = value
            } else if !converted.isEmpty {
                request.body = .text(converted)
            }
        }
        if type == "application/graphql", !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") }) {
            request.headers.append(HeaderSetting(name: "Content-Type", value: "application/json"))
        }
    }

    static func isJSON(_ type: String) -> Bool { OpenAPIImporter.isJSON(type) }

    mutating func apply(_ auth: Node, to request: inout SavedRequest, place: String) {
        guard let type = auth.member("type")?.text, type != "none" else { return }
        if auth.member("disabled")?.isTrue ?? false {
            notCarried.append("\(place): the disabled \(type) auth is not carried over")
            return
        }
        func value(_ key: String) -> String { Self.convert(auth.member(key)?.parameterValue.importedText ?? "") }
        switch type {
        case "basic", "digest":
            request.auth = SavedAuth(scheme: type == "digest" ? .digest : .basic, user: value("username"), password: value("password"))
        case "bearer":
            let prefix = value("prefix")
            request.headers.append(HeaderSetting(name: "Authorization", value: "\(prefix.isEmpty ? "Bearer" : prefix) \(value("token"))"))
        case "apikey":
            switch auth.member("addTo")?.text {
            case "queryParams": request.query.append((value("key"), value("value")))
            case "cookie": request.headers.append(HeaderSetting(name: "Cookie", value: "\(value("key"))=\(value("value"))"))
            default: request.headers.append(HeaderSetting(name: value("key"), value: value("value")))
            }
        default:
            notCarried.append(NotCarried.auth(place, type))
        }
    }

    // MARK: - Templates

    /// Text with Insomnia's references (`{{ _.name }}`, `{{ name }}`) as Tincan's; a template
    /// tag (`{% response … %}`) is kept as written and reported.
    mutating func convert(_ text: String, place: String) -> String {
        if text.contains("{%") { notCarried.append("\(place): a template tag ({% … %}) in '\(text)' is kept as written; Tincan does not run Insomnia's tags") }
        return Self.convert(text)
    }

    /// `{{ _.name }}` and `{{ name }}` as `{{name}}`.
    static func convert(_ text: String) -> String {
        Template.replacingReferences(in: text) { name in "{{\(name.hasPrefix("_.") ? String(name.dropFirst(2)) : name)}}" }
    }
}
