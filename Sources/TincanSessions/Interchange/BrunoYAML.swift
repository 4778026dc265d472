import Foundation
import TincanCore

/// Bruno's YAML collections (the OpenCollection format, Bruno's default for new collections):
/// `opencollection.yml` at the top, `folder.yml` in folders, a `.yml` file for each request and
/// `environments/*.yml`. Each file is read as the `.bru` file it stands for, field by field as
/// Bruno's own reader (`@usebruno/filestore`'s `parseItem`, `parseFolder`, `parseCollection`,
/// `parseEnvironment`) turns it into the same request, so that the rest of the import, and
/// everything it applies (folders, auth, variables, checks), is the same for both.
enum BrunoYAML {
    /// What a YAML file of a collection is.
    enum Role {
        case request
        case folder
        case collection
        case environment
    }

    /// The `.bru` file `document` stands for, or nil for a file that is no request (a script
    /// or an app file), with why.
    static func file(_ document: ImportDocument, as role: Role) throws -> (file: BrunoFile?, skipped: String?) {
        var reader = Reader(document: document)
        switch role {
        case .request: return try reader.request()
        case .folder: return (reader.folder(), nil)
        case .collection: return (reader.collection(), nil)
        case .environment: return (reader.environment(), nil)
        }
    }

    /// The names `opencollection.yml` leaves out of the collection (`extensions.bruno.ignore`).
    static func ignored(_ document: ImportDocument) -> [String] {
        document.root.member("extensions")?.member("bruno")?.member("ignore")?.sequence?.compactMap(\.nonNullText) ?? []
    }

    private struct Reader {
        let document: ImportDocument
        var blocks: [BrunoFile.Block] = []

        init(document: ImportDocument) {
            self.document = document
        }

        var root: ImportNode { document.root }

        func line(_ node: ImportNode?) -> Int {
            document.place(of: node).line ?? 1
        }

        /// A value as Bruno's `ensureString` makes it text: a scalar's text, nothing for null.
        static func string(_ node: ImportNode?) -> String {
            node?.nonNullText ?? ""
        }

        /// `description:` or `docs:` text: a string, or `{content: …}`.
        static func content(_ node: ImportNode?) -> String? {
            guard let node else { return nil }
            let text = node.nonNullText ?? node.member("content")?.nonNullText
            return text.flatMap { $0.trimmingWhitespaceAndNewlines().isEmpty ? nil : $0 }
        }

        mutating func pairs(_ name: String, _ pairs: [BrunoFile.Pair], at node: ImportNode?) {
            guard !pairs.isEmpty else { return }
            blocks.append(BrunoFile.Block(name: name, content: .pairs(pairs), line: line(node)))
        }

        mutating func text(_ name: String, _ text: String?, at node: ImportNode?) {
            guard let text else { return }
            blocks.append(BrunoFile.Block(name: name, content: .text(text), line: line(node)))
        }

        func pair(_ name: String, _ value: String, enabled: Bool = true, at node: ImportNode?) -> BrunoFile.Pair {
            BrunoFile.Pair(name: name, value: value, isEnabled: enabled, line: line(node))
        }

        /// `[{name, value, disabled}]` lists (headers, form fields, params).
        func entries(_ node: ImportNode?) -> [BrunoFile.Pair] {
            (node?.sequence ?? []).map { entry in
                pair(Self.string(entry.member("name")), Self.string(entry.member("value")), enabled: !(entry.member("disabled")?.isTrue ?? false), at: entry)
            }
        }

        /// Variables: a value is text, or `{type, data}` (typed as `@number`, `@boolean`, `@object`).
        func variables(_ node: ImportNode?) -> [BrunoFile.Pair] {
            (node?.sequence ?? []).map { variable in
                var result = pair(Self.string(variable.member("name")), "", enabled: !(variable.member("disabled")?.isTrue ?? false), at: variable)
                let value = variable.member("value")
                if let value, value.isMapping, let data = value.member("data") {
                    result.value = Self.string(data)
                    if let type = value.member("type")?.nonNullText, ["number", "boolean", "object"].contains(type) { result.annotations[type] = "" }
                } else {
                    result.value = Self.string(value)
                }
                return result
            }
        }

        // MARK: - The files

        mutating func request() throws -> (file: BrunoFile?, skipped: String?) {
            let info = root.member("info")
            let type = info?.member("type")?.nonNullText ?? root.member("type")?.nonNullText ?? ""
            var meta = [pair("name", Self.string(info?.member("name")), at: info?.member("name"))]
            if let seq = info?.member("seq")?.nonNullText { meta.append(pair("seq", seq, at: info?.member("seq"))) }
            switch type {
            case "http", "graphql":
                meta.append(pair("type", type, at: info?.member("type")))
                pairs("meta", meta, at: info)
                try http(root.member(type), graphql: type == "graphql")
            case "grpc", "websocket":
                pairs("meta", meta, at: info)
                pairs(type == "grpc" ? "grpc" : "ws", [pair("url", Self.string(root.member(type)?.member("url")), at: root.member(type))], at: root.member(type))
                return (BrunoFile(path: document.path, blocks: blocks), nil)
            case "script", "app":
                return (nil, "a shared \(type) file, which is no request")
            case "":
                return (nil, "no request: it names no type (info.type: http)")
            default:
                return (nil, "a request of type \(type), which Bruno's readers do not name")
            }
            runtime(root.member("runtime"))
            settings(root.member("settings"))
            let docs = [Self.content(info?.member("description")), Self.content(root.member("docs"))].compactMap { $0 }
            text("docs", docs.isEmpty ? nil : docs.joined(separator: "\n\n"), at: root.member("docs"))
            for example in root.member("examples")?.sequence ?? [] {
                text("example", Self.string(example.member("name")), at: example)
            }
            return (BrunoFile(path: document.path, blocks: blocks), nil)
        }

        /// `http:` (or `graphql:`): method, URL, params, headers, auth and body.
        mutating func http(_ node: ImportNode?, graphql: Bool) throws {
            let method = (node?.member("method")?.nonNullText ?? (graphql ? "POST" : "GET"))
            let body = node?.member("body")
            let mode = graphql ? "graphql" : Self.bodyMode(body?.member("type")?.nonNullText)
            let auth = Self.authMode(node?.member("auth"))
            var settings = [pair("url", Self.string(node?.member("url")), at: node?.member("url")), pair("body", mode, at: body), pair("auth", auth, at: node?.member("auth"))]
            if BrunoImporter.methods.contains(method.lowercased()) {
                pairs(method.lowercased(), settings, at: node)
            } else {
                settings.insert(pair("method", method, at: node?.member("method")), at: 0)
                pairs("http", settings, at: node)
            }
            let params = node?.member("params")?.sequence ?? []
            for kind in ["query", "path"] {
                pairs("params:\(kind)", entries(.sequence(params.filter { ($0.member("type")?.nonNullText ?? "query") == kind }, at: .unknown)), at: node?.member("params"))
            }
            pairs("headers", entries(node?.member("headers")), at: node?.member("headers"))
            authBlock(node?.member("auth"), mode: auth)
            if graphql {
                text("body:graphql", Self.string(body?.member("query")), at: body)
                text("body:graphql:vars", body?.member("variables")?.nonNullText, at: body)
            } else {
                bodyBlocks(body, mode: mode)
            }
        }

        /// The `.bru` body mode for an OpenCollection body type.
        static func bodyMode(_ type: String?) -> String {
            switch type {
            case "json", "text", "xml", "sparql", "file": type!
            case "form-urlencoded": "formUrlEncoded"
            case "multipart-form": "multipartForm"
            default: "none"
            }
        }

        /// `auth: inherit`, none when left out, or the type an auth object names.
        static func authMode(_ node: ImportNode?) -> String {
            guard let node else { return "none" }
            if let text = node.nonNullText { return text == "inherit" ? "inherit" : "none" }
            return node.member("type")?.nonNullText ?? "none"
        }

        /// `auth:MODE { … }` from an auth object's fields (an API key's `placement: query` is
        /// `.bru`'s `queryparams`).
        mutating func authBlock(_ node: ImportNode?, mode: String) {
            guard let node, node.isMapping, mode != "none", mode != "inherit" else { return }
            let fields = node.members.filter { $0.key != "type" }.compactMap { member -> BrunoFile.Pair? in
                guard let text = member.value.text else { return nil }
                let value = member.key == "placement" && mode == "apikey" && text == "query" ? "queryparams" : text
                return pair(member.key, member.value.nonNullText == nil ? "" : value, at: member.value)
            }
            pairs("auth:\(mode)", fields, at: node)
        }

        mutating func bodyBlocks(_ body: ImportNode?, mode: String) {
            let data = body?.member("data")
            switch mode {
            case "json", "text", "xml", "sparql":
                text("body:\(mode)", Self.string(data), at: data)
            case "formUrlEncoded":
                pairs("body:form-urlencoded", entries(data), at: data)
            case "multipartForm":
                pairs("body:multipart-form", (data?.sequence ?? []).map { entry in
                    var value = Self.string(entry.member("value"))
                    if entry.member("type")?.nonNullText == "file" {
                        let paths = entry.member("value")?.sequence?.compactMap(\.nonNullText) ?? (value.isEmpty ? [] : [value])
                        value = "@file(\(paths.joined(separator: "|")))"
                    }
                    if let type = entry.member("contentType")?.nonNullText, !type.isEmpty { value += " @contentType(\(type))" }
                    return pair(Self.string(entry.member("name")), value, enabled: !(entry.member("disabled")?.isTrue ?? false), at: entry)
                }, at: data)
            case "file":
                pairs("body:file", (data?.sequence ?? []).map { variant in
                    var value = "@file(\(Self.string(variant.member("filePath"))))"
                    if let type = variant.member("contentType")?.nonNullText, !type.isEmpty { value += " @contentType(\(type))" }
                    return pair("file", value, enabled: variant.member("selected")?.isTrue ?? false, at: variant)
                }, at: data)
            default:
                break
            }
        }

        /// `runtime:` (a request's) or `request:` (a folder's or the collection's): variables,
        /// the actions that set variables after the response, checks and scripts.
        mutating func runtime(_ node: ImportNode?) {
            guard let node else { return }
            pairs("vars:pre-request", variables(node.member("variables")), at: node.member("variables"))
            let captures = (node.member("actions")?.sequence ?? []).filter {
                $0.member("type")?.nonNullText == "set-variable" && $0.member("phase")?.nonNullText == "after-response"
            }.map { action in
                let variable = action.member("variable")
                let name = Self.string(variable?.member("name"))
                return pair(variable?.member("scope")?.nonNullText == "request" ? "@" + name : name, Self.string(action.member("selector")?.member("expression")),
                            enabled: !(action.member("disabled")?.isTrue ?? false), at: action)
            }
            pairs("vars:post-response", captures, at: node.member("actions"))
            pairs("assert", (node.member("assertions")?.sequence ?? []).map { assertion in
                // Bruno writes "operator value" back together, as a .bru assert holds it.
                var value = Self.string(assertion.member("operator"))
                if let operand = assertion.member("value"), operand.nonNullText != nil { value += " " + Self.string(operand) }
                return pair(Self.string(assertion.member("expression")), value, enabled: !(assertion.member("disabled")?.isTrue ?? false), at: assertion)
            }, at: node.member("assertions"))
            for script in node.member("scripts")?.sequence ?? [] {
                guard let code = script.member("code")?.nonNullText, !code.isEmpty else { continue }
                switch script.member("type")?.nonNullText {
                case "before-request": text("script:pre-request", code, at: script)
                case "after-response": text("script:post-response", code, at: script)
                case "tests": text("tests", code, at: script)
                default: break
                }
            }
        }

        /// `settings:` as `.bru`'s settings block.
        mutating func settings(_ node: ImportNode?) {
            pairs("settings", (node?.members ?? []).compactMap { member in
                member.value.text.map { pair(member.key, $0, at: member.value) }
            }, at: node)
        }

        /// `request:` of a folder or the collection: headers, auth, and what `runtime:` holds.
        mutating func defaults(_ node: ImportNode?) {
            pairs("headers", entries(node?.member("headers")), at: node?.member("headers"))
            let mode = Self.authMode(node?.member("auth"))
            pairs("auth", [pair("mode", mode, at: node?.member("auth"))], at: node?.member("auth"))
            authBlock(node?.member("auth"), mode: mode)
            runtime(node)
        }

        mutating func folder() -> BrunoFile {
            let info = root.member("info")
            var meta = [pair("name", Self.string(info?.member("name")), at: info?.member("name"))]
            if let seq = info?.member("seq")?.nonNullText { meta.append(pair("seq", seq, at: info?.member("seq"))) }
            pairs("meta", meta, at: info)
            defaults(root.member("request"))
            text("docs", Self.content(root.member("docs")), at: root.member("docs"))
            return BrunoFile(path: document.path, blocks: blocks)
        }

        mutating func collection() -> BrunoFile {
            defaults(root.member("request"))
            text("docs", Self.content(root.member("docs")), at: root.member("docs"))
            return BrunoFile(path: document.path, blocks: blocks)
        }

        /// An environment: its name, its variables, and the names of its secrets (which hold
        /// no value).
        mutating func environment() -> BrunoFile {
            if let name = root.member("name")?.nonNullText { pairs("meta", [pair("name", name, at: root.member("name"))], at: root) }
            let all = root.member("variables")?.sequence ?? []
            let secrets = all.filter { $0.member("secret")?.isTrue ?? false }
            pairs("vars", variables(.sequence(all.filter { !($0.member("secret")?.isTrue ?? false) }, at: .unknown)), at: root.member("variables"))
            if !secrets.isEmpty {
                blocks.append(BrunoFile.Block(name: "vars:secret", content: .list(secrets.map { Self.string($0.member("name")) }), line: line(root.member("variables"))))
            }
            return BrunoFile(path: document.path, blocks: blocks)
        }
    }
}
