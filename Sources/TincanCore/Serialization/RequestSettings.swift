import Foundation
import Synchronization

/// Builds the query string for a request in place of AFNetworking's default rules.
///
/// Throwing makes request building fail with exactly the thrown error.
public typealias QueryStringSerialization = @Sendable (HTTPRequest, ParameterValue) throws -> String

/// What a request serializer keeps apart from the body encoding: default headers, observed
/// properties, which methods put parameters in the URI, and an optional custom query serializer.
///
/// It is a reference, shared by every serializer kind made from it, so that switching from form
/// to JSON keeps the user's headers and properties. Every access goes through one lock, so any
/// thread may read or change it while requests are being built.
public final class RequestSettings: Sendable {
    struct State: Sendable {
        var headers: HTTPHeaders
        var observed = ObservedProperties()
        var methodsEncodingParametersInURI = RequestSettings.defaultMethodsEncodingParametersInURI
        var queryStringSerialization: QueryStringSerialization?
    }

    private let state: Mutex<State>

    /// Creates settings with the default headers for this process's environment.
    public convenience init() {
        self.init(headers: Self.processDefaultHeaders)
    }

    /// Creates settings with the default headers.
    ///
    /// - Parameter environment: Where the locale preference is read for Accept-Language.
    public convenience init(environment: [String: String]) {
        self.init(headers: Self.defaultHeaders(environment: environment))
    }

    private init(headers: HTTPHeaders) {
        state = Mutex(State(headers: headers))
    }

    /// The default headers for `ProcessEnvironment.values`, which is read once at start: worked
    /// out once too, as every request built (a replay builds one per run) starts from them.
    private static let processDefaultHeaders = defaultHeaders(environment: ProcessEnvironment.values)

    /// The default headers every serializer starts with, in wire order.
    ///
    /// AsyncHTTPClient sends neither User-Agent nor Accept, so the serializer owns them.
    public static func defaultHeaders(environment: [String: String]) -> HTTPHeaders {
        [
            "User-Agent": userAgent,
            "Accept": "*/*",
            "Accept-Encoding": "gzip, deflate",
            "Accept-Language": AcceptLanguage.headerValue(environment: environment),
        ]
    }

    /// `tincan/<version> (Linux; Swift <version>)`.
    public static var userAgent: String {
        "tincan/\(Tincan.version) (Linux; Swift \(Tincan.swiftVersion))"
    }

    // MARK: - Default headers

    /// The default headers, in wire order.
    public var httpRequestHeaders: HTTPHeaders {
        state.withLock { $0.headers }
    }

    /// Sets a default header, or removes it when `value` is nil.
    public func setValue(_ value: String?, forHTTPHeaderField field: String) {
        state.withLock { $0.headers[field] = value }
    }

    /// The default value of `field`, or nil.
    public func value(forHTTPHeaderField field: String) -> String? {
        state.withLock { $0.headers[field] }
    }

    /// Removes a default header.
    public func removeValue(forHTTPHeaderField field: String) {
        state.withLock { $0.headers.remove(name: field) }
    }

    /// Sets `Authorization: Basic …` from a user name and password.
    public func setAuthorizationHeader(username: String, password: String) {
        setValue(Self.basicAuthorization(username: username, password: password), forHTTPHeaderField: "Authorization")
    }

    /// Removes the Authorization header.
    public func clearAuthorizationHeader() {
        removeValue(forHTTPHeaderField: "Authorization")
    }

    /// The Basic credentials value for `username` and `password` (RFC 7617, UTF-8).
    public static func basicAuthorization(username: String, password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    // MARK: - Observed properties and encoding rules

    /// The observed properties that were set.
    public var observedProperties: ObservedProperties {
        get { state.withLock { $0.observed } }
        set { state.withLock { $0.observed = newValue } }
    }

    /// Changes the observed properties in place, under the lock.
    public func updateObservedProperties(_ body: (inout ObservedProperties) -> Void) {
        state.withLock { body(&$0.observed) }
    }

    /// The methods whose parameters go into the URI unless the settings say otherwise.
    public static let defaultMethodsEncodingParametersInURI: Set<String> = ["GET", "HEAD", "DELETE"]

    /// The methods whose parameters go into the URI (GET, HEAD and DELETE by default), upper case.
    public var methodsEncodingParametersInURI: Set<String> {
        get { state.withLock { $0.methodsEncodingParametersInURI } }
        set { state.withLock { $0.methodsEncodingParametersInURI = Set(newValue.map { $0.uppercased() }) } }
    }

    /// Whether `method` puts its parameters into the URI; methods compare case-insensitively.
    public func encodesParametersInURI(_ method: String) -> Bool {
        state.withLock { $0.methodsEncodingParametersInURI.contains(method.uppercased()) }
    }

    /// A custom query-string serializer, or nil for AFNetworking's rules.
    public var queryStringSerialization: QueryStringSerialization? {
        get { state.withLock { $0.queryStringSerialization } }
        set { state.withLock { $0.queryStringSerialization = newValue } }
    }

    /// A copy with its own lock and the same contents.
    public func copy() -> RequestSettings {
        let copy = RequestSettings(environment: [:])
        let current = state.withLock { $0 }
        copy.state.withLock { $0 = current }
        return copy
    }
}
