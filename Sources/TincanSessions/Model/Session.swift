import Foundation
import OrderedCollections
import TincanCore

/// A saved session: a base URL, defaults, variables and environments, and an ordered list of
/// requests with their captures and assertions. It is what a `*.tincan.yaml` file holds
/// (docs/session-format.md), and what `tincan replay` and the TUI's collection pane work on.
///
/// Text fields keep `{{variable}}` references as written; ``Template`` expands them when a
/// request is resolved, so saving a loaded session writes the references back unchanged.
public struct Session: Sendable, Equatable {
    /// The session's name.
    public var name: String?
    /// What the session is for, shown by reports and the TUI.
    public var description: String?
    /// The base URL that request paths resolve against (AFNetworking's `baseURL`).
    public var base: String?
    /// Defaults every request starts from.
    public var defaults = RequestDefaults()
    /// Variables, in file order.
    public var variables: OrderedDictionary<String, ParameterValue> = [:]
    /// Named environments: variables that replace ``variables`` when the environment is chosen.
    public var environments: OrderedDictionary<String, OrderedDictionary<String, ParameterValue>> = [:]
    /// The Netscape cookie file (curl's `-b`/`-c` format) the session's cookies are read from
    /// before it runs and saved to after, as written (`cookies: {file: …}`): relative to the
    /// session file's folder; nil keeps cookies in memory only.
    public var cookieFile: String?
    /// The lesson a lesson file teaches with the requests (issue 20), or nil for a plain session.
    public var lesson: Lesson?
    /// The requests, run in order.
    public var requests: [SavedRequest] = []
    /// Where `{{name}}` references stand outside the requests (base, defaults, variables), for
    /// errors; empty when the session is not from a file.
    public var referenceLocations = ReferenceLocations()

    /// Creates a session.
    public init(name: String? = nil, base: String? = nil, requests: [SavedRequest] = []) {
        self.name = name
        self.base = base
        self.requests = requests
    }
}

/// Settings shared by every request of a session; each request may override them.
public struct RequestDefaults: Sendable, Equatable {
    /// How parameters become a body.
    public var serializer: SerializerKind?
    /// Headers sent with every request, in order; a request's own headers replace them by name.
    public var headers: [HeaderSetting] = []
    /// Observed properties (timeout, cache policy, cookies…).
    public var properties = ObservedProperties()
    /// The validation contract.
    public var response = ResponseContract()
    /// How servers are trusted.
    public var security = SecuritySettings()
    /// The proxy (`--proxy`): a proxy URL, `""` for none whatever the environment says, or nil
    /// to read the proxy variables as curl does.
    public var proxy: String?
    /// The hosts reached without a proxy (`--noproxy`), replacing `NO_PROXY`, or nil.
    public var noProxy: String?
    /// The client certificate (`--cert`, `--key`).
    public var tls = ClientCertificateSettings()
    /// The HTTP versions offered (`--http1.1`, `--http2`), or nil for automatic negotiation.
    public var httpVersion: HTTPVersionPreference?
    /// How transient failures are retried, unless a request says otherwise.
    public var retryPolicy: SavedRetryPolicy?

    /// Credentials for every request that has no `auth:` of its own (an OAuth 2.0 grant, most often).
    public var auth: SavedAuth?

    /// Creates empty defaults.
    public init() {}
}

/// One header line as saved: a value, or nil to remove a default of that name. A disabled
/// header stays in the file (and in the TUI's list, turned off) but is not sent.
public struct HeaderSetting: Sendable, Equatable {
    public var name: String
    public var value: String?
    public var isEnabled: Bool

    /// Creates a header setting.
    public init(name: String, value: String?, isEnabled: Bool = true) {
        self.name = name
        self.value = value
        self.isEnabled = isEnabled
    }
}

/// One query field as saved: always in the URL (`name==value`). A disabled field stays in the
/// file (and in the TUI's list, turned off) but is not sent; a name may come more than once.
public struct QuerySetting: Sendable, Hashable {
    public var name: String
    public var value: String
    public var isEnabled: Bool

    /// Creates a query field.
    public init(name: String, value: String, isEnabled: Bool = true) {
        self.name = name
        self.value = value
        self.isEnabled = isEnabled
    }
}

/// How responses are validated and decoded: AFNetworking's response serializer settings.
public struct ResponseContract: Sendable, Equatable {
    /// The response serializer.
    public var serializer: ResponseSerializerKind?
    /// Acceptable status codes, as written (`200-299,304`).
    public var acceptStatus: String?
    /// Acceptable content types, replacing the serializer's own.
    public var acceptTypes: [String]?
    /// Whether the JSON serializer removes keys whose value is null.
    public var removesNulls: Bool?
    /// The most response-body bytes kept in memory, as written (`512M`; `0` for no limit); nil
    /// for the default, or for what `--max-body` says.
    public var maxBody: String?

    /// Creates an empty contract (the serializer's defaults).
    public init() {}

    /// This contract with `other`'s settings laid over it.
    public func merged(with other: ResponseContract) -> ResponseContract {
        var merged = self
        if let value = other.serializer { merged.serializer = value }
        if let value = other.acceptStatus { merged.acceptStatus = value }
        if let value = other.acceptTypes { merged.acceptTypes = value }
        if let value = other.removesNulls { merged.removesNulls = value }
        if let value = other.maxBody { merged.maxBody = value }
        return merged
    }

    /// The response serializer this contract describes.
    ///
    /// - Throws: ``StatusCodeSetError`` for a malformed status list.
    public func makeSerializer() throws -> any ResponseSerializer {
        var serializer = (self.serializer ?? .compound).makeSerializer()
        if let acceptStatus { serializer.acceptableStatusCodes = try StatusCodeSet(parsing: acceptStatus) }
        if let acceptTypes { serializer.acceptableContentTypes = Set(acceptTypes.map { $0.lowercased() }) }
        if removesNulls == true { serializer = NullRemoval.applied(to: serializer) }
        return serializer
    }
}

/// How servers are trusted: a session-wide security policy.
public struct SecuritySettings: Sendable, Equatable {
    /// A PEM file of CA certificates to trust instead of the system's.
    public var caFile: String?
    /// Pinned certificate files.
    public var pins: [String] = []
    /// What pins pin.
    public var pinMode: SecurityPolicy.PinningMode = .certificate
    /// Whether certificate verification is off.
    public var insecure = false
    /// The oldest TLS version accepted (`tls-min:`); 1.2 by default.
    public var minimumTLSVersion = TLSMinimum.standard

    /// Creates the default settings: verification on, nothing pinned.
    public init() {}

    /// What these settings trust less than the default does, each with the key that says it,
    /// for a file someone else may have written: `security: insecure: true` and the rest.
    public var weakenings: [(source: String, weakening: TrustWeakening)] {
        var policy = SecurityPolicy(pinningMode: pins.isEmpty ? .none : pinMode)
        policy.allowInvalidCertificates = insecure
        policy.minimumTLSVersion = minimumTLSVersion
        policy.caFile = caFile
        return policy.weakenings.map { weakening in
            let key = switch weakening {
            case .verificationOff, .hostNameUnchecked: "security: \(SessionKey.Security.insecure.rawValue): true"
            case .deprecatedTLS(let version): "security: \(SessionKey.Security.tlsMin.rawValue): \"\(version.rawValue)\""
            case .caFile(let path): "security: \(SessionKey.Security.caFile.rawValue): \(path)"
            }
            return (key, weakening)
        }
    }

    /// These settings with relative file paths read from `directory` (the session file's).
    /// The security policy these settings describe; their paths must be resolved.
    ///
    /// - Throws: What reading a pinned certificate file throws.
    public func policy() throws -> SecurityPolicy {
        var policy = SecurityPolicy.default
        if !pins.isEmpty {
            policy = SecurityPolicy(pinningMode: pinMode, pinnedCertificates: try pins.flatMap { try SecurityPolicy.certificates(inFile: $0) })
        }
        policy.caFile = caFile
        policy.allowInvalidCertificates = insecure
        policy.minimumTLSVersion = minimumTLSVersion
        return policy
    }

    /// Variables in the paths are expanded with `expand` first (`pins: ["{{demo-cert}}"]`).
    public func resolvingPaths<Failure: Error>(in directory: String, expand: (String) throws(Failure) -> String) throws(Failure) -> SecuritySettings {
        var resolved = self
        resolved.caFile = try caFile.map { (path) throws(Failure) in resolveSessionPath(try expand(path), in: directory) }
        resolved.pins = try pins.map { (path) throws(Failure) in resolveSessionPath(try expand(path), in: directory) }
        return resolved
    }

    /// These settings with relative file paths read from `directory`, as written.
    public func resolvingPaths(in directory: String) -> SecuritySettings {
        resolvingPaths(in: directory) { $0 }
    }
}

/// The client certificate a session presents to servers that ask for one (mutual TLS).
public struct ClientCertificateSettings: Sendable, Equatable {
    /// A PEM file of the client's certificate (and its key, when `key` is nil).
    public var certificate: String?
    /// A PEM file of the private key.
    public var key: String?

    /// Creates settings that present no certificate.
    public init(certificate: String? = nil, key: String? = nil) {
        self.certificate = certificate
        self.key = key
    }

    /// These settings with relative file paths read from `directory` (the session file's).
    public func resolvingPaths(in directory: String) -> ClientCertificateSettings {
        ClientCertificateSettings(certificate: certificate.map { resolveSessionPath($0, in: directory) }, key: key.map { resolveSessionPath($0, in: directory) })
    }

    /// The identity these settings name, read through `files`; nil when they name none. An
    /// encrypted key's passphrase comes from `TINCAN_KEY_PASSPHRASE` (nothing prompts while a
    /// session runs).
    ///
    /// - Throws: ``ClientIdentityError`` for files that cannot be used.
    public func identity(files: any RequestFileReader = DiskFileReader()) throws(ClientIdentityError) -> ClientIdentity? {
        guard let certificate else {
            if let key { throw ClientIdentityError(.key, path: key, .notPEM("tls: names a key without a cert")) }
            return nil
        }
        return try files.clientIdentity(certificate: certificate, key: key)
    }
}

/// One saved request.
public struct SavedRequest: Sendable, Equatable {
    /// A short name, used in reports and the collection pane.
    public var name: String?
    /// The folder the request sits in, a slash-separated path such as `pets/admin` (what an
    /// imported collection's folders or tags become); nil at the top.
    public var group: String?
    /// Variables of this request alone, laid over the session's and the environment's (but not
    /// over `--var`): what a folder's variables in another client become.
    public var variables: OrderedDictionary<String, ParameterValue> = [:]
    /// The method.
    public var method: String = "GET"
    /// A path relative to the base, or an absolute URL.
    public var url: String
    /// The serializer, overriding the session's default.
    public var serializer: SerializerKind?
    /// Headers, laid over the session's by name.
    public var headers: [HeaderSetting] = []
    /// Query-string fields, always in the URL (`name==value`), in order.
    public var query: [QuerySetting] = []
    /// Parameters: the tree the serializer encodes.
    public var params: ParameterValue?
    /// A body sent as it is.
    public var body: SavedBody?
    /// Multipart file parts.
    public var files: [SavedFile] = []
    /// Credentials.
    public var auth: SavedAuth?
    /// A file to stream the response body to.
    public var download: String?
    /// A file to stream as the body, with an optional rate limit.
    public var upload: SavedUpload?
    /// Observed properties, laid over the session's.
    public var properties = ObservedProperties()
    /// The validation contract, laid over the session's.
    public var response = ResponseContract()
    /// Values taken from the response into variables, in order.
    public var captures: OrderedDictionary<String, CaptureSource> = [:]
    /// Checks on the response.
    public var assertions: [Assertion] = []
    /// A response recorded by `tincan replay --record`, for `--compare-recorded`.
    public var recorded: RecordedResponse?
    /// Redirects, retries, a delay and repetitions (`follow-redirects:`, `retry:`…).
    public var flow = RequestFlow()
    /// The HTTP versions offered, overriding the session's default.
    public var httpVersion: HTTPVersionPreference?
    /// The deadline of the whole exchange, in seconds (`max-time:`, curl's and `tincan send`'s
    /// `--max-time`), beside the idle timeout (`properties: timeout:`); nil for none.
    public var maxTime: Double?
    /// How transient failures are retried; replaces the defaults' policy.
    public var retryPolicy: SavedRetryPolicy?
    /// The messages of a WebSocket request; nil for an HTTP request.
    public var webSocket: SavedWebSocket?
    /// Where the request starts in its file (1-based), for error messages; 0 when not from a file.
    public var line = 0
    /// Where the request's `{{name}}` references stand in its file, for error messages.
    public var referenceLocations = ReferenceLocations()

    /// Creates a request.
    public init(name: String? = nil, method: String = "GET", url: String) {
        self.name = name
        self.method = method
        self.url = url
    }

    /// The name to show: the given one, or the method and URL.
    public var displayName: String { name ?? "\(method) \(url)" }

    /// The response serializer used when neither the request nor the defaults name one: the
    /// GraphQL one for a GraphQL body (its `errors` fail the response), else the compound one.
    public var defaultResponseSerializer: ResponseSerializerKind {
        if case .graphql? = body { return .graphql }
        return .compound
    }

    public static func == (lhs: SavedRequest, rhs: SavedRequest) -> Bool {
        lhs.name == rhs.name && lhs.group == rhs.group && lhs.variables == rhs.variables && lhs.method == rhs.method && lhs.url == rhs.url
            && lhs.serializer == rhs.serializer && lhs.headers == rhs.headers && lhs.query == rhs.query && lhs.params == rhs.params
            && lhs.body == rhs.body && lhs.files == rhs.files && lhs.auth == rhs.auth && lhs.download == rhs.download
            && lhs.upload == rhs.upload && lhs.properties == rhs.properties && lhs.response == rhs.response
            && lhs.captures == rhs.captures && lhs.assertions == rhs.assertions && lhs.recorded == rhs.recorded
            && lhs.flow == rhs.flow && lhs.httpVersion == rhs.httpVersion && lhs.maxTime == rhs.maxTime
            && lhs.webSocket == rhs.webSocket
    }
}

/// A body given as it is.
public enum SavedBody: Sendable, Equatable {
    /// UTF-8 text (variables expand inside it).
    case text(String)
    /// Bytes, saved as base64.
    case base64([UInt8])
    /// A file read when the request is sent.
    case file(String)
    /// A GraphQL operation (`graphql: {query, variables, operation-name}`); variables expand in
    /// the query, the operation name and the variables' values.
    case graphql(GraphQLQuery)
}

extension Optional where Wrapped == SavedBody {
    /// Whether the body is a GraphQL operation.
    public var isGraphQL: Bool {
        if case .graphql? = self { return true }
        return false
    }
}

/// A multipart file part.
public struct SavedFile: Sendable, Equatable {
    public var field: String
    public var path: String
    public var type: String?

    /// Creates a file part.
    public init(field: String, path: String, type: String? = nil) {
        self.field = field
        self.path = path
        self.type = type
    }
}

/// Credentials: Basic sends them with the request; Digest answers the server's challenge;
/// OAuth 2.0 gets a token through its grant and sends it as a bearer token.
public struct SavedAuth: Sendable, Equatable {
    public enum Scheme: String, Sendable, CaseIterable {
        case basic
        case digest
        case oauth2
    }

    public var scheme: Scheme = .basic
    /// The user (Basic, Digest, and OAuth 2.0's password grant).
    public var user: String
    /// The password (Basic, Digest, and OAuth 2.0's password grant).
    public var password: String
    /// The grant and its endpoints, for ``Scheme/oauth2``.
    public var oauth2: SavedOAuth2?

    /// Creates credentials.
    public init(scheme: Scheme = .basic, user: String, password: String, oauth2: SavedOAuth2? = nil) {
        self.scheme = scheme
        self.user = user
        self.password = password
        self.oauth2 = oauth2
    }
}

/// A file streamed from disk as the body.
public struct SavedUpload: Sendable, Equatable {
    public var file: String
    /// The rate limit, as written (`64k`).
    public var rate: String?

    /// Creates an upload.
    public init(file: String, rate: String? = nil) {
        self.file = file
        self.rate = rate
    }
}

/// Where a capture takes its value from.
public enum CaptureSource: Sendable, Equatable {
    /// A path into the decoded JSON (or property-list) body, such as `$.json.token`.
    case body(BodyPath)
    /// A response header (the first field of that name).
    case header(String)
    /// The status code.
    case status
    /// The first group of a regular expression matched against the body text (the whole match without a group).
    case regex(String)
    /// An XPath expression on an XML or HTML body (``XPath``).
    case xpath(String)
    /// A fact about the exchange: the final URL, the redirect count, a cookie…
    case response(ResponseValue)
    /// Another source's value through filters, in order.
    indirect case filtered(CaptureSource, [ValueFilter])
}

/// A fact about an exchange that captures and assertions can read besides its status, headers
/// and body paths.
public enum ResponseValue: Sendable, Equatable {
    /// The URL of the last request, after redirects.
    case url
    /// How many redirects were followed.
    case redirects
    /// The final response's `Location`, or where the last redirect followed went.
    case location
    /// The whole exchange in milliseconds.
    case duration
    /// The body's size in bytes (after content decoding).
    case bodySize
    /// The body's SHA-256, 64 lowercase hexadecimal digits.
    case bodySHA256
    /// The body's MD5, 32 lowercase hexadecimal digits.
    case bodyMD5
    /// How many events a streamed body held (server-sent events, or NDJSON lines).
    case streamEvents
    /// The data of a streamed body's first event (for NDJSON, its first line).
    case streamFirst
    /// The data of a streamed body's last event (for NDJSON, its last line).
    case streamLast
    /// The value of the cookie of this name that the final response set.
    case cookie(String)
    /// The kind of response serializer that decoded the body, named as `response: serializer:`
    /// names it (`json`, `xml`, `plist`, `image`; `http` for bytes kept as they came).
    case decodedBy
    /// What decided to trust the server's certificate, named as `security:` names it (`pins`,
    /// `ca-file`, `insecure`; `system` for the system's roots).
    case trustedBy
    /// What the response cache did: `hit` (answered without asking the server), `not-modified`
    /// (the server was asked and answered 304, and the stored response was used), `stored`.
    case cache

    /// The value that `capture:` and `assert:` name with `key` (`url`, `body-sha256`); cookies
    /// have their own keys.
    public init?(key: String) {
        switch key {
        case "url": self = .url
        case "redirects": self = .redirects
        case "location": self = .location
        case "duration": self = .duration
        case "body-size": self = .bodySize
        case "body-sha256": self = .bodySHA256
        case "body-md5": self = .bodyMD5
        case "stream-events": self = .streamEvents
        case "stream-first": self = .streamFirst
        case "stream-last": self = .streamLast
        case "decoded-by": self = .decodedBy
        case "trusted-by": self = .trustedBy
        case "cache": self = .cache
        default: return nil
        }
    }

    /// The key that names it in `capture:` and `assert:`.
    public var key: String {
        switch self {
        case .url: "url"
        case .redirects: "redirects"
        case .location: "location"
        case .duration: "duration"
        case .bodySize: "body-size"
        case .bodySHA256: "body-sha256"
        case .bodyMD5: "body-md5"
        case .streamEvents: "stream-events"
        case .streamFirst: "stream-first"
        case .streamLast: "stream-last"
        case .cookie: "cookie"
        case .decodedBy: "decoded-by"
        case .trustedBy: "trusted-by"
        case .cache: "cache"
        }
    }
}

/// A check on the request as built, made before it is sent.
public enum RequestCheck: Sendable, Equatable {
    case method(Predicate)
    /// The absolute URL.
    case url(Predicate)
    /// A query field of the URL (the first of that name), percent-decoded.
    case query(String, Predicate)
    /// A header (the first of that name).
    case header(String, Predicate)
    /// A path into the body, read as JSON.
    case body(BodyPath, Predicate)
}

/// One check on a response.
public enum Assertion: Sendable, Equatable {
    /// The status code is in the set, written as `200`, `2xx`, `200-299,304`.
    case status(String)
    /// A header's value satisfies the predicate.
    case header(String, Predicate)
    /// The value at a body path satisfies the predicate.
    case body(BodyPath, Predicate)
    /// The response passed (or failed) validation.
    case valid(Bool)
    /// The validation error chain, from the top: each entry matches the error at that depth.
    case errors([ErrorExpectation])
    /// The whole exchange took at most this many seconds.
    case maxDuration(Double)
    /// An XPath expression's value on an XML or HTML body satisfies the predicate.
    case xpath(String, Predicate)
    /// A fact about the exchange satisfies the predicate.
    case response(ResponseValue, Predicate)
    /// The request as built satisfies a check.
    case request(RequestCheck)
    /// The request as the server received it satisfies a check (`received:`, the same checks as
    /// `request:`): what a Tincan demo server says it received for this exchange
    /// (``ReceivedRecord``), after the cache, the cookie jar and the transport had their say.
    case received(RequestCheck)
    /// The exchange failed before a response was complete (refused, timed out, a deadline, a
    /// TLS refusal), and its reason satisfies the check; a missing value is an exchange that
    /// completed. With it, a failed exchange is what the request is meant to do.
    case transportError(Predicate)
}

/// What one link of a validation error chain must be.
public struct ErrorExpectation: Sendable, Equatable {
    public var code: Int?
    public var domain: String?
    public var message: Predicate?

    /// Creates an expectation.
    public init(code: Int? = nil, domain: String? = nil, message: Predicate? = nil) {
        self.code = code
        self.domain = domain
        self.message = message
    }
}

/// A response saved with its request, to compare later replays with.
public struct RecordedResponse: Sendable, Equatable {
    public var status: Int
    /// The headers worth comparing (volatile ones such as Date are not recorded).
    public var headers: [HeaderSetting] = []
    /// The body as text, or nil when it was empty.
    public var body: String?
    /// The body as base64 when it was not UTF-8 text.
    public var bodyBase64: [UInt8]?
    /// Body paths whose values change between runs (ids, dates), not compared.
    public var ignore: [BodyPath] = []

    /// Creates a recorded response.
    public init(status: Int) {
        self.status = status
    }
}
