import OrderedCollections

/// Why a request looks the way it does, step by step: how the URL resolved, where the parameters
/// went, how each key was encoded, where each header came from, and which observed properties
/// apply. The TUI's Explain view shows it; it is built by the same rules that build the request.
public struct Explanation: Sendable, Equatable {
    /// What a step explains.
    public enum Topic: String, Sendable, CaseIterable {
        case url, parameters, contentType, encoding, headers, properties, connection, validation, errors
        /// Where an OAuth 2.0 bearer token comes from.
        case authorization
    }

    /// One line of a step. Text between backticks is a literal (a URL, a header, a key).
    public struct Line: Sendable, Equatable {
        /// How the line reads: a statement, a detail under it, or a verdict.
        public enum Tone: Sendable, Equatable { case statement, detail, passed, failed }
        public var text: String
        public var tone: Tone

        public init(_ text: String, _ tone: Tone = .statement) {
            self.text = text
            self.tone = tone
        }
    }

    /// A titled group of lines about one topic.
    public struct Step: Sendable, Equatable {
        public var topic: Topic
        public var title: String
        public var lines: [Line]
    }

    public var steps: [Step]

    /// The step about `topic`, if there is one.
    public func step(_ topic: Topic) -> Step? {
        steps.first { $0.topic == topic }
    }

    /// The most encoded pairs listed one by one; the rest are counted.
    public static let pairLimit = 40
}

extension RequestDraft {
    /// Explains how ``build(settings:boundary:files:)`` turns this draft into a request.
    ///
    /// - Parameters:
    ///   - settings: The settings the request is built with (their default headers are "defaults").
    ///   - boundary: The multipart boundary the request is built with.
    ///   - sessionHeaders: Names of headers that came from a saved session's defaults, so they are
    ///     told apart from the request's own.
    ///   - cookieFile: The cookie file the session keeps its cookies in across runs, as written, or nil.
    /// - Throws: What ``build(settings:boundary:files:)`` throws: a draft that cannot be built has no explanation.
    public func explain(settings: RequestSettings = RequestSettings(), boundary: String? = nil, sessionHeaders: Set<String> = [], cookieFile: String? = nil) throws -> Explanation {
        try explain(build(settings: settings, boundary: boundary), settings: settings, sessionHeaders: sessionHeaders, cookieFile: cookieFile)
    }

    /// Explains `request`, which ``build(settings:boundary:files:)`` already made from this draft with
    /// `settings` (so a caller that has built it does not build it twice).
    ///
    /// - Parameter files: The reader the request was built with, which the parameters' `name=@file`
    ///   values are read from again.
    public func explain(_ request: HTTPRequest, settings: RequestSettings = RequestSettings(), sessionHeaders: Set<String> = [], cookieFile: String? = nil,
                        httpVersion: HTTPVersionPreference = .automatic, files: any RequestFileReader = DiskFileReader()) throws -> Explanation {
        var steps = [explainURL(request, httpVersion: httpVersion)]
        let parameters = try mergedParameters(files: files)
        let fileCount = items.reduce(0) { count, item in if case .file = item { count + 1 } else { count } }
        let isMultipart = serializer == .multipart || fileCount > 0
        let inURI = settings.encodesParametersInURI(request.method)
        steps.append(explainParameters(request, parameters: parameters, inURI: inURI, isMultipart: isMultipart, fileCount: fileCount, settings: settings))
        steps.append(explainContentType(request, inURI: inURI, isMultipart: isMultipart))
        if let encoding = explainEncoding(parameters, inURI: inURI, isMultipart: isMultipart) { steps.append(encoding) }
        steps.append(explainHeaders(request, settings: settings, sessionHeaders: sessionHeaders, isMultipart: isMultipart))
        steps.append(explainProperties(settings: settings, cookieFile: cookieFile))
        return Explanation(steps: steps)
    }

    // MARK: - URL

    private func explainURL(_ request: HTTPRequest, httpVersion: HTTPVersionPreference) -> Explanation.Step {
        var lines: [Explanation.Line] = []
        let typed = url
        if let baseURL {
            let parsedBase = URLReference(parsing: URLReference.escapingInvalidCharacters(baseURL))
            let base = HTTPSessionManager.addingTrailingSlash(to: parsedBase)
            if base.path != parsedBase.path {
                lines.append(.init("The base `\(baseURL)` has no trailing slash; the session manager adds one: `\(base.string)`, so relative paths go below `\(parsedBase.path)`, not beside it."))
            } else if base.path.isEmpty {
                lines.append(.init("The base `\(baseURL)` has no path; relative paths start at the root."))
            } else {
                lines.append(.init("The base `\(baseURL)` already ends with `/`; it is used as written."))
            }
            let reference = URLReference(parsing: URLReference.escapingInvalidCharacters(typed))
            if reference.isAbsolute {
                lines.append(.init("`\(typed)` has a scheme, so it is absolute: the base is not used at all."))
            } else if reference.authority != nil {
                lines.append(.init("`\(typed)` starts with `//`: it keeps the base's scheme `\(base.scheme ?? "")` and replaces the host and the path."))
            } else if typed.isEmpty {
                lines.append(.init("The URL is empty: the request goes to the base itself."))
            } else if reference.path.isEmpty {
                lines.append(.init("`\(typed)` has only a query: it keeps the base's path `\(base.path)` and replaces its query."))
            } else if reference.path.hasPrefix("/") {
                let dropped = base.path == "/" || base.path.isEmpty ? "" : "; the base's path `\(base.path)` is dropped"
                lines.append(.init("`\(typed)` starts with `/`: it replaces the whole path and keeps only `\(base.scheme ?? "")://\(base.authority ?? "")`\(dropped)."))
                if !dropped.isEmpty {
                    lines.append(.init("To stay under `\(base.path)`, write it without the leading slash: `\(typed.drop { $0 == "/" })`.", .detail))
                }
            } else {
                let kept = base.path.lastIndex(of: "/").map { String(base.path[...$0]) } ?? "/"
                lines.append(.init("`\(typed)` is relative: it goes after the base's last `/`, keeping `\(kept)`."))
            }
            if reference.path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
                lines.append(.init("Its `.` and `..` segments are removed (RFC 3986 section 5.2.4).", .detail))
            }
        } else if Self.expandingShorthand(typed) != typed {
            lines.append(.init("There is no base URL; `\(typed)` is shorthand for `\(Self.expandingShorthand(typed))`."))
        } else {
            lines.append(.init("There is no base URL: `\(typed)` is used as it is."))
        }
        if url.contains("@"), request.url.userInfo == nil, URLReference(parsing: Self.expandingShorthand(url)).userInfo != nil {
            lines.append(.init("The user and password in the URL became Basic credentials and were removed from the address.", .detail))
        }
        let queryItems = items.compactMap { item -> QueryStringPair? in
            if case .query(let name, let value) = item { return QueryStringPair(field: name, value: value) }
            return nil
        }
        if !queryItems.isEmpty {
            lines.append(.init("\(queryItems.count) query item\(queryItems.count == 1 ? "" : "s") (`name==value`) appended as typed, escaped: `\(queryItems.map(\.escaped).joined(separator: "&"))`.", .detail))
        }
        lines.append(.init(HTTPVersion.negotiation(for: request.url, preference: httpVersion), .detail))
        lines.append(.init("Resolved: `\(request.url.string)`", .passed))
        return Explanation.Step(topic: .url, title: "URL", lines: lines)
    }

    // MARK: - Parameters and Content-Type

    private func explainParameters(_ request: HTTPRequest, parameters: ParameterValue?, inURI: Bool, isMultipart: Bool, fileCount: Int, settings: RequestSettings) -> Explanation.Step {
        var lines: [Explanation.Line] = []
        let methods = settings.methodsEncodingParametersInURI.sorted().joined(separator: ", ")
        // Counted as the parameter tree shows them (`{3}`): its top-level members. A form or a
        // query string flattens nested names into more fields, and says how many.
        let count = Self.memberCount(parameters)
        let fields = Self.leafCount(parameters)
        let flattened = fields == count ? "" : " (\(fields) fields once nested names are flattened)"
        let counted = "the \(count) parameter\(count == 1 ? "" : "s")"
        let verb = count == 1 ? "goes" : "go"
        if isMultipart {
            lines.append(.init("The multipart serializer builds a multipart/form-data body: each parameter becomes a text part named by its field\(fileCount > 0 ? ", and \(fileCount) file\(fileCount == 1 ? "" : "s") become file parts" : "")."))
            if serializer != .multipart {
                lines.append(.init("The request has file items (`field@path`), so the form serializer switched to multipart, as AFNetworking's multipartFormRequest does.", .detail))
            }
            lines.append(.init("Multipart ignores methodsEncodingParametersInURI: the parameters always go into the body.", .detail))
        } else if fields == 0, body == nil {
            lines.append(.init("There are no parameters, so nothing goes into the query or the body."))
            lines.append(.init("\(request.method) \(inURI ? "is" : "is not") in methodsEncodingParametersInURI (\(methods)).", .detail))
        } else if inURI {
            lines.append(.init("\(request.method) is in methodsEncodingParametersInURI (\(methods)): \(counted)\(flattened) \(verb) into the query string, whatever the serializer."))
            lines.append(.init("The \(serializer.rawValue) serializer only shapes bodies; this request has none.", .detail))
        } else if let body {
            lines.append(.init("A raw body is sent as it is (\(Self.describe(body, in: request))); no serializer encodes it."))
        } else {
            // JSON and property lists keep the tree as it is; a form flattens it.
            let shape = serializer == .form ? flattened : ""
            lines.append(.init("\(request.method) is not in methodsEncodingParametersInURI (\(methods)): \(counted)\(shape) \(verb) into the body, encoded by the \(serializer.rawValue) serializer."))
        }
        if inURI, body != nil, !isMultipart {
            lines.append(.init("A raw body is sent as it is (\(Self.describe(body!, in: request)))."))
        }
        if let length = request.body.length, length > 0 {
            lines.append(.init("Body: \(length) byte\(length == 1 ? "" : "s").", .detail))
        }
        return Explanation.Step(topic: .parameters, title: "Parameters", lines: lines)
    }

    private func explainContentType(_ request: HTTPRequest, inURI: Bool, isMultipart: Bool) -> Explanation.Step {
        var lines: [Explanation.Line] = []
        let typed = typedHeader("Content-Type")
        let sent = request.headers["Content-Type"]
        if isMultipart {
            if let sent, let typed, Self.multipartWordsWithoutBoundary(typed) != nil {
                lines.append(.init("You set `Content-Type: \(typed)`; the form adds its boundary, which separates the parts: `Content-Type: \(sent)`."))
            } else if let sent {
                lines.append(.init("Multipart always sets `Content-Type: \(sent)`: the boundary separates the parts, so it is set even over your own."))
            } else {
                lines.append(.init("The multipart form has no parts, so there is no body and no Content-Type."))
            }
        } else if let typed {
            lines.append(.init("You set `Content-Type: \(typed)`; a serializer sets it only when the request has none, so yours is kept."))
        } else if body != nil {
            lines.append(.init(sent.map { "`Content-Type: \($0)` comes from your headers." } ?? "A raw body has no Content-Type unless you set one; none was set."))
        } else if inURI || request.body.length == 0 || request.body.length == nil {
            lines.append(.init("No body, so no serializer set a Content-Type."))
        } else if let sent {
            let reason = switch serializer {
            case .json: "the JSON serializer's type (AFJSONRequestSerializer)"
            case .plist: "the property-list serializer's type (AFPropertyListRequestSerializer)"
            default: "the form serializer's type (AFHTTPRequestSerializer)"
            }
            lines.append(.init("`Content-Type: \(sent)`: \(reason), set because the request had none."))
        }
        return Explanation.Step(topic: .contentType, title: "Content-Type", lines: lines)
    }

    // MARK: - Encoding

    private func explainEncoding(_ parameters: ParameterValue?, inURI: Bool, isMultipart: Bool) -> Explanation.Step? {
        guard let parameters, Self.leafCount(parameters) > 0 || parameters.dictionaryValue?.isEmpty == false else { return nil }
        var lines: [Explanation.Line] = []
        if !inURI, !isMultipart, serializer == .json {
            lines.append(.init("JSON body: keys keep the order they were written in; nothing is percent-escaped."))
            return Explanation.Step(topic: .encoding, title: "Encoding", lines: lines)
        }
        if !inURI, !isMultipart, serializer == .plist {
            lines.append(.init("Property-list body: an XML plist; integers, reals, booleans and strings keep their types."))
            return Explanation.Step(topic: .encoding, title: "Encoding", lines: lines)
        }
        guard case .dictionary(let dictionary) = parameters else { return nil }
        lines.append(.init("AFNetworking's rules: keys sorted; objects nest as `key[sub]`, arrays as `key[]`, sets as `key` per member; null is a bare key; booleans are `1`/`0`."))
        if isMultipart {
            lines.append(.init("Each field below names a text part; part names are not percent-escaped.", .detail))
        }
        let pairs = QueryString.pairs(dictionary)
        for pair in pairs.prefix(Explanation.pairLimit) {
            let why = Self.nestingReason(pair.field)
            let shown = isMultipart ? "\(pair.field)=\(pair.value ?? "")" : pair.escaped
            lines.append(.init("`\(pair.field)`\(pair.value.map { " = `\($0)`" } ?? " (null)") → `\(shown)`\(why.map { "  (\($0))" } ?? "")"))
            guard !isMultipart else { continue }
            let escaped = PercentEscaping.escapedCharacters(in: pair.field + (pair.value ?? ""))
            if !escaped.isEmpty {
                lines.append(.init("escaped: " + escaped.map { "`\(Self.visible($0.character))`→`\($0.escaped)`" }.joined(separator: " "), .detail))
            }
        }
        if pairs.count > Explanation.pairLimit {
            lines.append(.init("… and \(pairs.count - Explanation.pairLimit) more fields", .detail))
        }
        return Explanation.Step(topic: .encoding, title: "Encoding", lines: lines)
    }

    /// Why a field has its brackets: `a[b][]` is an array inside an object.
    private static func nestingReason(_ field: String) -> String? {
        guard let open = field.firstIndex(of: "[") else { return nil }
        var reasons: [String] = []
        var rest = field[open...]
        while rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { break }
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            reasons.append(inner.isEmpty ? "[] array element" : "[\(inner)] object key")
            rest = rest[rest.index(after: close)...]
        }
        return reasons.joined(separator: ", ")
    }

    /// A character as it can be read in a line: spaces and controls named.
    private static func visible(_ character: Character) -> String {
        switch character {
        case " ": "space"
        case "\n": "\\n"
        case "\t": "\\t"
        case "\r": "\\r"
        default: String(character)
        }
    }

    // MARK: - Headers

    private func explainHeaders(_ request: HTTPRequest, settings: RequestSettings, sessionHeaders: Set<String>, isMultipart: Bool) -> Explanation.Step {
        var lines: [Explanation.Line] = []
        let defaults = settings.httpRequestHeaders
        for field in request.headers {
            let name = field.name
            let typed = typedHeader(name)
            let origin: String
            if let typed, typed == field.value {
                let whose = sessionHeaders.contains(name.lowercased()) ? "session default" : "yours"
                if let old = defaults[name], old != typed {
                    origin = "\(whose), overriding the default `\(old)`"
                } else if defaults[name] != nil {
                    origin = "\(whose), the same as the default"
                } else {
                    origin = whose
                }
            } else if HTTPHeaders.same(name, "Authorization"), credentials != nil || URLReference(parsing: Self.expandingShorthand(url)).userInfo != nil {
                origin = "from the Basic credentials"
            } else if HTTPHeaders.same(name, "Content-Type") || (HTTPHeaders.same(name, "Content-Length") && isMultipart) {
                origin = "added by the \(isMultipart ? "multipart" : serializer.rawValue) serializer"
            } else if defaults[name] == field.value {
                origin = "default"
            } else {
                origin = "set on the request"
            }
            lines.append(.init("`\(name)`  \(origin)"))
        }
        for item in items {
            if case .removeHeader(let name) = item, !request.headers.contains(name: name) {
                let whose = sessionHeaders.contains(name.lowercased()) ? "the session's defaults" : "you"
                lines.append(.init("`\(name)` removed by \(whose)\(defaults[name].map { " (the default was `\($0)`)" } ?? "")", .detail))
            }
        }
        let hasBody = (request.body.length ?? 0) > 0 && !request.headers.contains(name: "Content-Length")
        lines.append(.init("The transport adds `Host`\(hasBody ? " and `Content-Length`" : "") on the wire.", .detail))
        return Explanation.Step(topic: .headers, title: "Headers", lines: lines)
    }

    /// The value the user gave a header, by the last `-H` or header item, or nil.
    private func typedHeader(_ name: String) -> String? {
        var value = headers[name]
        for item in items {
            switch item {
            case .header(let field, let text) where HTTPHeaders.same(field, name): value = text
            case .removeHeader(let field) where HTTPHeaders.same(field, name): value = nil
            default: break
            }
        }
        return value
    }

    // MARK: - Observed properties

    private func explainProperties(settings: RequestSettings, cookieFile: String?) -> Explanation.Step {
        var lines: [Explanation.Line] = []
        var effective = settings.observedProperties
        for property in observed.changed { effective.copyValue(of: property, from: observed) }
        let defaults = RequestProperties()
        for property in ObservedProperty.allCases {
            let linux = property.isHonoredOnLinux ? "" : "; recorded only, Linux has no such setting"
            if effective.isChanged(property) {
                lines.append(.init("`\(property.afNetworkingName)` = `\(effective.text(of: property))`: set, so copied onto this request\(linux)"))
            } else {
                lines.append(.init("`\(property.afNetworkingName)` not set: left to the session (`\(defaults.text(of: property))`)\(linux)", .detail))
            }
            if property == .httpShouldHandleCookies, let cookieFile {
                // Issue 18 §6: where the jar this property uses comes from, and goes.
                lines.append(.init("Cookies are read from `\(cookieFile)` when the session opens and saved back to it (mode 0600) when it ends, because the session names it in `cookies: {file: …}`; curl's `-b` and `-c` share the file", .detail))
                if effective.httpShouldHandleCookies == false {
                    lines.append(.init("This request neither sends nor stores them: `httpShouldHandleCookies` is off", .detail))
                }
            }
        }
        return Explanation.Step(topic: .properties, title: "Observed properties", lines: lines)
    }

    // MARK: - Helpers

    /// The parameters as the tree lists them: a dictionary's members, a list's elements.
    private static func memberCount(_ value: ParameterValue?) -> Int {
        switch value {
        case nil, .null?: 0
        case .dictionary(let dictionary)?: dictionary.count
        case .array(let elements)?: elements.count
        case .set(let elements)?: elements.count
        default: 1
        }
    }

    /// The fields a form or query string makes of them: one per leaf, nested names flattened.
    private static func leafCount(_ value: ParameterValue?) -> Int {
        switch value {
        case nil, .null?: 0
        case .dictionary(let dictionary)?: dictionary.values.reduce(0) { $0 + max(1, leafCount($1)) }
        case .array(let elements)?: elements.reduce(0) { $0 + max(1, leafCount($1)) }
        case .set(let elements)?: elements.count
        default: 1
        }
    }

    private static func describe(_ body: RawBody, in request: HTTPRequest) -> String {
        switch body {
        case .text(let text): "\(RequestPreview.byteCount(Int64(text.utf8.count))) of text"
        case .bytes(let bytes): RequestPreview.byteCount(Int64(bytes.count))
        case .file(let path):
            if case .file(let resolved, let length) = request.body {
                "\(RequestPreview.byteCount(length)) streamed from `\(resolved)`"
            } else {
                "streamed from `\(path)`"
            }
        case .graphql(let operation):
            GraphQLQuery.sendsInURL(method: request.method)
                ? "a GraphQL operation in the URL's query (`query`\(operation.variables == nil ? "" : ", `variables` as JSON")\(operation.operationName == nil ? "" : ", `operationName`")), as a GET carries it"
                : "a GraphQL operation as JSON (`query`\(operation.variables == nil ? "" : ", `variables`")\(operation.operationName == nil ? "" : ", `operationName`")), \(RequestPreview.byteCount(Int64(operation.jsonBody.count)))"
        }
    }
}

extension ObservedProperties {
    /// The value set for `property`, as text, or `not set`.
    public func text(of property: ObservedProperty) -> String {
        switch property {
        case .allowsCellularAccess: allowsCellularAccess.map(String.init) ?? "not set"
        case .cachePolicy: cachePolicy.map(\.rawValue) ?? "not set"
        case .httpShouldHandleCookies: httpShouldHandleCookies.map(String.init) ?? "not set"
        case .httpShouldUsePipelining: httpShouldUsePipelining.map(String.init) ?? "not set"
        case .networkServiceType: networkServiceType.map(\.rawValue) ?? "not set"
        case .timeoutInterval: timeoutInterval.map { ParameterValue.format($0) + " s" } ?? "not set"
        }
    }
}

extension RequestProperties {
    /// The effective value of `property`, as text.
    public func text(of property: ObservedProperty) -> String {
        switch property {
        case .allowsCellularAccess: String(allowsCellularAccess)
        case .cachePolicy: cachePolicy.rawValue
        case .httpShouldHandleCookies: String(httpShouldHandleCookies)
        case .httpShouldUsePipelining: String(httpShouldUsePipelining)
        case .networkServiceType: networkServiceType.rawValue
        case .timeoutInterval: ParameterValue.format(timeoutInterval) + " s"
        }
    }
}
