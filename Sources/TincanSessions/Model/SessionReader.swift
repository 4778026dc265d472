import Foundation
import OrderedCollections
import TincanCore
import Yams

extension Session {
    /// Reads a session file.
    ///
    /// - Throws: ``ConfigFileError`` naming the file, line and column, and what was expected there.
    public static func load(path: String) throws -> Session {
        try SessionReader(file: ConfigFile.load(path: path)).session()
    }

    /// Parses session text; `path` names the file in errors.
    public static func parse(_ text: String, path: String) throws -> Session {
        try SessionReader(file: ConfigFile.parse(text, path: path)).session()
    }
}

/// Turns a parsed YAML document into a ``Session``, refusing unknown keys and wrong kinds of value.
struct SessionReader {
    let file: ConfigFile
    /// Where references stand, for errors that name a variable with no value.
    let references: ReferenceCollector

    init(file: ConfigFile) {
        self.file = file
        references = ReferenceCollector(text: file.text)
    }

    func session() throws -> Session {
        var session = Session()
        var lessonNode: Node?
        for (key, _, value) in try file.entries(of: file.root, SessionKey.TopLevel.self, in: "a session") {
            switch key {
            case .name: session.name = try text(value, "the session's name")
            case .description: session.description = try text(value, "a description")
            case .base: session.base = try text(value, "a base URL such as http://127.0.0.1:8080/v1/")
            case .defaults: session.defaults = try defaults(value)
            case .variables: session.variables = try variables(value, in: "variables")
            case .environments:
                for (name, nameNode, environment) in try pairs(value, "a mapping of environment names to their variables") {
                    guard !name.isEmpty else { throw file.error(at: nameNode, "expected an environment name") }
                    session.environments[name] = try variables(environment, in: "environment '\(name)'")
                }
            case .cookies:
                for (cookiesKey, _, setting) in try entries(value, SessionKey.Cookies.self, in: "cookies") {
                    switch cookiesKey {
                    case .file: session.cookieFile = try text(setting, "a cookie file's path (Netscape format, as curl -c writes), relative to the session file")
                    }
                }
            case .lesson: lessonNode = value
            case .requests:
                guard let sequence = value.sequence else {
                    throw file.error(at: value, "expected a list of requests, each starting with '- method:'")
                }
                session.requests = try sequence.map(request)
            }
        }
        // The steps name requests, so they are read once every request is.
        if let lessonNode { session.lesson = try lesson(lessonNode, requests: session.requests) }
        session.referenceLocations = references.sessionLocations
        return session
    }

    // MARK: - Sections

    private func defaults(_ node: Node) throws -> RequestDefaults {
        var defaults = RequestDefaults()
        for (key, _, value) in try entries(node, SessionKey.Defaults.self, in: "defaults") {
            switch key {
            case .serializer: defaults.serializer = try serializer(value)
            case .headers: defaults.headers = try headers(value, allowsDisabled: true)
            case .properties: defaults.properties = try properties(value)
            case .response: defaults.response = try response(value)
            case .security: defaults.security = try security(value)
            case .proxy:
                let text = try text(value, "a proxy URL, or \"\" for none")
                if !text.trimmingWhitespace().isEmpty {
                    do {
                        _ = try ProxyServer(parsing: text)
                    } catch {
                        throw file.error(at: value, "\(error)")
                    }
                }
                defaults.proxy = text
            case .noproxy: defaults.noProxy = try text(value, "a comma-separated list of hosts, addresses or CIDR ranges")
            case .tls: defaults.tls = try clientCertificate(value)
            case .httpVersion: defaults.httpVersion = try httpVersion(value)
            case .retryPolicy: defaults.retryPolicy = try retryPolicy(value)
            case .auth: defaults.auth = try auth(value)
            }
        }
        return defaults
    }

    private func request(_ node: Node) throws -> SavedRequest {
        guard let mapping = node.mapping else {
            throw file.error(at: node, "expected a request: a mapping with method: and url:")
        }
        var request = SavedRequest(url: "")
        request.line = node.mark?.line ?? 0
        references.begin()
        var sawURL = false
        var sawMethod = false
        for (key, _, value) in try file.entries(of: mapping, SessionKey.Request.self, in: "a request") {
            switch key {
            case .name: request.name = try text(value, "the request's name")
            case .group: request.group = try group(value)
            case .method:
                let method = try text(value, "a method such as GET or POST")
                guard HTTPMethod.isValid(method) else {
                    throw file.error(at: value, "'\(method)' is not a method; expected GET, HEAD, POST, PUT, PATCH, DELETE or another token")
                }
                request.method = method
                sawMethod = true
            case .url:
                request.url = try text(value, "a path relative to the base, or an absolute URL")
                sawURL = true
            case .serializer: request.serializer = try serializer(value)
            case .headers: request.headers = try headers(value, allowsDisabled: true)
            case .query: request.query = try query(value)
            case .variables: request.variables = try variables(value, in: "the request's variables")
            case .params: request.params = try parameter(value)
            case .body: request.body = try body(value)
            case .files: request.files = try files(value)
            case .auth: request.auth = try auth(value)
            case .download: request.download = try text(value, "a file path to save the body to")
            case .upload: request.upload = try upload(value)
            case .properties: request.properties = try properties(value)
            case .response: request.response = try response(value)
            case .capture: request.captures = try captures(value)
            case .assert: request.assertions = try assertions(value)
            case .recorded: request.recorded = try recorded(value)
            case .followRedirects: request.flow.followRedirects = try bool(value)
            case .maxRedirects: request.flow.maxRedirects = Int(try number(value, .redirects))
            case .retry: request.flow.retry = Int(try number(value, .pollingRetries))
            case .retryInterval: request.flow.retryInterval = try number(value, .pause.named("retry-interval"))
            case .delay: request.flow.delay = try number(value, .pause)
            case .repeat: request.flow.repeatCount = Int(try number(value, .repeats))
            case .httpVersion: request.httpVersion = try httpVersion(value)
            case .maxTime: request.maxTime = try number(value, .maxTime)
            case .retryPolicy: request.retryPolicy = try retryPolicy(value)
            case .websocket: request.webSocket = try webSocket(value)
            }
        }
        guard sawURL else { throw file.error(at: node, "a request needs url: (a path relative to the base, or an absolute URL)") }
        // A GraphQL operation is POSTed unless the request says otherwise, as GraphQL clients send it.
        if !sawMethod, case .graphql? = request.body { request.method = GraphQLQuery.defaultMethod }
        if request.body != nil, request.upload != nil {
            throw file.error(at: node, "a request has either body: or upload:, not both")
        }
        if request.flow.followRedirects == false, let maximum = request.flow.maxRedirects, maximum > 0 {
            throw file.error(at: node, "a request that does not follow redirects (follow-redirects: false) follows none, so max-redirects: \(maximum) cannot apply; give one of them")
        }
        if !request.files.isEmpty, request.upload != nil {
            throw file.error(at: node, "a request has either files: (a multipart form) or upload: (one file as the body), not both")
        }
        if request.webSocket != nil {
            if request.body != nil || request.params != nil || !request.files.isEmpty || request.upload != nil {
                throw file.error(at: node, "a WebSocket request sends websocket: messages:, not a body (body:, params:, files: or upload:)")
            }
            if sawMethod, request.method != "GET" {
                throw file.error(at: node, "a WebSocket request is a GET handshake; method: \(request.method) cannot apply")
            }
        }
        request.referenceLocations = references.end()
        return request
    }

    private func properties(_ node: Node) throws -> ObservedProperties {
        var properties = ObservedProperties()
        let keys = ObservedProperty.listingOrder
        let mapping = try file.mapping(node, keys: keys.map(\.sessionKey), in: "properties")
        for (property, _, value) in try file.entries(of: mapping, keys: keys, named: \.sessionKey, in: "properties") {
            switch property {
            case .timeoutInterval:
                properties.timeoutInterval = try number(value, .timeout)
            case .cachePolicy:
                let name = try text(value, "a cache policy")
                guard let policy = CachePolicy(rawValue: name) else {
                    throw file.error(at: value, "'\(name)' is not a cache policy; expected one of: \(CachePolicy.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                properties.cachePolicy = policy
            case .httpShouldHandleCookies: properties.httpShouldHandleCookies = try bool(value)
            case .httpShouldUsePipelining: properties.httpShouldUsePipelining = try bool(value)
            case .allowsCellularAccess: properties.allowsCellularAccess = try bool(value)
            case .networkServiceType:
                let name = try text(value, "a network service type")
                guard let type = NetworkServiceType(rawValue: name) else {
                    throw file.error(at: value, "'\(name)' is not a network service type; expected one of: \(NetworkServiceType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                properties.networkServiceType = type
            }
        }
        return properties
    }

    private func response(_ node: Node) throws -> ResponseContract {
        var contract = ResponseContract()
        for (key, _, value) in try entries(node, SessionKey.Response.self, in: "response") {
            switch key {
            case .serializer:
                let name = try text(value, "a response serializer")
                guard let kind = ResponseSerializerKind(rawValue: name) else {
                    throw file.error(at: value, "'\(name)' is not a response serializer; expected one of: \(ResponseSerializerKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                contract.serializer = kind
            case .acceptStatus:
                let statuses = try statusText(value)
                do {
                    _ = try StatusCodeSet(parsing: statuses)
                } catch {
                    throw file.error(at: value, "\(error)")
                }
                contract.acceptStatus = statuses
            case .acceptType: contract.acceptTypes = try textList(value, "content types such as [application/json]")
            case .maxBody:
                let size = try text(value, "a size such as 512M, or 0 for no limit")
                do {
                    _ = try TaskOptions.maximumBodyBytes(parsing: size)
                } catch {
                    throw file.error(at: value, "\(error)")
                }
                contract.maxBody = size
            case .removeNulls: contract.removesNulls = try bool(value)
            }
        }
        return contract
    }

    private func security(_ node: Node) throws -> SecuritySettings {
        var settings = SecuritySettings()
        for (key, _, value) in try entries(node, SessionKey.Security.self, in: "security") {
            switch key {
            case .caFile: settings.caFile = try text(value, "a PEM file of CA certificates")
            case .pins: settings.pins = try textList(value, "a list of certificate files to pin")
            case .pinMode:
                let modes = SessionKey.PinMode.allCases.map(\.rawValue).joined(separator: " or ")
                let name = try text(value, modes)
                guard let mode = SessionKey.PinMode(rawValue: name) else {
                    throw file.error(at: value, "'\(name)' is not a pinning mode; expected \(modes)")
                }
                settings.pinMode = mode.mode
            case .insecure: settings.insecure = try bool(value)
            case .tlsMin:
                let versions = TLSMinimum.allCases.map(\.rawValue).joined(separator: ", ")
                let name = try text(value, "a TLS version (\(versions))")
                guard let version = TLSMinimum(rawValue: name) else {
                    throw file.error(at: value, "'\(name)' is not a TLS version; expected \(versions)")
                }
                settings.minimumTLSVersion = version
            }
        }
        return settings
    }

    private func clientCertificate(_ node: Node) throws -> ClientCertificateSettings {
        var settings = ClientCertificateSettings()
        for (key, _, value) in try entries(node, SessionKey.TLS.self, in: "tls") {
            switch key {
            case .cert: settings.certificate = try text(value, "a PEM file of the client certificate")
            case .key: settings.key = try text(value, "a PEM file of the client certificate's private key")
            }
        }
        if settings.certificate == nil, settings.key != nil {
            throw file.error(at: node, "tls: has a key but no cert; expected cert: (a PEM certificate file) with it")
        }
        return settings
    }

    private func body(_ node: Node) throws -> SavedBody {
        if node.scalar != nil { return .text(try text(node, "the body text")) }
        let entries = try entries(node, SessionKey.Body.self, in: "body")
        guard entries.count == 1, let (key, _, value) = entries.first else {
            throw file.error(at: node, "expected exactly one of \(Self.alternatives(SessionKey.Body.self)) in body")
        }
        switch key {
        case .text: return .text(try text(value, "the body text"))
        case .file: return .file(try text(value, "a file path"))
        case .base64: return .base64(try base64(value))
        case .graphql: return .graphql(try graphql(value))
        }
    }

    private func graphql(_ node: Node) throws -> GraphQLQuery {
        var operation = GraphQLQuery(query: "")
        var sawQuery = false
        for (key, _, value) in try entries(node, SessionKey.GraphQL.self, in: "graphql") {
            switch key {
            case .query:
                operation.query = try text(value, "the GraphQL document, such as query { hello }")
                sawQuery = true
            case .variables:
                guard value.mapping != nil else { throw file.error(at: value, "expected the GraphQL variables as a mapping of names to values") }
                operation.variables = try parameter(value)
            case .operationName: operation.operationName = try text(value, "the name of the operation to run")
            }
        }
        guard sawQuery else { throw file.error(at: node, "graphql needs query: (the GraphQL document, such as query { hello })") }
        return operation
    }

    private func files(_ node: Node) throws -> [SavedFile] {
        guard let sequence = node.sequence else { throw file.error(at: node, "expected a list of files, each with field: and path:") }
        return try sequence.map { item in
            var part = SavedFile(field: "", path: "")
            for (key, _, value) in try entries(item, SessionKey.FilePart.self, in: "a file part") {
                switch key {
                case .field: part.field = try text(value, "the form field's name")
                case .path: part.path = try text(value, "the file's path")
                case .type: part.type = try text(value, "a MIME type such as image/png")
                }
            }
            guard !part.field.isEmpty, !part.path.isEmpty else { throw file.error(at: item, "a file part needs field: and path:") }
            return part
        }
    }

    private func auth(_ node: Node) throws -> SavedAuth {
        var auth = SavedAuth(user: "", password: "")
        var seen: [SessionKey.Auth: Node] = [:]
        var grant: OAuth2Grant?
        var oauth2 = SavedOAuth2(grant: .clientCredentials, tokenURL: "", clientID: "")
        for (key, _, value) in try entries(node, SessionKey.Auth.self, in: "auth") {
            seen[key] = value
            switch key {
            case .type:
                let name = try text(value, "basic, digest or oauth2")
                guard let scheme = SavedAuth.Scheme(rawValue: name) else { throw file.error(at: value, "'\(name)' is not an auth type; expected basic, digest or oauth2") }
                auth.scheme = scheme
            case .user: auth.user = try text(value, "a user name")
            case .password: auth.password = try text(value, "a password, or {{$env.NAME}} to read it from the environment")
            case .grant:
                let name = try text(value, "an OAuth 2.0 grant")
                guard let read = OAuth2Grant(rawValue: name) else {
                    throw file.error(at: value, "'\(name)' is not a grant; expected \(OAuth2Grant.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                grant = read
            case .tokenURL: oauth2.tokenURL = try text(value, "the token endpoint's URL")
            case .authURL: oauth2.authURL = try text(value, "the authorization endpoint's URL")
            case .deviceURL: oauth2.deviceURL = try text(value, "the device authorization endpoint's URL")
            case .redirectURI:
                let uri = try text(value, "a loopback redirect URI such as http://127.0.0.1:8765/callback")
                if !uri.contains("{{"), let problem = OAuth2RedirectListener.problem(with: URLReference(parsing: uri)) { throw file.error(at: value, problem) }
                oauth2.redirectURI = uri
            case .clientID: oauth2.clientID = try text(value, "the client identifier")
            case .clientSecret: oauth2.clientSecret = try text(value, "the client secret, or {{$env.NAME}} to read it from the environment")
            case .clientAuth:
                let name = try text(value, "basic or body")
                guard let method = OAuth2ClientAuthentication(rawValue: name) else { throw file.error(at: value, "'\(name)' is not a client authentication; expected basic or body") }
                oauth2.clientAuth = method
            case .scope: oauth2.scope = try text(value, "space-separated scopes")
            case .audience: oauth2.audience = try text(value, "an audience")
            case .refreshToken: oauth2.refreshToken = try text(value, "a refresh token, or {{$env.NAME}}")
            case .tokenParams:
                guard let pairs = value.mapping else { throw file.error(at: value, "expected a mapping of token request parameters to values") }
                for (name, parameter) in pairs {
                    oauth2.tokenParams.append(OAuth2Parameter(name: try text(name, "a parameter name"), value: try text(parameter, "a parameter value")))
                }
            }
        }
        let oauth2Keys = SessionKey.Auth.allCases.filter { ![.type, .user, .password].contains($0) }
        guard auth.scheme == .oauth2 else {
            if let key = oauth2Keys.first(where: { seen[$0] != nil }), let place = seen[key] {
                throw file.error(at: place, "\(key.rawValue): is for type: oauth2")
            }
            guard seen[.user] != nil else { throw file.error(at: node, "auth needs user:") }
            return auth
        }
        guard let grant else { throw file.error(at: node, "type: oauth2 needs grant: (\(OAuth2Grant.allCases.map(\.rawValue).joined(separator: ", ")))") }
        oauth2.grant = grant
        for key in [SessionKey.Auth.tokenURL, .clientID] + (oauth2.requiredKey.map { [$0] } ?? []) where seen[key] == nil {
            throw file.error(at: node, "the \(grant.rawValue) grant needs \(key.rawValue):")
        }
        if grant == .password {
            guard seen[.user] != nil, seen[.password] != nil else { throw file.error(at: node, "the password grant needs user: and password:") }
        } else if let place = seen[.user] ?? seen[.password] {
            throw file.error(at: place, "user: and password: are for the password grant")
        }
        auth.oauth2 = oauth2
        return auth
    }

    private func upload(_ node: Node) throws -> SavedUpload {
        if node.scalar != nil { return SavedUpload(file: try text(node, "a file to upload")) }
        var upload = SavedUpload(file: "")
        for (key, _, value) in try entries(node, SessionKey.Upload.self, in: "upload") {
            switch key {
            case .file: upload.file = try text(value, "a file to upload")
            case .rate:
                let rate = try text(value, "a rate in bytes per second, such as 64k")
                do {
                    _ = try ByteRate.checked(rate)
                } catch {
                    throw file.error(at: value, "\(error)")
                }
                upload.rate = rate
            }
        }
        guard !upload.file.isEmpty else { throw file.error(at: node, "upload needs file:") }
        return upload
    }

    private func retryPolicy(_ node: Node) throws -> SavedRetryPolicy {
        var policy = SavedRetryPolicy(limit: -1)
        for (key, _, value) in try entries(node, SessionKey.RetryPolicy.self, in: "retry-policy") {
            switch key {
            case .limit: policy.limit = Int(try number(value, NumericRange.retries.named("limit")))
            case .delay: policy.delay = try number(value, NumericRange.retryDelay.named("delay"))
            case .maxDelay: policy.maximumDelay = try number(value, NumericRange.retryDelay.named("max-delay"))
            case .methods:
                policy.methods = try textList(value, "a list of methods such as [GET, PUT]").map { method in
                    guard HTTPMethod.isValid(method) else { throw file.error(at: value, "'\(method)' is not a method; expected a token such as GET or PUT") }
                    return method.uppercased()
                }
            case .statuses:
                guard let sequence = value.sequence else { throw file.error(at: value, "expected a list of statuses such as [429, 503]") }
                policy.statuses = try sequence.map { Int(try number($0, NumericRange.statusCode)) }
            }
        }
        guard policy.limit >= 0 else { throw file.error(at: node, "retry-policy needs limit: (0 to 100)") }
        return policy
    }

    func captures(_ node: Node) throws -> OrderedDictionary<String, CaptureSource> {
        var captures: OrderedDictionary<String, CaptureSource> = [:]
        for (name, nameNode, value) in try pairs(node, "a mapping of variable names to where their values come from") {
            guard !name.isEmpty, !name.contains("{"), !name.contains("}") else { throw file.error(at: nameNode, "expected a variable name") }
            if value.scalar != nil {
                let source = try text(value, "a body path such as $.json.id, or status")
                captures[name] = source == "status" ? .status : .body(try path(source, at: value))
                continue
            }
            captures[name] = try capture(value, named: name)
        }
        return captures
    }

    func assertions(_ node: Node) throws -> [Assertion] {
        var assertions: [Assertion] = []
        for (key, _, value) in try entries(node, SessionKey.Assert.self, in: "assert") {
            switch key {
            case .status:
                let statuses = try statusText(value)
                do {
                    _ = try StatusSet(statuses)
                } catch {
                    throw file.error(at: value, "\(error)")
                }
                assertions.append(.status(statuses))
            case .headers:
                for (name, _, predicate) in try pairs(value, "a mapping of header names to expected values") {
                    assertions.append(.header(name, try self.predicate(predicate)))
                }
            case .body:
                for (pathText, pathNode, predicate) in try pairs(value, "a mapping of body paths such as $.json.id to expected values") {
                    assertions.append(.body(try path(pathText, at: pathNode), try self.predicate(predicate)))
                }
            case .valid: assertions.append(.valid(try bool(value)))
            case .errors:
                guard let sequence = value.sequence else { throw file.error(at: value, "expected a list of errors from the top of the chain, each with code:, domain: or message:") }
                assertions.append(.errors(try sequence.map { item in
                    var expectation = ErrorExpectation()
                    for (key, _, value) in try entries(item, SessionKey.ExpectedError.self, in: "an expected error") {
                        switch key {
                        case .code:
                            expectation.code = Int(try number(value, .errorCode))
                        case .domain: expectation.domain = try text(value, "an error domain")
                        case .message: expectation.message = try predicate(value)
                        }
                    }
                    return expectation
                }))
            case .maxDuration:
                assertions.append(.maxDuration(try number(value, .maxDuration)))
            case .transportError:
                assertions.append(.transportError(try predicate(value)))
            case .xpath:
                for (expression, expressionNode, predicate) in try pairs(value, "a mapping of XPath expressions such as count(//item) to expected values") {
                    assertions.append(.xpath(try xpath(expression, at: expressionNode), try self.predicate(predicate)))
                }
            case .cookies:
                for (name, nameNode, predicate) in try pairs(value, "a mapping of cookie names (NAME or NAME[Path]) to expected values") {
                    assertions.append(.response(.cookie(try cookie(name, at: nameNode)), try self.predicate(predicate)))
                }
            case .url, .redirects, .location, .duration, .bodySize, .bodySHA256, .bodyMD5, .streamEvents, .streamFirst, .streamLast, .decodedBy, .trustedBy, .cache:
                assertions.append(.response(ResponseValue(key: key.rawValue) ?? .url, try predicate(value)))
            case .request:
                assertions += try requestChecks(value).map(Assertion.request)
            case .received:
                assertions += try requestChecks(value, in: "received").map(Assertion.received)
            }
        }
        return assertions
    }

    private func recorded(_ node: Node) throws -> RecordedResponse {
        var recorded = RecordedResponse(status: 0)
        var sawStatus = false
        for (key, _, value) in try entries(node, SessionKey.Recorded.self, in: "recorded") {
            switch key {
            case .status:
                recorded.status = Int(try number(value, .statusCode))
                sawStatus = true
            case .headers: recorded.headers = try headers(value)
            case .body: recorded.body = try text(value, "the body text")
            case .bodyBase64: recorded.bodyBase64 = try base64(value)
            case .ignore:
                guard let sequence = value.sequence else { throw file.error(at: value, "expected a list of body paths") }
                recorded.ignore = try sequence.map { try path(try text($0, "a body path"), at: $0) }
            }
        }
        guard sawStatus else { throw file.error(at: node, "recorded needs status:") }
        return recorded
    }

    // MARK: - Values

    /// A YAML value as a parameter: plain scalars take their YAML type, quoted ones stay text.
    func parameter(_ node: Node) throws -> ParameterValue {
        switch node {
        case .scalar(let scalar):
            switch ScalarTag.of(node) {
            case .int:
                // Plain decimal digits (ScalarTag's common case) are read directly; Yams' reading
                // of bases, underscores and sexagesimal goes through Foundation's string search.
                if let integer = ScalarTag.decimalValue(scalar) { return .integer(integer) }
                guard let integer = node.int else {
                    // Yams reads an integer only from a plain scalar.
                    if scalar.style != .plain, scalar.style != .any {
                        throw file.error(at: node, "'\(scalar.string)' is tagged as an integer but quoted; write it without quotes")
                    }
                    throw file.error(at: node, "'\(scalar.string)' is too large for an integer")
                }
                return .integer(Int64(integer))
            case .float: return .double(node.float ?? .nan)
            case .bool: return .bool(node.bool ?? false)
            case .null: return .null
            default:
                references.note(scalar.string, at: node)
                return .string(scalar.string)
            }
        case .sequence(let sequence):
            return .array(try sequence.map(parameter))
        case .mapping(let mapping):
            var members: OrderedDictionary<String, ParameterValue> = [:]
            for (key, value) in mapping {
                guard let name = key.scalar?.string else { throw file.error(at: key, "expected a text key") }
                references.note(name, at: key)
                members[name] = try parameter(value)
            }
            return .dictionary(members)
        case .alias:
            throw file.error(at: node, "aliases (*name) are not supported in sessions; write the value out")
        }
    }

    private func variables(_ node: Node, in context: String) throws -> OrderedDictionary<String, ParameterValue> {
        var variables: OrderedDictionary<String, ParameterValue> = [:]
        for (name, nameNode, value) in try pairs(node, "a mapping of variable names to values in \(context)") {
            guard !name.isEmpty, !name.hasPrefix("$"), !name.contains("{"), !name.contains("}") else {
                throw file.error(at: nameNode, "'\(name)' is not a variable name; names cannot be empty, start with $ or hold braces")
            }
            variables[name] = try parameter(value)
        }
        return variables
    }

    /// Header names to values; with `allowsDisabled`, a value may also be `{value: V, enabled: false}`
    /// (a header kept in the file but not sent).
    private func headers(_ node: Node, allowsDisabled: Bool = false) throws -> [HeaderSetting] {
        try pairs(node, "a mapping of header names to values").map { name, nameNode, value in
            guard HTTPHeaders.isValidName(name) else {
                throw file.error(at: nameNode, HeaderLine.invalidNameMessage(name))
            }
            if allowsDisabled, case .mapping = value {
                var setting = HeaderSetting(name: name, value: nil)
                var hasValue = false
                for (key, _, member) in try entries(value, SessionKey.Header.self, in: "header '\(name)'") {
                    switch key {
                    case .value:
                        hasValue = true
                        setting.value = try headerValue(member)
                    case .enabled:
                        setting.isEnabled = try bool(member)
                    }
                }
                guard hasValue else { throw file.error(at: value, "header '\(name)' needs a value: {value: TEXT, enabled: false}") }
                return setting
            }
            return HeaderSetting(name: name, value: try headerValue(value, allowsDisabled: allowsDisabled))
        }
    }

    /// Query field names to values: text, `{value: V, enabled: false}` (a field kept in the file
    /// but not sent), or a list of those for a name sent more than once.
    private func query(_ node: Node) throws -> [QuerySetting] {
        var fields: [QuerySetting] = []
        for (name, _, value) in try pairs(node, "a mapping of query fields to values") {
            for item in value.sequence.map(Array.init) ?? [value] {
                guard case .mapping = item else {
                    fields.append(QuerySetting(name: name, value: try text(item, "a query value, {value: TEXT, enabled: false}, or a list of them")))
                    continue
                }
                var field = QuerySetting(name: name, value: "")
                var hasValue = false
                for (key, _, member) in try entries(item, SessionKey.QueryField.self, in: "query field '\(name)'") {
                    switch key {
                    case .value:
                        hasValue = true
                        field.value = try text(member, "the query field's value")
                    case .enabled:
                        field.isEnabled = try bool(member)
                    }
                }
                guard hasValue else { throw file.error(at: item, "query field '\(name)' needs a value: {value: TEXT, enabled: false}") }
                fields.append(field)
            }
        }
        return fields
    }

    private func headerValue(_ node: Node, allowsDisabled: Bool = false) throws -> String? {
        if case .null = try parameter(node) { return nil }
        return try text(node, allowsDisabled ? "the header's value, null to remove a default, or {value: TEXT, enabled: false}" : "the header's value, or null to remove a default")
    }

    /// A folder path: names joined by `/`, none of them empty.
    private func group(_ node: Node) throws -> String {
        let path = try text(node, "a folder path such as pets/admin")
        guard !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.trimmingWhitespace().isEmpty }) else {
            throw file.error(at: node, "'\(path)' is not a folder path; expected names joined by /, such as pets/admin, none of them empty")
        }
        return path
    }

    private func serializer(_ node: Node) throws -> SerializerKind {
        let name = try text(node, "a serializer")
        guard let kind = SerializerKind(rawValue: name) else {
            throw file.error(at: node, "'\(name)' is not a serializer; expected form, json, plist or multipart")
        }
        return kind
    }

    func path(_ text: String, at node: Node) throws -> BodyPath {
        do {
            return try BodyPath(parsing: text)
        } catch {
            throw file.error(at: node, "\(error)")
        }
    }

    private func statusText(_ node: Node) throws -> String {
        if let sequence = node.sequence {
            return try sequence.map { try text($0, "a status code") }.joined(separator: ",")
        }
        return try text(node, "a status such as 200, 2xx or 200-299,304")
    }

    /// Bytes written in base64 (line breaks and spaces ignored, as a folded YAML block has them).
    func base64(_ node: Node) throws -> [UInt8] {
        guard let data = Data(base64Encoded: try text(node, "base64 bytes"), options: .ignoreUnknownCharacters) else {
            throw file.error(at: node, "expected base64 bytes (A–Z, a–z, 0–9, + and /)")
        }
        return Array(data)
    }

        func text(_ node: Node, _ expected: String) throws -> String {
        guard let scalar = node.scalar else { throw file.error(at: node, "expected \(expected)") }
        references.note(scalar.string, at: node)
        return scalar.string
    }

    func textList(_ node: Node, _ expected: String) throws -> [String] {
        if node.scalar != nil { return [try text(node, expected)] }
        guard let sequence = node.sequence else { throw file.error(at: node, "expected \(expected)") }
        return try sequence.map { try text($0, expected) }
    }

    /// `http-version:` as written: `auto`, `1.1` or `2` (a YAML number or text).
    private func httpVersion(_ node: Node) throws -> HTTPVersionPreference {
        let choices = HTTPVersionPreference.allCases.map(\.rawValue)
        guard let text = node.scalar?.string, let version = HTTPVersionPreference(rawValue: text) else {
            throw file.error(at: node, "expected an HTTP version: one of \(choices.joined(separator: ", "))")
        }
        return version
    }

    func bool(_ node: Node) throws -> Bool {
        guard case .bool(let value) = try parameter(node) else { throw file.error(at: node, "expected true or false") }
        return value
    }

    /// A number through its field's range (the one checked conversion), with the error at the value.
    func number(_ node: Node, _ range: NumericRange) throws -> Double {
        guard let scalar = node.scalar else { throw file.error(at: node, "expected a number: \(range.name) takes \(range.expected)") }
        do {
            return try range.value(parsing: scalar.string)
        } catch {
            throw file.error(at: node, "\(error)")
        }
    }

    func entries<Key: RawRepresentable<String> & CaseIterable>(_ node: Node, _ keys: Key.Type, in context: String) throws -> [(key: Key, keyNode: Node, value: Node)] {
        try file.entries(of: file.mapping(node, keys: keys.allCases.map(\.rawValue), in: context), keys, in: context)
    }

    /// The keys as a sentence lists alternatives: `text:, base64: or file:`.
    static func alternatives<Key: RawRepresentable<String> & CaseIterable>(_ keys: Key.Type) -> String {
        let names = keys.allCases.map { "\($0.rawValue):" }
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }

    func pairs(_ node: Node, _ expected: String) throws -> [(String, Node, Node)] {
        if case .scalar(let scalar) = node, scalar.string.isEmpty || ScalarTag.of(node) == .null { return [] }
        guard let mapping = node.mapping else { throw file.error(at: node, "expected \(expected)") }
        return try mapping.map { key, value in
            guard let name = key.scalar?.string else { throw file.error(at: key, "expected a text key") }
            references.note(name, at: key)
            return (name, key, value)
        }
    }
}
