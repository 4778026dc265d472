import Foundation
import OrderedCollections
import TincanCore

/// Imports an Insomnia export: v4 (`_type: export`, `__export_format: 4`, a flat list of
/// resources joined by `parentId`) or v5 (`type: collection.insomnia.rest/5.0`, the YAML of
/// current releases, folders holding their `children`). Both become one tree, read the same way.
///
/// Folders (`request_group`) become groups, and what Insomnia applies from them applies here:
/// their headers go before the request's own (a name in both is sent with both values, as
/// Insomnia's libcurl joins them), the nearest folder's auth serves a request with none, and
/// their environments are the requests' variables (``FolderVariables``). The base environment
/// is the session's variables, sub-environments its environments. `{{ _.name }}`,
/// `{{ _['name-with-dashes'] }}` and `{{ name }}` become `{{name}}`.
struct InsomniaImporter {
    /// A folder or request of the tree, with the folders above it.
    enum Item {
        case folder(ImportNode, children: [Item])
        case request(ImportNode)
        /// Anything else (a gRPC or WebSocket request, a test suite…): its kind and name.
        case other(kind: String, name: String)
    }

    /// Which export format the file is.
    enum Version {
        case v4
        case v5
    }

    let document: ImportDocument
    var version = Version.v4
    var notCarried: [String] = []
    var variables: OrderedDictionary<String, ParameterValue> = [:]
    var requests: [SavedRequest] = []
    var folderVariables = FolderVariables()
    /// Told how many requests are made, as they are.
    var progress: ImportProgress?

    init(document: ImportDocument) {
        self.document = document
    }

    /// Whether the document is a v5 file (a `type:` of `…insomnia.rest/5.0`).
    static func isVersion5(_ document: ImportDocument) -> Bool {
        document.root.member("type")?.text?.hasSuffix(".insomnia.rest/5.0") == true
    }

    mutating func run() throws -> ImportedCollection {
        var session = Session()
        let tree: [Item]
        if Self.isVersion5(document) {
            version = .v5
            tree = try version5Tree(&session)
        } else {
            tree = try version4Tree(&session)
        }
        walk(tree, folders: [], headers: [], auths: [], scopes: [])
        session.requests = requests
        session.variables = variables
        folderVariables.place(into: &session)
        if session.name == nil { session.name = "Imported from Insomnia" }
        return ImportedCollection(session: session, notCarried: notCarried)
    }

    // MARK: - The tree

    /// v4: the resources joined by `parentId`, siblings in `metaSortKey` order (file order when
    /// there is none); the workspace names the session, environments fill its variables.
    mutating func version4Tree(_ session: inout Session) throws -> [Item] {
        let root = document.root
        guard root.member("_type")?.text == "export", let format = root.member("__export_format") else {
            throw document.error(at: root.member("_type") ?? root.member("type"), "expected \(CollectionFormat.insomnia.expected)")
        }
        guard format.text == "4" else {
            throw document.error(at: format, "expected an Insomnia v4 export (`__export_format: 4`) or v5, found format \(format.text ?? "that is not a number"); export it again from a current Insomnia")
        }
        let resources = try document.list(root.member("resources") ?? root, "resources: a list of the export's requests, folders and environments")
        var byID: [String: ImportNode] = [:]
        for resource in resources {
            if let id = resource.member("_id")?.text { byID[id] = resource }
        }
        try checkFolderChains(resources, byID: byID)
        var children: [String: [ImportNode]] = [:]
        var roots: [ImportNode] = []
        for resource in resources {
            let type = resource.member("_type")?.text ?? ""
            let name = resource.member("name")?.nonNullText ?? ""
            switch type {
            case "workspace":
                if session.name == nil { session.name = name }
                continue
            // An empty cookie jar or design document says nothing a session leaves out.
            case "cookie_jar" where resource.member("cookies")?.sequence?.isEmpty ?? true: continue
            case "api_spec" where (resource.member("contents")?.nonNullText ?? "").isEmpty: continue
            case "environment":
                let parent = resource.member("parentId")?.text.flatMap { byID[$0] }
                let data = flattened(resource.member("data"))
                if parent?.member("_type")?.text == "environment" {
                    session.environments[name.isEmpty ? "environment \(session.environments.count + 1)" : name] = data
                } else {
                    addVariables(data, place: "environment '\(name)'")
                }
                continue
            default: break
            }
            if let parent = resource.member("parentId")?.text, byID[parent]?.member("_type")?.text == "request_group" {
                children[parent, default: []].append(resource)
            } else {
                roots.append(resource)
            }
        }
        func items(_ nodes: [ImportNode]) -> [Item] {
            Self.sorted(nodes).map { node in
                let type = node.member("_type")?.text ?? ""
                switch type {
                case "request": return .request(node)
                case "request_group": return .folder(node, children: items(children[node.member("_id")?.text ?? ""] ?? []))
                default: return .other(kind: type.isEmpty ? "a resource" : type, name: node.member("name")?.nonNullText ?? "")
                }
            }
        }
        return items(roots)
    }

    /// Siblings in `metaSortKey` order (v5: `meta.sortKey`) when each request and folder has
    /// one, as Insomnia's sidebar lists them (a cookie jar or a design document, which it does
    /// not list, after them); else as given. `listing`: every node is a request or a folder.
    static func sorted(_ nodes: [ImportNode], listing: Bool = false) -> [ImportNode] {
        let isListed = nodes.map { listing || $0.member("metaSortKey") != nil || ["request", "request_group"].contains($0.member("_type")?.text ?? "") }
        let listed = zip(nodes, isListed).filter(\.1).map(\.0)
        let others = zip(nodes, isListed).filter { !$0.1 }.map(\.0)
        let keys = listed.map { node -> Double? in
            switch (node.member("metaSortKey") ?? node.member("meta")?.member("sortKey"))?.parameterValue {
            case .integer(let value)?: Double(value)
            case .double(let value)?: value
            default: nil
            }
        }
        guard !keys.isEmpty, keys.allSatisfy({ $0 != nil }) else { return nodes }
        return zip(listed, keys).enumerated().sorted { ($0.element.1!, $0.offset) < ($1.element.1!, $1.offset) }.map(\.element.0) + others
    }

    /// A folder whose `parentId` chain comes back to it is refused at the folder.
    func checkFolderChains(_ resources: [ImportNode], byID: [String: ImportNode]) throws {
        var settled: Set<String> = []
        for resource in resources where resource.member("_type")?.text == "request_group" {
            var seen: [String] = []
            var current = resource
            while let id = current.member("_id")?.text, !settled.contains(id) {
                if seen.contains(id) {
                    let node = byID[id] ?? resource
                    throw document.error(at: node, "the folder \(id) is its own parent (through parentId); expected a chain that ends at the workspace")
                }
                seen.append(id)
                guard let parent = current.member("parentId")?.text, let next = byID[parent], next.member("_type")?.text == "request_group" else { break }
                current = next
            }
            settled.formUnion(seen)
        }
    }

    /// v5: `collection:` holds the tree itself; `environments:` the base environment, with its
    /// `subEnvironments`.
    mutating func version5Tree(_ session: inout Session) throws -> [Item] {
        let root = document.root
        let type = root.member("type")?.text ?? ""
        guard type == "collection.insomnia.rest/5.0" || type == "spec.insomnia.rest/5.0" else {
            throw document.error(at: root.member("type"), "this is an Insomnia \(type) file; expected a collection (collection.insomnia.rest/5.0) or a design document with one (spec.insomnia.rest/5.0)")
        }
        session.name = root.member("name")?.nonNullText
        session.description = root.member("meta")?.member("description")?.nonNullText.flatMap { $0.isEmpty ? nil : $0 }
        if let environments = root.member("environments") {
            addVariables(flattened(environments.member("data")), place: "environment '\(environments.member("name")?.nonNullText ?? "base")'")
            for sub in environments.member("subEnvironments")?.sequence ?? [] {
                let name = sub.member("name")?.nonNullText ?? ""
                session.environments[name.isEmpty ? "environment \(session.environments.count + 1)" : name] = flattened(sub.member("data"))
            }
        }
        if let cookies = root.member("cookieJar")?.member("cookies")?.sequence, !cookies.isEmpty {
            notCarried.append("cookieJar: its \(cookies.count) cookie\(cookies.count == 1 ? " is" : "s are") not carried over")
        }
        for key in ["certificates", "testSuites"] {
            if let items = root.member(key)?.sequence, !items.isEmpty { notCarried.append("\(key) are not carried over") }
        }
        if root.member("spec") != nil { notCarried.append("spec: the design document is not carried over (import it with tincan import openapi)") }
        func items(_ node: ImportNode?) throws -> [Item] {
            guard let node, node.nonNullText != nil || node.sequence != nil else { return [] }
            return try Self.sorted(document.list(node, "a list of requests and folders"), listing: true).map { child in
                if child.member("children") != nil || (child.member("method") == nil && child.member("url") == nil) {
                    return .folder(child, children: try items(child.member("children")))
                }
                if child.member("method") != nil { return .request(child) }
                let id = child.member("meta")?.member("id")?.text ?? ""
                let kind = id.hasPrefix("ws-req") ? "WebSocket request" : id.hasPrefix("socketio-req") ? "Socket.IO request" : id.hasPrefix("greq") ? "gRPC request" : "request without a method"
                return .other(kind: kind, name: child.member("name")?.nonNullText ?? "")
            }
        }
        return try items(root.member("collection"))
    }

    /// Each request with what its folders give it: headers (outermost first), auth (nearest
    /// first) and variables (outermost first).
    mutating func walk(_ tree: [Item], folders: [String], headers: [HeaderSetting], auths: [ImportNode], scopes: [OrderedDictionary<String, ParameterValue>]) {
        for item in tree {
            switch item {
            case .folder(let node, let children):
                let name = node.member("name")?.nonNullText ?? ""
                let path = folders + [name]
                let place = "folder '\(path.joined(separator: "/"))'"
                notCarryScripts(node, place: place)
                var folderHeaders = headers
                for header in node.member("headers")?.sequence ?? [] {
                    guard let field = header.member("name")?.nonNullText.map({ convert($0, place: place) }), !field.isEmpty else { continue }
                    folderHeaders.append(HeaderSetting(name: field, value: convert(header.member("value")?.parameterValue.importedText ?? "", place: place),
                                                       isEnabled: !(header.member("disabled")?.isTrue ?? false)))
                }
                var folderAuths = auths
                if let auth = node.member("authentication"), Self.isAuth(auth) { folderAuths.insert(auth, at: 0) }
                walk(children, folders: path, headers: folderHeaders, auths: folderAuths, scopes: scopes + [flattened(node.member("environment"))])
            case .request(let node):
                var request = self.request(node, inheritedHeaders: headers, auths: auths, scopes: scopes)
                request.group = groupPath(folders)
                requests.append(request)
                if requests.count % 64 == 0 { progress?(.importing(requests: requests.count)) }
            case .other(let kind, let name):
                notCarried.append("\(kind) '\(name)' is not carried over")
            }
        }
    }

    /// Whether an auth object sets one (Insomnia: a `type`, and not turned off); `{}` inherits.
    static func isAuth(_ auth: ImportNode) -> Bool {
        auth.member("type")?.nonNullText != nil && !(auth.member("disabled")?.isTrue ?? false)
    }

    /// Environment data as variables: nested objects flattened to dotted names (`api.url`), as
    /// Insomnia's `{{ _.api.url }}` reads them.
    func flattened(_ node: ImportNode?) -> OrderedDictionary<String, ParameterValue> {
        var result: OrderedDictionary<String, ParameterValue> = [:]
        func add(_ value: ParameterValue, prefix: String) {
            if case .dictionary(let members) = value, !prefix.isEmpty || !members.isEmpty {
                for (key, member) in members { add(member, prefix: prefix.isEmpty ? key : "\(prefix).\(key)") }
            } else if !prefix.isEmpty {
                // Text may hold references; numbers and booleans keep their type.
                if case .string(let text) = value { result[prefix] = .string(Self.convert(text)) } else { result[prefix] = value }
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

    /// A folder's or request's scripts, each named.
    mutating func notCarryScripts(_ node: ImportNode, place: String) {
        let scripts: [(String, ImportNode?)] = version == .v5
            ? [("pre-request script", node.member("scripts")?.member("preRequest")), ("after-response script", node.member("scripts")?.member("afterResponse"))]
            : [("pre-request script", node.member("preRequestScript")), ("after-response script", node.member("afterResponseScript"))]
        for (kind, script) in scripts {
            guard let text = script?.nonNullText, !text.trimmingWhitespaceAndNewlines().isEmpty else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            notCarried.append("\(place): the \(kind) (\(lines) line\(lines == 1 ? "" : "s")) is not carried over; use capture: and assert: instead")
        }
    }
}
