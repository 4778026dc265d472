import Foundation
import OrderedCollections
import TincanCore

/// The auth a folder (or the collection) gives the requests under it that say `auth: inherit`.
struct BrunoAuth {
    /// The mode (`basic`, `bearer`…), and the file whose `auth:MODE` block holds its settings.
    let mode: String
    let file: BrunoFile

    /// The auth `file` (a `folder.bru` or `collection.bru`) gives: its own when its `auth { mode }`
    /// is neither `none` nor `inherit` (the collection's `none` included), else `inherited`.
    init?(_ file: BrunoFile, inherited: BrunoAuth?) {
        let mode = file.value("mode", in: "auth") ?? "none"
        let isCollection = ["collection.bru", "opencollection.yml"].contains((file.path as NSString).lastPathComponent)
        if mode == "inherit" || (mode == "none" && !isCollection) {
            guard let inherited else { return nil }
            self = inherited
            return
        }
        self.mode = mode
        self.file = file
    }

    init(mode: String, file: BrunoFile) {
        self.mode = mode
        self.file = file
    }
}

extension BrunoImporter {
    /// The HTTP methods a request block can name.
    static let methods = ["get", "post", "put", "delete", "patch", "options", "head", "connect", "trace"]

    /// Each request of `folder` and its folders, with what the folders above give it: headers
    /// (by name, inner over outer), auth, variables (outermost first), captures.
    mutating func walk(_ folder: Folder, folders: [String], headers: [HeaderSetting], auth: BrunoAuth?, scopes: [OrderedDictionary<String, ParameterValue>],
                       captures: OrderedDictionary<String, CaptureSource>) {
        for child in folder.folders {
            let path = folders + [child.name]
            var childHeaders = headers
            var childAuth = auth
            var childScopes = scopes
            var childCaptures = captures
            if let file = child.file {
                let place = relative(file.path)
                childHeaders = Self.laid(brunoHeaders(file.pairs("headers"), place: place), over: headers)
                childAuth = BrunoAuth(file, inherited: auth)
                var scope: OrderedDictionary<String, ParameterValue> = [:]
                for pair in file.pairs("vars:pre-request") {
                    guard pair.isEnabled else {
                        notCarried.append("\(place): the disabled variable \(pair.name) is not carried over")
                        continue
                    }
                    scope[Self.variableName(pair.name)] = typed(pair)
                }
                childScopes.append(scope)
                for (name, source) in responseVariables(file, place: place) { childCaptures[name] = source }
                notCarryScripts(file, place: place)
                if let docs = file.text("docs"), !docs.trimmingWhitespaceAndNewlines().isEmpty { notCarried.append("\(place): its docs are not carried over") }
            }
            walk(child, folders: path, headers: childHeaders, auth: childAuth, scopes: childScopes, captures: childCaptures)
        }
        for (file, fileName, _) in folder.requests {
            guard var request = request(file, fileName: fileName, headers: headers, auth: auth, scopes: scopes) else { continue }
            request.group = groupPath(folders)
            for (name, source) in captures where request.captures[name] == nil { request.captures[name] = source }
            requests.append(request)
        }
    }

    /// `headers` with `inner`'s laid over them: a name given again is replaced where it stood
    /// (Bruno keeps one value a name, the last set); a header turned off replaces nothing.
    static func laid(_ inner: [HeaderSetting], over outer: [HeaderSetting]) -> [HeaderSetting] {
        var result = outer
        for header in inner {
            if header.isEnabled, let index = result.firstIndex(where: { $0.name == header.name && $0.isEnabled }) {
                result[index] = header
            } else if header.isEnabled || !result.contains(where: { $0.name == header.name }) {
                result.append(header)
            }
        }
        return result
    }

    /// A `headers` block's pairs as headers.
    func brunoHeaders(_ pairs: [BrunoFile.Pair], place: String) -> [HeaderSetting] {
        pairs.filter { !$0.name.isEmpty }.map { HeaderSetting(name: $0.name, value: Self.convert($0.value), isEnabled: $0.isEnabled) }
    }

    /// One request file, or nil (named) for a gRPC or WebSocket request.
    mutating func request(_ file: BrunoFile, fileName: String, headers: [HeaderSetting], auth: BrunoAuth?, scopes: [OrderedDictionary<String, ParameterValue>]) -> SavedRequest? {
        let name = file.value("name", in: "meta").flatMap { $0.isEmpty ? nil : $0 } ?? fileName
        let place = "request '\(name)'"
        let methodBlock = file.blocks.first { Self.methods.contains($0.name) || $0.name == "http" }
        guard let methodBlock, case .pairs(let settings) = methodBlock.content else {
            let kind = file.block("grpc") != nil ? "a gRPC request" : file.block("ws") != nil ? "a WebSocket request" : "a request without a method block (get { url: … })"
            notCarried.append("\(relative(file.path)): \(kind) is not carried over")
            return nil
        }
        func setting(_ key: String) -> String? { settings.last { $0.name == key }?.value }
        let method = methodBlock.name == "http" ? (setting("method") ?? "GET").uppercased() : methodBlock.name.uppercased()
        var url = Self.convert(setting("url") ?? "")
        // `:name` segments are Bruno's path parameters, with params:path's values.
        var pathValues: OrderedDictionary<String, ParameterValue> = [:]
        for pair in file.pairs("params:path") where pair.isEnabled { pathValues[pair.name] = .string(Self.convert(pair.value)) }
        if !pathValues.isEmpty { url = PostmanImporter.convertPathVariables(url, only: Set(pathValues.keys)) }
        var request = SavedRequest(name: name, method: method, url: url)
        // Enabled query fields are in the URL already (Bruno keeps both); turned-off ones only here.
        for pair in file.pairs("params:query") + file.pairs("query") where !pair.isEnabled {
            request.query.append(QuerySetting(name: Self.convert(pair.name), value: Self.convert(pair.value), isEnabled: false))
        }
        request.headers = Self.laid(brunoHeaders(file.pairs("headers"), place: place), over: headers)
        let mode = setting("auth") ?? "none"
        if mode == "inherit" {
            if let auth { apply(auth, to: &request, place: place) }
        } else {
            apply(BrunoAuth(mode: mode, file: file), to: &request, place: place)
        }
        addBody(file, mode: setting("body") ?? "none", to: &request, place: place)
        for pair in file.pairs("vars:pre-request") {
            guard pair.isEnabled else {
                notCarried.append("\(place): the disabled variable \(pair.name) is not carried over")
                continue
            }
            request.variables[Self.variableName(pair.name)] = typed(pair)
        }
        folderVariables.note(scopes + [pathValues], forRequest: requests.count)
        request.captures = responseVariables(file, place: place)
        request.assertions = assertions(file, place: place)
        settingsBlock(file, into: &request, place: place)
        notCarryScripts(file, place: place)
        if let docs = file.text("docs"), !docs.trimmingWhitespaceAndNewlines().isEmpty { notCarried.append("\(place): its docs are not carried over") }
        let examples = file.blocks.filter { $0.name == "example" }.count
        if examples > 0 { notCarried.append("\(place): \(examples) saved example\(examples == 1 ? " is" : "s are") not carried over") }
        for block in file.blocks where !Self.readBlocks.contains(block.name) && !Self.methods.contains(block.name) && !block.name.hasPrefix("auth:") {
            notCarried.append("\(place): the block \(block.name) is not carried over")
        }
        return request
    }

    /// The blocks a request file's reading uses (or names in its own warnings).
    static let readBlocks: Set<String> = [
        "meta", "http", "params:path", "params:query", "query", "headers", "auth", "body", "body:json", "body:text", "body:xml",
        "body:sparql", "body:graphql", "body:graphql:vars", "body:form-urlencoded", "body:multipart-form", "body:file",
        "vars:pre-request", "vars:post-response", "assert", "script:pre-request", "script:post-response", "tests", "docs",
        "settings", "example",
    ]

    /// `settings { … }`: redirects, and the timeout (milliseconds, Bruno's whole-request
    /// deadline) as `max-time:`.
    mutating func settingsBlock(_ file: BrunoFile, into request: inout SavedRequest, place: String) {
        for pair in file.pairs("settings") where pair.isEnabled {
            switch pair.name {
            // Following redirects is what Tincan does unless told: only `false` is written.
            case "followRedirects": request.flow.followRedirects = pair.value == "false" ? false : nil
            case "maxRedirects":
                if let count = Int(pair.value), (0...1_000).contains(count) { request.flow.maxRedirects = count }
            case "timeout":
                if let milliseconds = Double(pair.value), milliseconds > 0, milliseconds.isFinite { request.maxTime = milliseconds / 1000 }
            case "encodeUrl":
                // Only a URL with characters a URL cannot hold is sent otherwise than typed.
                if pair.value == "false", Self.needsEncoding(request.url) {
                    notCarried.append("\(place): its URL is sent encoded; Bruno's setting to send it as typed is not carried over")
                }
            case "forwardAuthorizationHeader":
                if pair.value == "true" { notCarried.append("\(place): Bruno's setting to send the Authorization header on after a redirect to another origin is not carried over") }
            default: break
            }
        }
        // Bruno follows 5 redirects unless told (its DEFAULT_MAX_REDIRECTS); Tincan's 10 are written as none.
        if request.flow.followRedirects != false {
            let maximum = request.flow.maxRedirects ?? Self.brunoRedirects
            request.flow.maxRedirects = maximum == Self.tincanRedirects ? nil : maximum
        }
    }

    /// How many redirects Bruno follows unless a request says, and how many Tincan does.
    static let brunoRedirects = 5
    static let tincanRedirects = RedirectPolicy.standard.limit

    /// `text` without its `//` and `/* */` comments outside strings, as Bruno's `decomment`
    /// takes them out of GraphQL variables.
    static func decommented(_ text: String) -> String {
        guard text.contains("//") || text.contains("/*") else { return text }
        var result = ""
        var characters = Array(text)[...]
        var inString = false
        while let character = characters.popFirst() {
            if inString {
                result.append(character)
                if character == "\\", let next = characters.popFirst() { result.append(next) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
                result.append(character)
            } else if character == "/", characters.first == "/" {
                while let next = characters.first, !next.isNewline { characters.removeFirst() }
            } else if character == "/", characters.first == "*" {
                characters.removeFirst()
                while let next = characters.popFirst() {
                    if next == "*", characters.first == "/" {
                        characters.removeFirst()
                        break
                    }
                }
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Whether `url` holds a character a URL cannot (a space, a non-ASCII letter), outside its
    /// `{{variables}}`.
    static func needsEncoding(_ url: String) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
        return Template.replacingReferences(in: url) { _ in "" }.contains { !allowed.contains($0) }
    }

    /// Auth as Tincan has it: Basic and Digest as the request's credentials, a bearer token and
    /// an API key as a header (or query field); any other mode is named.
    mutating func apply(_ auth: BrunoAuth, to request: inout SavedRequest, place: String) {
        func value(_ key: String) -> String { Self.convert(auth.file.value(key, in: "auth:\(auth.mode)") ?? "") }
        switch auth.mode {
        case "none", "inherit": break
        case "basic", "digest":
            request.auth = SavedAuth(scheme: auth.mode == "digest" ? .digest : .basic, user: value("username"), password: value("password"))
        case "bearer":
            // Bruno sets its auth's header over the request's.
            request.headers.removeAll { HTTPHeaders.same($0.name, "Authorization") }
            request.headers.append(HeaderSetting(name: "Authorization", value: "Bearer \(value("token"))"))
        case "oauth2":
            let (imported, lines) = CollectionOAuth2.read(CollectionOAuth2.bruno, place: place) { key in
                auth.file.value(key, in: "auth:oauth2").map(Self.convert)
            }
            notCarried += lines
            if let imported {
                request.headers.removeAll { HTTPHeaders.same($0.name, "Authorization") }
                request.auth = imported
            }
        case "apikey":
            let key = value("key")
            guard !key.isEmpty else { break }
            if auth.file.value("placement", in: "auth:apikey") == "queryparams" {
                request.query.append(QuerySetting(name: key, value: value("value")))
            } else {
                request.headers.removeAll { HTTPHeaders.same($0.name, key) }
                request.headers.append(HeaderSetting(name: key, value: value("value")))
            }
        default:
            notCarried.append(NotCarried.auth(place, auth.mode))
        }
    }

    // MARK: - Bodies

    /// The body the `body:` mode names, as Bruno sends it: with the Content-Type it adds when
    /// the request names none.
    mutating func addBody(_ file: BrunoFile, mode: String, to request: inout SavedRequest, place: String) {
        let sendsParametersInQuery = RequestSettings.defaultMethodsEncodingParametersInURI.contains(request.method)
        func contentType(_ type: String) {
            if !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }) {
                request.headers.append(HeaderSetting(name: "Content-Type", value: type))
            }
        }
        switch mode {
        case "none": break
        case "json":
            guard let text = (file.text("body:json") ?? file.text("body")).map(Self.convert), !text.isEmpty else { break }
            if !sendsParametersInQuery, let value = try? JSONParser.parse(bytes: Array(text.utf8)), value.isCollection {
                request.serializer = .json
                request.params = value
            } else {
                request.body = .text(text)
                contentType("application/json")
            }
        case "text", "xml", "sparql":
            guard let text = file.text("body:\(mode)").map(Self.convert), !text.isEmpty else { break }
            request.body = .text(text)
            contentType(mode == "text" ? "text/plain" : mode == "xml" ? "application/xml" : "application/sparql-query")
        case "formUrlEncoded":
            var pairs: [(name: String, value: String)] = []
            for pair in file.pairs("body:form-urlencoded") {
                guard pair.isEnabled else {
                    notCarried.append(NotCarried.disabledField(place, "form", pair.name))
                    continue
                }
                pairs.append((pair.name, Self.convert(pair.value)))
            }
            FormFields.urlencoded(pairs, into: &request, source: place)
        case "multipartForm":
            request.serializer = .multipart
            var fields: OrderedDictionary<String, ParameterValue> = [:]
            for pair in file.pairs("body:multipart-form") {
                guard pair.isEnabled else {
                    notCarried.append(NotCarried.disabledField(place, "form", pair.name))
                    continue
                }
                var (value, type) = Self.splitContentType(pair.value)
                if value.hasPrefix("@file("), value.hasSuffix(")") {
                    value = String(value.dropFirst(6).dropLast())
                    let paths = value.split(separator: "|").map(String.init).filter { !$0.isEmpty }
                    if paths.isEmpty { notCarried.append(NotCarried.fileWithoutPath(place, pair.name)) }
                    request.files += paths.map { SavedFile(field: pair.name, path: $0, type: type) }
                    continue
                }
                if let type { notCarried.append("\(place): the form field \(pair.name) is sent without its Content-Type \(type) (Tincan's text fields have none)") }
                do {
                    try FormFields.insert(pair.name, Self.convert(value), into: &fields, source: place)
                } catch {
                    notCarried.append("\(error), so it is not carried over")
                }
            }
            if !fields.isEmpty { request.params = .dictionary(fields) }
        case "graphql":
            // As Bruno sends it: the variables' comments taken out, their {{variables}} filled
            // in, then read as JSON; text that is JSON only once they are filled in is sent as
            // the body's text, with them in place.
            let query = Self.convert(file.text("body:graphql") ?? "")
            var variables = ParameterValue.dictionary([:])
            if let text = file.text("body:graphql:vars").map({ Self.decommented(Self.convert($0)) }), !text.trimmingWhitespaceAndNewlines().isEmpty {
                if let parsed = try? JSONParser.parse(bytes: Array(text.utf8)), GraphQLQuery.variablesProblem(parsed) == nil {
                    variables = parsed
                } else if Template.mayHoldReferences(text) {
                    request.body = .text("{\"query\":" + JSONWriter.string(.string(query)) + ",\"variables\":" + text.trimmingWhitespaceAndNewlines() + "}")
                    if !request.headers.contains(where: { HTTPHeaders.same($0.name, "Content-Type") && $0.isEnabled }) {
                        request.headers.append(HeaderSetting(name: "Content-Type", value: "application/json"))
                    }
                    break
                } else {
                    notCarried.append("\(place): the GraphQL variables are not JSON, so they are left out: \(text)")
                }
            }
            // Bruno always sends the variables, `{}` when there are none.
            request.body = .graphql(GraphQLQuery(query: query, variables: variables))
        case "file":
            // The selected file (a pair turned on) is the body; the others are choices Bruno keeps.
            guard let selected = file.pairs("body:file").first(where: \.isEnabled) else {
                notCarried.append("\(place): the file body names no selected file, so it is not carried over")
                break
            }
            var (value, type) = Self.splitContentType(selected.value)
            if value.hasPrefix("@file("), value.hasSuffix(")") { value = String(value.dropFirst(6).dropLast()) }
            guard !value.isEmpty else {
                notCarried.append("\(place): the file body names no file, so it is not carried over")
                break
            }
            request.upload = SavedUpload(file: value)
            contentType(type ?? "application/octet-stream")
        default:
            notCarried.append("\(place): the body mode \(mode) is not carried over")
        }
    }

    /// A value and the type of its `@contentType(…)`, if it has one.
    static func splitContentType(_ value: String) -> (value: String, type: String?) {
        guard let range = value.range(of: "@contentType(", options: .backwards), value.hasSuffix(")") else { return (value, nil) }
        let type = String(value[range.upperBound..<value.index(before: value.endIndex)]).trimmingWhitespace()
        return (String(value[..<range.lowerBound]).trimmingWhitespace(), type.isEmpty ? nil : type)
    }
}
