import Foundation
import OrderedCollections
import TincanCore

/// A session as a Postman collection v2.1 (`tincan export --format postman`), as the
/// collection format's schema defines it: groups as folders, variables as the collection's
/// (a request's own as its item's), headers (defaults included) with those turned off kept
/// off, query fields, auth, bodies, redirects, and captures and checks as a test script.
extension CollectionExport {
    /// The schema URL a v2.1 collection names.
    public static let postmanSchema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    /// The session as one Postman collection file; `environment` is the one whose values the
    /// collection's variables take (Postman keeps environments in files of their own).
    public func postman(_ session: Session, environment: String? = nil) -> Exported {
        var warnings = Self.unsaid(session, format: "Postman")
        var hidden = false
        let (requests, skipped) = exportable(session)
        var variables = session.variables
        if let environment, let values = session.environments[environment] {
            for (name, value) in values { variables[name] = value }
        }
        let others = session.environments.keys.filter { $0 != environment }
        if !others.isEmpty {
            warnings.append("environments: \(others.joined(separator: ", ")) are not carried over; Postman keeps environments in files of their own (--env NAME gives one's values to the collection's variables)")
        }
        var root = Folder()
        for request in requests {
            var item = postmanItem(request, session: session, warnings: &warnings, hidden: &hidden)
            item["name"] = .string(request.name ?? request.displayName)
            root.insert(item, at: request.group?.split(separator: "/").map(String.init) ?? [])
        }
        var info: OrderedDictionary<String, ParameterValue> = ["name": .string(session.name ?? "Tincan session")]
        if let description = session.description { info["description"] = .string(description) }
        info["schema"] = .string(Self.postmanSchema)
        var collection: OrderedDictionary<String, ParameterValue> = ["info": .dictionary(info), "item": .array(root.items)]
        if !variables.isEmpty {
            collection["variable"] = .array(variables.map { name, value in
                Self.postmanVariable(name, secret(value, name: name, hidden: &hidden))
            })
        }
        if hidden { warnings.append(Self.hiddenWarning) }
        let text = Self.postmanReferences(JSONWriter.string(.dictionary(collection), indent: 2) + "\n", warnings: &warnings)
        return Exported(files: [("collection.postman_collection.json", text)], warnings: warnings, skipped: skipped)
    }

    /// Tincan's built-ins as Postman writes them: `{{$uuid}}` is `{{$guid}}`; Postman reads no
    /// process environment, so `{{$env.NAME}}` is written `{{NAME}}`, named, for an environment to set.
    static func postmanReferences(_ text: String, warnings: inout [String]) -> String {
        var environment: [String] = []
        let converted = replacingBuiltins(in: text) { name in
            if name.hasPrefix("$env.") {
                let key = String(name.dropFirst(5))
                if !environment.contains(key) { environment.append(key) }
                return "{{\(key)}}"
            }
            return name == "$uuid" ? "{{$guid}}" : nil
        }
        for key in environment {
            warnings.append("{{$env.\(key)}} is written as {{\(key)}}: Postman reads no process environment; set \(key) in a Postman environment")
        }
        return converted
    }

    /// Postman's folders, built from groups as requests come.
    struct Folder {
        var items: [ParameterValue] = []
        var folders: [String: (index: Int, folder: Box)] = [:]

        /// A folder in a folder (a class, so a child folder is changed in place).
        final class Box {
            var folder = Folder()
        }

        mutating func insert(_ item: OrderedDictionary<String, ParameterValue>, at path: [String]) {
            guard let first = path.first else {
                items.append(.dictionary(item))
                return
            }
            if folders[first] == nil {
                folders[first] = (items.count, Box())
                items.append(.null)
            }
            let (index, box) = folders[first]!
            box.folder.insert(item, at: Array(path.dropFirst()))
            items[index] = .dictionary(["name": .string(first), "item": .array(box.folder.items)])
        }
    }

    /// A variable as Postman writes one: text as a string, numbers and booleans typed.
    static func postmanVariable(_ name: String, _ value: ParameterValue) -> ParameterValue {
        let type = switch value {
        case .integer, .double: "number"
        case .bool: "boolean"
        case .string: "string"
        default: "any"
        }
        return .dictionary(["key": .string(name), "value": value == .null ? .string("") : value, "type": .string(type)])
    }

    func postmanItem(_ request: SavedRequest, session: Session, warnings: inout [String], hidden: inout Bool) -> OrderedDictionary<String, ParameterValue> {
        let place = "request '\(request.displayName)'"
        warnings += Self.unsaid(request, place: place, format: "Postman")
        var url = Self.url(of: request, base: session.base)
        var body: ParameterValue?
        let serializer = request.serializer ?? session.defaults.serializer ?? .form
        let paramsInQuery = RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method.uppercased())
        if serializer == .multipart || !request.files.isEmpty {
            // Multipart fields always go in the body, whatever the method, in the order Tincan sends them.
            var fields: [ParameterValue] = []
            if case .dictionary(let members)? = request.params {
                fields = QueryString.pairs(members).map { pair in
                    .dictionary(["key": .string(pair.field), "value": .string(secret(pair.value ?? "", name: pair.field, hidden: &hidden)), "type": "text"])
                }
            }
            for file in request.files {
                var field: OrderedDictionary<String, ParameterValue> = ["key": .string(file.field), "type": "file", "src": .string(file.path)]
                if let type = file.type { field["contentType"] = .string(type) }
                fields.append(.dictionary(field))
            }
            body = .dictionary(["mode": "formdata", "formdata": .array(fields)])
        } else if let params = request.params, case .dictionary(let members) = params, paramsInQuery, !members.isEmpty {
            // Tincan sends a GET's parameters in the query, encoded as AFNetworking does.
            let query = Self.query(members)
            url += (url.contains("?") ? "&" : "?") + query
        } else if let params = request.params, serializer == .json {
            body = .dictionary(["mode": "raw", "raw": .string(JSONWriter.string(params, indent: 2)), "options": ["raw": ["language": "json"]]])
        } else if serializer == .form, case .dictionary(let members)? = request.params {
            body = .dictionary(["mode": "urlencoded", "urlencoded": .array(QueryString.pairs(members).map { pair in
                .dictionary(["key": .string(pair.field), "value": .string(secret(pair.value ?? "", name: pair.field, hidden: &hidden)), "type": "text"])
            })])
        } else if request.params != nil {
            warnings.append("\(place): the \(serializer.rawValue) serializer's body is not carried over; Postman sends no property lists")
        }
        switch request.body {
        case .text(let text)?:
            var raw: OrderedDictionary<String, ParameterValue> = ["mode": "raw", "raw": .string(text)]
            let type = request.headers.last { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }?.value ?? ""
            if let language = Self.postmanLanguage(type) { raw["options"] = ["raw": ["language": .string(language)]] }
            body = .dictionary(raw)
        case .file(let path)?:
            body = .dictionary(["mode": "file", "file": ["src": .string(path)]])
        case .graphql(let operation)?:
            // Postman keeps the variables as JSON text.
            var graphql: OrderedDictionary<String, ParameterValue> = ["query": .string(operation.query)]
            if let variables = operation.variables { graphql["variables"] = .string(JSONWriter.string(variables, indent: 2)) }
            if let name = operation.operationName { graphql["operationName"] = .string(name) }
            body = .dictionary(["mode": "graphql", "graphql": .dictionary(graphql)])
        case .base64?, nil: break
        }
        if let upload = request.upload { body = .dictionary(["mode": "file", "file": ["src": .string(upload.file)]]) }

        var postmanRequest: OrderedDictionary<String, ParameterValue> = ["method": .string(request.method.uppercased())]
        if let auth = request.auth, auth.scheme == .oauth2 {
            if let settings = CollectionOAuth2.settings(of: auth, CollectionOAuth2.postman, secret: { secret($0, name: $1, hidden: &hidden) }) {
                postmanRequest["auth"] = .dictionary(["type": "oauth2", "oauth2": .array(settings.map { .dictionary(["key": .string($0.key), "value": .string($0.value), "type": "string"]) })])
            } else {
                warnings.append("\(request.displayName): auth: oauth2's \(auth.oauth2?.grant.rawValue ?? "") grant is not carried over; Postman has no such grant")
            }
        } else if let auth = request.auth {
            let type = auth.scheme == .digest ? "digest" : "basic"
            postmanRequest["auth"] = .dictionary(["type": .string(type), type: .array([
                ["key": "username", "value": .string(auth.user), "type": "string"],
                ["key": "password", "value": .string(secret(auth.password, name: "password", hidden: &hidden)), "type": "string"],
            ])])
        }
        postmanRequest["header"] = .array(Self.headers(of: request, defaults: session.defaults.headers).compactMap { header in
            guard let value = header.value else { return nil }
            var field: OrderedDictionary<String, ParameterValue> = ["key": .string(header.name), "value": .string(secret(value, name: header.name, hidden: &hidden))]
            if !header.isEnabled { field["disabled"] = .bool(true) }
            return .dictionary(field)
        })
        if let body { postmanRequest["body"] = body }
        postmanRequest["url"] = postmanURL(url, disabled: request.query.filter { !$0.isEnabled }, hidden: &hidden)
        var item: OrderedDictionary<String, ParameterValue> = ["name": .string(request.displayName)]
        if !request.variables.isEmpty {
            item["variable"] = .array(request.variables.map { Self.postmanVariable($0.key, secret($0.value, name: $0.key, hidden: &hidden)) })
        }
        let script = PostmanTestScript.lines(for: request, place: place, warnings: &warnings)
        if !script.isEmpty {
            item["event"] = .array([.dictionary(["listen": "test", "script": .dictionary(["type": "text/javascript", "exec": .array(script.map(ParameterValue.string))])])])
        }
        item["request"] = .dictionary(postmanRequest)
        var behavior: OrderedDictionary<String, ParameterValue> = [:]
        if let follow = request.flow.followRedirects { behavior["followRedirects"] = .bool(follow) }
        if let maximum = request.flow.maxRedirects { behavior["maxRedirects"] = .integer(Int64(maximum)) }
        if !behavior.isEmpty { item["protocolProfileBehavior"] = .dictionary(behavior) }
        if request.maxTime != nil { warnings.append("\(place): max-time: is not carried over (Postman's timeout is an application setting)") }
        return item
    }

    /// The language Postman names a raw body's type by.
    static func postmanLanguage(_ contentType: String) -> String? {
        let essence = MIMEType.essence(of: contentType) ?? ""
        if OpenAPIImporter.isJSON(essence) { return "json" }
        if essence.hasSuffix("xml") { return "xml" }
        if essence == "text/html" { return "html" }
        if essence.hasSuffix("javascript") { return "javascript" }
        if essence == "text/plain" { return "text" }
        return nil
    }

    /// A URL as Postman's `url` object: `raw` and its parts, as Postman's own parser splits it,
    /// with the query fields turned off added (they are never in `raw`).
    func postmanURL(_ raw: String, disabled: [QuerySetting], hidden: inout Bool) -> ParameterValue {
        var url: OrderedDictionary<String, ParameterValue> = ["raw": .string(raw)]
        var rest = Substring(raw)
        if let hash = rest.firstIndex(of: "#") {
            url["hash"] = .string(String(rest[rest.index(after: hash)...]))
            rest = rest[..<hash]
        }
        var query: [ParameterValue] = []
        if let question = rest.firstIndex(of: "?") {
            for field in rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true) {
                let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                var entry: OrderedDictionary<String, ParameterValue> = ["key": .string(String(parts[0]))]
                entry["value"] = parts.count > 1 ? .string(secret(String(parts[1]), name: String(parts[0]), hidden: &hidden)) : .null
                query.append(.dictionary(entry))
            }
            rest = rest[..<question]
        }
        if let scheme = rest.range(of: "://") {
            url["protocol"] = .string(String(rest[..<scheme.lowerBound]))
            rest = rest[scheme.upperBound...]
        }
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var host = rest[..<hostEnd]
        if let colon = host.lastIndex(of: ":"), !host[host.index(after: colon)...].isEmpty, host[host.index(after: colon)...].allSatisfy(\.isNumber) {
            url["port"] = .string(String(host[host.index(after: colon)...]))
            host = host[..<colon]
        }
        url["host"] = .array(host.split(separator: ".", omittingEmptySubsequences: false).map { .string(String($0)) })
        let path = rest[hostEnd...].dropFirst()
        if hostEnd != rest.endIndex {
            url["path"] = .array(path.split(separator: "/", omittingEmptySubsequences: false).map { .string(String($0)) })
        }
        for field in disabled {
            query.append(.dictionary(["key": .string(field.name), "value": .string(secret(field.value, name: field.name, hidden: &hidden)), "disabled": .bool(true)]))
        }
        if !query.isEmpty { url["query"] = .array(query) }
        return .dictionary(url)
    }
}
