import Foundation
import OrderedCollections

/// Everything a user says about one request, before it is built: the shared model behind
/// `tincan send`, the TUI's panes, the REPL and saved sessions.
///
/// ``build(settings:boundary:files:)`` turns it into an ``HTTPRequest`` through the session manager and
/// serializers, so every front end builds requests by exactly the same rules.
public struct RequestDraft: Sendable {
    /// User name and password, sent as Basic authentication with the request.
    public typealias Credentials = Credential

    /// The method.
    public var method: String
    /// The URL as typed: absolute, or relative to ``baseURL``.
    public var url: String
    /// The session manager's base URL.
    public var baseURL: String?
    /// How parameters become a body.
    public var serializer: SerializerKind = .form
    /// Parameters given as one value (`--params-json`); items are merged into it.
    public var parameters: ParameterValue?
    /// Items in HTTPie syntax, in the order given.
    public var items: [RequestItem] = []
    /// Per-request headers (`-H`), applied before header items.
    public var headers: HTTPHeaders = [:]
    /// Observed properties to set on the serializer.
    public var observed = ObservedProperties()
    /// Credentials for Basic authentication.
    public var credentials: Credentials?
    /// A body sent as it is, instead of serialized parameters (curl's `--data-binary`).
    public var body: RawBody?
    /// The directory that relative file paths in items are read from: the process's current
    /// directory unless one is set. It is looked up when a path needs it, not for every draft
    /// (a replay makes one per request, and most have no file).
    public var workingDirectory: String {
        get { chosenWorkingDirectory ?? FileManager.default.currentDirectoryPath }
        set { chosenWorkingDirectory = newValue }
    }
    private var chosenWorkingDirectory: String?
    /// The bytes that the path `-` reads (see ``standardInputPath``), as the front end read its
    /// standard input once; nil when it read none, and a `-` is then an error.
    public var standardInput: [UInt8]?

    /// Creates a draft.
    public init(method: String, url: String, baseURL: String? = nil) {
        self.method = method
        self.url = url
        self.baseURL = baseURL
    }

    /// Builds the request.
    ///
    /// - Parameters:
    ///   - settings: The serializer settings to start from; their default headers come first.
    ///   - boundary: A fixed multipart boundary, for reproducible output; random when nil.
    ///   - files: Where the values of `name=@file` items and the lengths of the files sent come
    ///     from: the disk, unless the front end already read them (the TUI's preview).
    /// - Throws: ``RequestSerializationError``, ``RequestItemError``, ``NumericRangeError`` for a
    ///   timeout out of range, or a custom query serializer's error.
    public func build(settings: RequestSettings = RequestSettings(), boundary: String? = nil, files: any RequestFileReader = DiskFileReader()) throws -> HTTPRequest {
        // Every front end checks its numbers as they are typed; this is the backstop that keeps
        // one that forgot from handing the transport a timeout it cannot represent.
        if let timeout = observed.timeoutInterval {
            _ = try NumericRange.timeout.check(timeout, text: ParameterValue.format(timeout))
        }
        let settings = settings.copy()
        settings.updateObservedProperties { observed in
            for property in self.observed.changed { observed.copyValue(of: property, from: self.observed) }
        }
        let manager = try HTTPSessionManager(baseURL: baseURL, requestSerializer: serializer.makeSerializer(settings: settings))

        var url = try manager.resolve(baseURL == nil ? Self.expandingShorthand(self.url) : self.url)
        var credentials = self.credentials
        if let userInfo = url.userInfo {
            if credentials == nil {
                let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                credentials = Credentials(
                    user: String(parts[0]).removingPercentEncoding ?? String(parts[0]),
                    password: parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : "")
            }
            url.authority = String(url.authority!.split(separator: "@").last!)
        }
        if let credentials {
            settings.setAuthorizationHeader(username: credentials.user, password: credentials.password)
        }

        let queryItems = items.compactMap { item -> QueryStringPair? in
            if case .query(let name, let value) = item { return QueryStringPair(field: name, value: value) }
            return nil
        }
        Self.appendQuery(queryItems, to: &url)
        if case .graphql(let operation) = body {
            if let variables = operation.variables, let problem = GraphQLQuery.variablesProblem(variables) {
                throw RequestSerializationError(.invalidJSONParameters(problem))
            }
            if GraphQLQuery.sendsInURL(method: method) { Self.appendQuery(operation.queryPairs, to: &url) }
        }

        let parameters = try mergedParameters(files: files)
        let fileItems = items.compactMap { item -> (field: String, path: String, mimeType: String?)? in
            if case .file(let field, let path, let mimeType) = item { return (field, path, mimeType) }
            return nil
        }

        var request: HTTPRequest
        if serializer == .multipart || !fileItems.isEmpty {
            guard serializer == .form || serializer == .multipart else {
                throw RequestSerializationError(.invalidFormParameters(
                    "file items (field@path) need the form or multipart serializer, not \(serializer.rawValue)"))
            }
            request = try manager.requestSerializer.multipartRequest(
                method: method, url: url, parameters: parameters, boundary: boundary
            ) { form in
                for file in fileItems {
                    if file.path == Self.standardInputPath {
                        let bytes = try standardInputBytes(for: "\(file.field)@\(file.path)")
                        form.append(fileData: bytes, name: file.field, fileName: Self.standardInputFileName,
                                    mimeType: file.mimeType ?? MIMEType.forPathExtension(""))
                    } else {
                        let path = resolvePath(file.path)
                        try form.appendFile(at: path, length: files.sendableFileLength(atPath: path), name: file.field, mimeType: file.mimeType)
                    }
                }
            }
        } else {
            request = try manager.requestSerializer.request(method: method, url: url, parameters: parameters)
        }

        if let body {
            guard (request.body.length ?? 0) == 0 else {
                throw RequestSerializationError(.invalidFormParameters(
                    "a \(method) request with parameters in its body cannot also have a raw body; put the parameters in the query (name==value on the command line, query: in a session)"))
            }
            if case .file(Self.standardInputPath) = body {
                request.body = .bytes(try standardInputBytes(for: "a body file of \(Self.standardInputPath)"))
            } else if case .graphql = body {
                // A GET carries the operation in its URL (above); any other method in a JSON body.
                if !GraphQLQuery.sendsInURL(method: method) {
                    request.body = try body.requestBody(resolvingPathsWith: resolvePath, files: files)
                    request.headers.set(name: "Content-Type", value: GraphQLQuery.contentType)
                }
            } else {
                request.body = try body.requestBody(resolvingPathsWith: resolvePath, files: files)
            }
        }
        HTTPSessionManager.apply(headers, to: &request)
        for item in items {
            switch item {
            case .header(let name, let value): request.headers.set(name: name, value: value)
            case .removeHeader(let name): request.headers.remove(name: name)
            default: break
            }
        }
        if case .multipart(let form) = request.body, let typed = request.headers["Content-Type"], typed != form.contentType {
            request.headers.set(name: "Content-Type", value: Self.multipartContentType(typed: typed, form: form))
        }
        try request.validateHeaders()
        return request
    }

    /// The Content-Type a multipart body is sent with when one was typed: the parts can only be
    /// found through the form's boundary, which a typed type does not know. A multipart type
    /// typed without a boundary, as Insomnia writes every multipart request and Postman users
    /// often do, keeps its words and gets the boundary, as curl adds it (`-H 'Content-Type:
    /// multipart/form-data' -F …`); any other type (a boundary of its own, or not multipart)
    /// gives way to the form's.
    static func multipartContentType(typed: String, form: MultipartFormData) -> String {
        guard let words = multipartWordsWithoutBoundary(typed) else { return form.contentType }
        return "\(words); boundary=\(form.boundary)"
    }

    /// `typed` without trailing `;`s when it is a multipart type with no boundary; nil otherwise.
    static func multipartWordsWithoutBoundary(_ typed: String) -> String? {
        var words = typed.trimmingWhitespace()
        while words.hasSuffix(";") { words = String(words.dropLast()).trimmingWhitespace() }
        let mediaType = words.prefix { $0 != ";" }.trimmingWhitespace().lowercased()
        guard mediaType.hasPrefix("multipart/"), HTTPHeaders.parameter("boundary", in: words) == nil else { return nil }
        return words
    }

    /// The parameters: ``parameters`` with every parameter item merged in, or nil when there are none.
    ///
    /// - Parameter files: Where the values of `name=@file` items come from.
    public func mergedParameters(files: any RequestFileReader = DiskFileReader()) throws -> ParameterValue? {
        let parameterItems = items.filter {
            switch $0 {
            case .parameter, .parameterFromFile: true
            default: false
            }
        }
        guard !parameterItems.isEmpty else { return parameters }
        var root: OrderedDictionary<String, ParameterValue>
        switch parameters {
        case .none, .null?: root = [:]
        case .dictionary(let dictionary)?: root = dictionary
        case let other?:
            throw RequestItemError(item: "--params-json", reason: "items can only be merged into an object, but the parameters are \(other.kindName)")
        }
        for item in parameterItems {
            switch item {
            case .parameter(let key, let value):
                try ParameterPath(parsing: key).insert(value, into: &root)
            case .parameterFromFile(let key, let path, let isJSON):
                try ParameterPath(parsing: key).insert(readParameterFile(path, isJSON: isJSON, key: key, files: files), into: &root)
            default: break
            }
        }
        return .dictionary(root)
    }

    /// The most bytes a parameter read from a file (`name=@file`, `name:=@file`) may hold: it
    /// is kept in memory as text, as standard input is.
    static let parameterFileLimit = 64 << 20

    private func readParameterFile(_ path: String, isJSON: Bool, key: String, files: any RequestFileReader) throws -> ParameterValue {
        // Standard input is the draft's own bytes, not a file.
        if path == Self.standardInputPath {
            return try Self.parameterValue(fromFile: path, isJSON: isJSON, key: key, workingDirectory: "", standardInput: standardInput)
        }
        return try files.parameterValue(fromFile: path, isJSON: isJSON, key: key, workingDirectory: workingDirectory)
    }

    /// The value of the item `key=@path` (text) or `key:=@path` (JSON): the one reading of a
    /// parameter file, for `tincan send`, replay and the TUI's command line alike. The file is
    /// read whole up to ``parameterFileLimit``, without a leading byte-order mark; text must be
    /// UTF-8 and JSON valid, and each refusal names the item and the file.
    ///
    /// - Parameters:
    ///   - workingDirectory: Where a relative path is read from (after `~` is expanded).
    ///   - standardInput: What the path `-` reads, when the front end read its standard input.
    public static func parameterValue(fromFile path: String, isJSON: Bool, key: String, workingDirectory: String, standardInput: [UInt8]? = nil) throws -> ParameterValue {
        let item = "\(key)\(isJSON ? ":=@" : "=@")\(path)"
        var bytes: [UInt8]
        let resolved: String
        if path == Self.standardInputPath {
            resolved = "standard input"
            bytes = try standardInputBytes(standardInput, for: item)
        } else {
            resolved = resolvePath(path, in: workingDirectory)
            do {
                bytes = try BoundedFile.read(resolved, limit: Self.parameterFileLimit)
            } catch .tooLarge(let limit) {
                throw RequestItemError(item: item, reason: "\(resolved) holds more than \(RequestPreview.byteCount(Int64(limit))), the most read into a parameter; send it as a file with \(key)@\(path)")
            } catch {
                throw RequestSerializationError(.fileNotReachable(path: resolved))
            }
        }
        // The value is text (or JSON), so a byte-order mark before it is not part of it.
        if BoundedFile.startsWithByteOrderMark(bytes) { bytes.removeFirst(BoundedFile.byteOrderMark.count) }
        if isJSON {
            do {
                return try JSONParser.parse(bytes: bytes)
            } catch {
                throw RequestItemError(item: item, reason: "\(resolved) is not valid JSON at \(error)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RequestItemError(item: item, reason: "\(resolved) is not UTF-8 text; send it as a file with \(key)@\(path)")
        }
        return .string(text)
    }

    /// A path from an item, with `~` expanded and relative paths taken from ``workingDirectory``.
    func resolvePath(_ path: String) -> String {
        Self.resolvePath(path, in: workingDirectory)
    }

    /// A path from an item, with `~` expanded and a relative path taken from `directory`: the file
    /// an item names.
    public static func resolvePath(_ path: String, in directory: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? expanded : (directory as NSString).appendingPathComponent(expanded)
    }

    /// Streams the file at `path` as the body, as an upload task does. Unless the draft names a
    /// Content-Type (or removes it), the file's extension names one, as AFNetworking's
    /// `uploadTaskWithRequest:fromFile:` leaves to the request and `tincan send --upload` did.
    public mutating func upload(fromFile path: String) {
        body = .file(path: path)
        let namesType = headers.contains(name: "Content-Type") || items.contains { item in
            switch item {
            case .header(let name, _), .removeHeader(let name): HTTPHeaders.same(name, "Content-Type")
            default: false
            }
        }
        if !namesType {
            items.append(.header(name: "Content-Type", value: MIMEType.forPathExtension((path as NSString).pathExtension)))
        }
    }

    /// `url` as typed with `pairs` added to its query, by the rule ``build(settings:boundary:files:)``
    /// adds `name==value` items with: each escaped as a query-string pair, after the query that is
    /// there (an empty one is replaced), before any fragment. The rest of the text stays as typed.
    ///
    /// The TUI's command line writes its `name==value` items into the URL field with it, so the
    /// field holds exactly what `tincan send` would send.
    public static func url(_ url: String, addingQuery pairs: [QueryStringPair]) -> String {
        var reference = URLReference(parsing: url)
        appendQuery(pairs, to: &reference)
        return reference.string
    }

    /// Appends escaped pairs to a URL's query; nothing when there are none.
    private static func appendQuery(_ pairs: [QueryStringPair], to url: inout URLReference) {
        guard !pairs.isEmpty else { return }
        let query = pairs.map(\.escaped).joined(separator: "&")
        url.query = url.query.map { $0.isEmpty ? query : "\($0)&\(query)" } ?? query
    }

    /// HTTPie's URL shorthands, used when there is no base URL: `:8080/x` means
    /// `http://localhost:8080/x`, and a URL with no scheme gets `http://`.
    public static func expandingShorthand(_ url: String) -> String {
        if url.contains("://") { return url }
        if url.hasPrefix(":") { return "http://localhost" + url }
        if url.isEmpty { return url }
        return "http://" + url
    }
}

/// A body given as it is rather than built from parameters: text, bytes, or a file streamed from disk.
public enum RawBody: Sendable, Hashable {
    case text(String)
    case bytes([UInt8])
    case file(path: String)
    /// A GraphQL operation: its JSON as the body, or its fields in the URL of a GET.
    case graphql(GraphQLQuery)

    /// The request body; a relative file path is resolved with `resolve`, and its length asked of `files`.
    func requestBody(resolvingPathsWith resolve: (String) -> String, files: any RequestFileReader) throws -> RequestBody {
        switch self {
        case .text(let text): return .bytes(Array(text.utf8))
        case .bytes(let bytes): return .bytes(bytes)
        case .file(let path):
            let resolved = resolve(path)
            return .file(path: resolved, length: try files.sendableFileLength(atPath: resolved))
        case .graphql(let operation): return .bytes(operation.jsonBody)
        }
    }
}

extension ObservedProperties {
    /// Copies one property's value from `other`.
    public mutating func copyValue(of property: ObservedProperty, from other: ObservedProperties) {
        switch property {
        case .allowsCellularAccess: allowsCellularAccess = other.allowsCellularAccess
        case .cachePolicy: cachePolicy = other.cachePolicy
        case .httpShouldHandleCookies: httpShouldHandleCookies = other.httpShouldHandleCookies
        case .httpShouldUsePipelining: httpShouldUsePipelining = other.httpShouldUsePipelining
        case .networkServiceType: networkServiceType = other.networkServiceType
        case .timeoutInterval: timeoutInterval = other.timeoutInterval
        }
    }
}
