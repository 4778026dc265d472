import Foundation
import OrderedCollections
import TincanCore

/// A session as a Bruno collection (`tincan export --format bruno DIR`): `bruno.json`, the
/// session's defaults and variables in `collection.bru`, environments in `environments/`, each
/// group a folder (with a `folder.bru` naming it), each request a `.bru` file as bruno-lang
/// writes one. Captures become `vars:post-response` and checks `assert`, where Bruno has the same.
extension CollectionExport {
    /// The session's files, by path inside the collection's folder. File paths the requests
    /// name are rebased from `sessionFolder` to `collectionFolder`, since Bruno reads them from
    /// the collection's folder.
    public func bruno(_ session: Session, sessionFolder: String, collectionFolder: String) -> Exported {
        var warnings = Self.unsaid(session, format: "Bruno")
        var hidden = false
        let (requests, skipped) = exportable(session)
        var files: [(path: String, text: String)] = []
        let config: OrderedDictionary<String, ParameterValue> = [
            "version": "1", "name": .string(session.name ?? "Tincan session"), "type": "collection", "ignore": ["node_modules", ".git"],
        ]
        files.append(("bruno.json", JSONWriter.string(.dictionary(config), indent: 2) + "\n"))
        var collection = BruWriter()
        collection.pairs("headers", session.defaults.headers.compactMap { header in
            header.value.map { (header.name, secret($0, name: header.name, hidden: &hidden), header.isEnabled) }
        })
        for header in session.defaults.headers where header.value == nil {
            warnings.append("defaults: the removal of the header \(header.name) is not carried over; Bruno sends its own defaults")
        }
        collection.variables("vars:pre-request", session.variables.map { ($0.key, secret($0.value, name: $0.key, hidden: &hidden)) })
        if !collection.text.isEmpty { files.append(("collection.bru", collection.text)) }
        for (name, values) in session.environments {
            var environment = BruWriter()
            let secrets = values.filter { Redaction.isSecret(name: $0.key) && !showsSecrets && !($0.value.scalarText.map(Template.mayHoldReferences) ?? false) }
            environment.variables("vars", values.filter { secrets[$0.key] == nil }.map { ($0.key, $0.value) })
            if !secrets.isEmpty {
                // Bruno keeps secrets out of the file: `vars:secret` names them, each user sets them.
                environment.list("vars:secret", Array(secrets.keys))
                hidden = true
            }
            files.append(("environments/\(Self.fileName(name)).bru", environment.text))
        }
        var folders = BrunoFolders()
        for request in requests {
            let folder = folders.folder(for: request.group)
            var rebased = request.rebasingPaths(from: sessionFolder, to: collectionFolder)
            rebased.group = request.group
            let text = bruRequest(rebased, session: session, seq: folders.nextSeq(in: folder), warnings: &warnings, hidden: &hidden)
            files.append((folders.path(of: folder, fileName: request.name ?? request.displayName), text))
        }
        files += folders.folderFiles()
        if hidden { warnings.append(Self.hiddenWarning) }
        files = files.map { ($0.path, $0.path.hasSuffix(".bru") ? Self.brunoReferences($0.text) : $0.text) }
        return Exported(files: files, warnings: warnings, skipped: skipped)
    }

    /// Tincan's built-ins as Bruno writes them: `{{$env.NAME}}` is `{{process.env.NAME}}` (which
    /// Bruno reads from the collection's `.env` file or the process), `{{$uuid}}` `{{$randomUUID}}`.
    static func brunoReferences(_ text: String) -> String {
        replacingBuiltins(in: text) { name in
            if name.hasPrefix("$env.") { return "{{process.env.\(name.dropFirst(5))}}" }
            return name == "$uuid" ? "{{$randomUUID}}" : nil
        }
    }

    /// A name as a file name, as Bruno's `sanitizeName` makes one: characters that no file
    /// system takes become `-`.
    static func fileName(_ name: String) -> String {
        let cleaned = String(name.map { character -> Character in
            "<>:\"/\\|?*".contains(character) || character.unicodeScalars.contains { $0.value < 0x20 } ? "-" : character
        }).trimmingCharacters(in: .whitespaces)
        let trimmed = String(cleaned.reversed().drop { $0 == "." || $0 == " " }.reversed())
        return trimmed.isEmpty ? "request" : trimmed
    }

    /// The folders of an export: each group's path, its file names taken, its next `seq`.
    struct BrunoFolders {
        var paths: OrderedDictionary<String, String> = ["": ""]
        var names: [String: Set<String>] = [:]
        var seqs: [String: Int] = [:]
        /// Each folder's folders in order, for `folder.bru`'s `seq`.
        var children: [String: [String]] = [:]

        /// The folder (a key of ``paths``) for a group, made with its parents.
        mutating func folder(for group: String?) -> String {
            guard let group, !group.isEmpty else { return "" }
            if paths[group] != nil { return group }
            let components = group.split(separator: "/").map(String.init)
            let parent = folder(for: components.count > 1 ? components.dropLast().joined(separator: "/") : nil)
            let name = unique(CollectionExport.fileName(components.last!), in: parent)
            paths[group] = paths[parent]!.isEmpty ? name : paths[parent]! + "/" + name
            children[parent, default: []].append(group)
            return group
        }

        mutating func unique(_ name: String, in folder: String) -> String {
            var candidate = name
            var number = 2
            let reserved: Set<String> = ["folder", "collection", "environments", "bruno"]
            while names[folder, default: []].contains(candidate.lowercased()) || reserved.contains(candidate.lowercased()) {
                candidate = "\(name) \(number)"
                number += 1
            }
            names[folder, default: []].insert(candidate.lowercased())
            return candidate
        }

        mutating func nextSeq(in folder: String) -> Int {
            seqs[folder, default: 0] += 1
            return seqs[folder]!
        }

        mutating func path(of folder: String, fileName name: String) -> String {
            let file = unique(CollectionExport.fileName(name), in: folder) + ".bru"
            let directory = paths[folder] ?? ""
            return directory.isEmpty ? file : directory + "/" + file
        }

        /// Each folder's `folder.bru`: its name (the group's, as written) and its place.
        func folderFiles() -> [(path: String, text: String)] {
            var files: [(path: String, text: String)] = []
            for (parent, groups) in children {
                _ = parent
                for (index, group) in groups.enumerated() {
                    var writer = BruWriter()
                    writer.pairs("meta", [("name", String(group.split(separator: "/").last ?? ""), true), ("seq", String(index + 1), true)])
                    files.append(((paths[group] ?? group) + "/folder.bru", writer.text))
                }
            }
            return files.sorted { $0.path < $1.path }
        }
    }

    /// One request as a `.bru` file.
    func bruRequest(_ request: SavedRequest, session: Session, seq: Int, warnings: inout [String], hidden: inout Bool) -> String {
        let place = "request '\(request.displayName)'"
        warnings += Self.unsaid(request, place: place, format: "Bruno")
        var writer = BruWriter()
        writer.pairs("meta", [("name", request.name ?? request.displayName, true), ("type", "http", true), ("seq", String(seq), true)])
        var url = Self.url(of: request, base: session.base)
        let serializer = request.serializer ?? session.defaults.serializer ?? .form
        let paramsInQuery = RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method.uppercased())
        var mode = "none"
        var bodyBlocks = BruWriter()
        if serializer == .multipart || !request.files.isEmpty {
            // Multipart fields always go in the body, whatever the method, in the order Tincan sends them.
            mode = "multipartForm"
            var pairs: [(String, String, Bool)] = []
            if case .dictionary(let members)? = request.params {
                pairs = QueryString.pairs(members).map { ($0.field, secret($0.value ?? "", name: $0.field, hidden: &hidden), true) }
            }
            pairs += request.files.map { ($0.field, "@file(\($0.path))" + ($0.type.map { " @contentType(\($0))" } ?? ""), true) }
            bodyBlocks.pairs("body:multipart-form", pairs)
        } else if let params = request.params, case .dictionary(let members) = params, paramsInQuery, !members.isEmpty {
            url += (url.contains("?") ? "&" : "?") + Self.query(members)
        } else if let params = request.params, serializer == .json {
            if case .dictionary(let members) = params, members.count == 2, case .string(let query)? = members["query"], let variables = members["variables"], variables.isCollection {
                mode = "graphql"
                bodyBlocks.textBlock("body:graphql", query)
                if variables != .dictionary([:]) { bodyBlocks.textBlock("body:graphql:vars", JSONWriter.string(variables, indent: 2)) }
            } else {
                mode = "json"
                bodyBlocks.textBlock("body:json", JSONWriter.string(params, indent: 2))
            }
        } else if serializer == .form, case .dictionary(let members)? = request.params {
            mode = "formUrlEncoded"
            bodyBlocks.pairs("body:form-urlencoded", QueryString.pairs(members).map { ($0.field, secret($0.value ?? "", name: $0.field, hidden: &hidden), true) })
        } else if request.params != nil {
            warnings.append("\(place): the \(serializer.rawValue) serializer's body is not carried over; Bruno sends no property lists")
        }
        let contentType = request.headers.last { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }?.value.flatMap(MIMEType.essence) ?? ""
        switch request.body {
        case .text(let text)?:
            mode = OpenAPIImporter.isJSON(contentType) ? "json" : contentType.hasSuffix("xml") ? "xml" : contentType == "application/sparql-query" ? "sparql" : "text"
            bodyBlocks.textBlock("body:\(mode)", text)
        case .file(let path)?:
            mode = "file"
            bodyBlocks.pairs("body:file", [("file", "@file(\(path))", true)])
        case .graphql(let operation)?:
            mode = "graphql"
            bodyBlocks.textBlock("body:graphql", operation.query)
            if let variables = operation.variables, variables != .dictionary([:]) {
                bodyBlocks.textBlock("body:graphql:vars", JSONWriter.string(variables, indent: 2))
            }
            if let name = operation.operationName {
                warnings.append("\(place): the GraphQL operation name \(name) is not carried over; Bruno sends none (the document's only operation runs)")
            }
        case .base64?, nil: break
        }
        if let upload = request.upload {
            mode = "file"
            bodyBlocks.pairs("body:file", [("file", "@file(\(upload.file))", true)])
        }
        let credentialsAuth = request.auth.flatMap { $0.scheme == .oauth2 ? nil : $0 }
        var oauth2: [(key: String, value: String)]?
        if let saved = request.auth, saved.scheme == .oauth2 {
            oauth2 = CollectionOAuth2.settings(of: saved, CollectionOAuth2.bruno, secret: { secret($0, name: $1, hidden: &hidden) })
            if oauth2 == nil { warnings.append("\(place): auth: oauth2's \(saved.oauth2?.grant.rawValue ?? "") grant is not carried over; Bruno has no such grant") }
        }
        let auth = oauth2 != nil ? "oauth2" : credentialsAuth.map { $0.scheme == .digest ? "digest" : "basic" } ?? "none"
        writer.pairs(request.method.lowercased(), [("url", url, true), ("body", mode, true), ("auth", auth, true)], method: request.method)
        var query = Self.queryPairs(of: url)
        query += request.query.filter { !$0.isEnabled }.map { ($0.name, secret($0.value, name: $0.name, hidden: &hidden), false) }
        writer.pairs("params:query", query)
        writer.pairs("headers", Self.headers(of: request, defaults: []).compactMap { header in
            header.value.map { (header.name, secret($0, name: header.name, hidden: &hidden), header.isEnabled) }
        })
        if let credentials = credentialsAuth {
            writer.pairs("auth:\(auth)", [("username", credentials.user, true), ("password", secret(credentials.password, name: "password", hidden: &hidden), true)])
        }
        if let oauth2 { writer.pairs("auth:oauth2", oauth2.map { ($0.key, $0.value, true) }) }
        writer.append(bodyBlocks)
        writer.variables("vars:pre-request", request.variables.map { ($0.key, secret($0.value, name: $0.key, hidden: &hidden)) })
        writer.pairs("vars:post-response", request.captures.compactMap { name, source in
            guard let expression = Self.brunoExpression(source) else {
                warnings.append("\(place): the capture \(name) is not carried over (Bruno reads res.status, res.body paths and res.headers)")
                return nil
            }
            return (name, expression, true)
        })
        var asserts: [(String, String, Bool)] = []
        for assertion in request.assertions {
            let lines = Self.brunoAssertion(assertion)
            if lines.isEmpty { warnings.append("\(place): the check \(CheckLine.text(of: assertion)) is not carried over (Bruno's assert has no equivalent)") }
            asserts += lines.map { ($0.0, $0.1, true) }
        }
        writer.pairs("assert", asserts)
        var settings: [(String, String, Bool)] = []
        if let follow = request.flow.followRedirects { settings.append(("followRedirects", follow ? "true" : "false", true)) }
        // Bruno follows 5 redirects unless told, Tincan 10: the number is always written.
        if request.flow.followRedirects != false {
            settings.append(("maxRedirects", String(request.flow.maxRedirects ?? BrunoImporter.tincanRedirects), true))
        }
        if let maxTime = request.maxTime { settings.append(("timeout", String(Int((maxTime * 1000).rounded())), true)) }
        writer.pairs("settings", settings)
        return writer.text
    }

    /// The fields of a URL's query, as Bruno lists them beside the URL (not decoded).
    static func queryPairs(of url: String) -> [(String, String, Bool)] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        let end = url[question...].firstIndex(of: "#") ?? url.endIndex
        return url[url.index(after: question)..<end].split(separator: "&").map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "", true)
        }
    }

    /// A capture's source as a Bruno response expression.
    static func brunoExpression(_ source: CaptureSource) -> String? {
        switch source {
        case .status: return "res.status"
        case .header(let name): return headerExpression(name)
        case .body(let path) where path.isSingular: return "res.body" + path.text.dropFirst()
        case .filtered(.body(let path), [.count]) where path.isSingular: return "res.body" + path.text.dropFirst() + ".length"
        case .response(.duration): return "res.responseTime"
        default: return nil
        }
    }

    /// `res.headers['name']` (Bruno's response headers are lowercase).
    static func headerExpression(_ name: String) -> String {
        "res.headers['\(name.lowercased())']"
    }

    /// An assertion as Bruno's `assert` lines (none when Bruno has no equivalent).
    static func brunoAssertion(_ assertion: Assertion) -> [(String, String)] {
        let left: String
        let predicate: Predicate
        switch assertion {
        case .status(let set):
            let codes = set.split(separator: ",").map { $0.trimmingWhitespace() }
            guard !codes.isEmpty, codes.allSatisfy({ Int($0) != nil }) else { return [] }
            return [("res.status", codes.count == 1 ? "eq \(codes[0])" : "in \(codes.joined(separator: ","))")]
        case .header(let name, let check):
            left = headerExpression(name)
            predicate = check
        case .body(let path, let check):
            guard path.isSingular else { return [] }
            left = "res.body" + path.text.dropFirst() + (check.filters == [.count] ? ".length" : "")
            guard check.filters.isEmpty || check.filters == [.count] else { return [] }
            predicate = check
        case .response(.duration, let check):
            left = "res.responseTime"
            predicate = check
        default:
            return []
        }
        if predicate.checks.count == 2, case .greaterOrEqual(let low) = predicate.checks[0], case .lessOrEqual(let high) = predicate.checks[1] {
            return [(left, "between \(ParameterValue.format(low)),\(ParameterValue.format(high))")]
        }
        var lines: [(String, String)] = []
        for check in predicate.checks {
            guard let right = brunoOperator(check) else { return [] }
            lines.append((left, right))
        }
        return lines
    }

    /// One check as Bruno's operator and operand.
    static func brunoOperator(_ check: Predicate.Check) -> String? {
        func operand(_ value: ParameterValue) -> String {
            switch value {
            case .string(let text):
                // Text that Bruno would read as another type is quoted; Bruno takes off the outer
                // pair of quotes and reads nothing escaped inside, so any text fits in single quotes.
                let plain = BrunoImporter.value(text) == .string(text) && text.trimmingWhitespace() == text && !text.isEmpty
                return plain ? text : "'" + text + "'"
            default: return JSONWriter.string(value)
            }
        }
        switch check {
        case .equals(.null): return "isNull"
        case .equals(let value): return "eq \(operand(value))"
        case .notEquals(let value): return "neq \(operand(value))"
        case .greaterThan(let bound): return "gt \(ParameterValue.format(bound))"
        case .greaterOrEqual(let bound): return "gte \(ParameterValue.format(bound))"
        case .lessThan(let bound): return "lt \(ParameterValue.format(bound))"
        case .lessOrEqual(let bound): return "lte \(ParameterValue.format(bound))"
        case .oneOf(let values): return "in \(values.map(operand).joined(separator: ","))"
        case .contains(let part): return "contains \(operand(.string(part)))"
        case .count(let count): return "length \(count)"
        case .matches(let pattern): return "matches \(pattern)"
        case .startsWith(let prefix): return "startsWith \(operand(.string(prefix)))"
        case .endsWith(let suffix): return "endsWith \(operand(.string(suffix)))"
        case .isEmpty(let empty): return empty ? "isEmpty" : "isNotEmpty"
        case .exists(let exists): return exists ? "isDefined" : "isUndefined"
        case .type(.number): return "isNumber"
        case .type(.string): return "isString"
        case .type(.boolean): return "isBoolean"
        case .type(.array): return "isArray"
        case .not(let inner) where inner.checks.count == 1 && inner.filters.isEmpty:
            switch inner.checks[0] {
            case .oneOf(let values): return "notIn \(values.map(operand).joined(separator: ","))"
            case .contains(let part): return "notContains \(operand(.string(part)))"
            case .matches(let pattern): return "notMatches \(pattern)"
            default: return nil
            }
        default: return nil
        }
    }
}

/// Writes `.bru` text as bruno-lang's `jsonToBru` does: a block per tag, pairs indented by two
/// spaces (turned off with `~`, names quoted when they hold `:`, `"`, braces or spaces), values
/// of several lines in `'''`, text blocks indented by two spaces.
struct BruWriter {
    private(set) var text = ""

    /// A dictionary block, left out when it has no pairs. `method` names a method that has no
    /// block of its own (`http { method: PROPFIND … }`).
    mutating func pairs(_ tag: String, _ pairs: [(name: String, value: String, enabled: Bool)], method: String? = nil) {
        var pairs = pairs
        var tag = tag
        if let method, !BrunoImporter.methods.contains(method.lowercased()) {
            tag = "http"
            pairs.insert(("method", method, true), at: 0)
        }
        guard !pairs.isEmpty else { return }
        text += "\(tag) {\n"
        for (name, value, enabled) in pairs {
            text += "  \(enabled ? "" : "~")\(Self.key(name)): \(Self.value(value))\n"
        }
        text += "}\n\n"
    }

    /// Variables, with `@number`, `@boolean` or `@object` before those that are not text.
    mutating func variables(_ tag: String, _ variables: [(name: String, value: ParameterValue)]) {
        guard !variables.isEmpty else { return }
        text += "\(tag) {\n"
        for (name, value) in variables {
            let (annotation, written): (String?, String) = switch value {
            case .string(let string): (nil, string)
            case .integer, .double: ("number", JSONWriter.string(value))
            case .bool(let bool): ("boolean", bool ? "true" : "false")
            case .null: (nil, "")
            default: ("object", JSONWriter.string(value))
            }
            if let annotation { text += "  @\(annotation)\n" }
            text += "  \(Self.key(name)): \(Self.value(written))\n"
        }
        text += "}\n\n"
    }

    /// A text block (`body:json`, `docs`).
    mutating func textBlock(_ tag: String, _ content: String) {
        text += "\(tag) {\n"
        text += content.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        text += "\n}\n\n"
    }

    /// A list block (`vars:secret [ … ]`).
    mutating func list(_ tag: String, _ items: [String]) {
        text += "\(tag) [\n" + items.map { "  \($0)" }.joined(separator: ",\n") + "\n]\n"
    }

    mutating func append(_ other: BruWriter) {
        text += other.text
    }

    static func key(_ name: String) -> String {
        let needsQuotes = name.contains(where: { ":\"{} \t".contains($0) }) || name.hasPrefix("~") || name.hasPrefix("@") || name.isEmpty
        return needsQuotes ? "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : name
    }

    static func value(_ value: String) -> String {
        guard value.contains("\n") || value.contains("\r") else { return value }
        return "'''\n" + value.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n  '''"
    }
}
