import Synchronization

/// The HTTP session manager: a base URL, a request serializer, and the HTTP verbs
/// (AFNetworking's `AFHTTPSessionManager`).
///
/// This part builds requests; sending them goes through a transport.
public final class HTTPSessionManager: Sendable {
    /// The base URL that relative URLs resolve against, with its trailing slash added.
    public let baseURL: URLReference?

    private let serializer: Mutex<any RequestSerializer>

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - baseURL: An absolute http or https URL, or nil. A non-empty path without a trailing
    ///     slash gets one, so that `foo` resolves below it rather than beside it.
    ///   - requestSerializer: The serializer; form encoding by default.
    /// - Throws: ``RequestSerializationError/Reason/invalidURL(_:reason:)`` for a base that is not an absolute http(s) URL.
    public init(baseURL: String? = nil, requestSerializer: any RequestSerializer = FormRequestSerializer()) throws {
        if let baseURL {
            if let checked = Self.checkedBases.withLock({ $0[baseURL] }) {
                self.baseURL = checked
            } else {
                let parsed = URLReference(parsing: URLReference.escapingInvalidCharacters(baseURL))
                try Self.validate(parsed, typed: baseURL)
                let checked = Self.addingTrailingSlash(to: parsed)
                Self.checkedBases.withLock { bases in
                    if bases.count >= Self.checkedBasesLimit { bases.removeAll() }
                    bases[baseURL] = checked
                }
                self.baseURL = checked
            }
        } else {
            self.baseURL = nil
        }
        self.serializer = Mutex(requestSerializer)
    }

    /// Base URLs already parsed and checked, by the text given (only ones that passed): a replay
    /// builds each request with a manager on its session's base, and reading and checking the
    /// same base again was a third of a request's building.
    private static let checkedBases = Mutex<[String: URLReference]>([:])
    private static let checkedBasesLimit = 64

    /// The request serializer; replacing it keeps nothing of the old one but what its settings share.
    public var requestSerializer: any RequestSerializer {
        get { serializer.withLock { $0 } }
        set { serializer.withLock { $0 = newValue } }
    }

    /// Adds `/` to a URL whose path is non-empty and lacks one (AFNetworking's base URL rule).
    public static func addingTrailingSlash(to url: URLReference) -> URLReference {
        var url = url
        if !url.path.isEmpty, !url.path.hasSuffix("/") { url.path += "/" }
        return url
    }

    /// Resolves `urlString` against the base URL (RFC 3986), or takes it as absolute.
    ///
    /// The empty string means the base URL itself.
    /// - Throws: ``RequestSerializationError`` when the result is not an absolute http(s) URL.
    public func resolve(_ urlString: String) throws -> URLReference {
        let reference = URLReference(parsing: URLReference.escapingInvalidCharacters(urlString))
        let resolved: URLReference
        if let baseURL {
            resolved = reference.resolved(against: baseURL)
        } else {
            resolved = URLReference(
                scheme: reference.scheme, authority: reference.authority,
                path: reference.isAbsolute ? URLReference.removingDotSegments(reference.path) : reference.path,
                query: reference.query, fragment: reference.fragment)
        }
        try Self.validate(resolved, typed: urlString)
        return resolved
    }

    static func validate(_ url: URLReference, typed: String) throws {
        if let problem = URLReference.typedTextProblem(typed) {
            // Shown escaped, so the message cannot carry the control character to a terminal.
            throw RequestSerializationError(.invalidURL(URLReference.escapingInvalidCharacters(typed), reason: problem))
        }
        guard let scheme = url.scheme else {
            throw RequestSerializationError(.invalidURL(typed, reason: "it has no scheme (expected http:// or https://) and there is no base URL"))
        }
        guard ["http", "https"].contains(scheme.lowercased()) else {
            throw RequestSerializationError(.invalidURL(typed, reason: "the scheme '\(scheme)' is not http or https"))
        }
        guard let host = url.host, !host.isEmpty else {
            throw RequestSerializationError(.invalidURL(typed, reason: "it has no host"))
        }
        if let problem = url.authorityProblem {
            throw RequestSerializationError(.invalidURL(typed, reason: problem))
        }
    }

    // MARK: - Building requests

    /// Builds a request for `method` (AFNetworking's `dataTaskWithHTTPMethod:…` before the task).
    ///
    /// - Parameters:
    ///   - method: The method; GET, HEAD, POST, PUT, PATCH and DELETE have their own shortcuts.
    ///   - urlString: A URL, relative to the base URL or absolute.
    ///   - parameters: The parameters, or nil.
    ///   - headers: Per-request headers. Each replaces a default header of the same name.
    public func request(method: String, _ urlString: String, parameters: ParameterValue? = nil, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        var request = try requestSerializer.request(method: method, url: resolve(urlString), parameters: parameters)
        Self.apply(headers, to: &request)
        return request
    }

    /// Builds a multipart/form-data request; see ``RequestSerializer/multipartRequest(method:url:parameters:constructingBody:)``.
    public func multipartRequest(
        method: String,
        _ urlString: String,
        parameters: ParameterValue? = nil,
        headers: HTTPHeaders = [:],
        constructingBody: (inout MultipartFormData) throws -> Void
    ) throws -> HTTPRequest {
        var request = try requestSerializer.multipartRequest(
            method: method, url: resolve(urlString), parameters: parameters, constructingBody: constructingBody)
        Self.apply(headers, to: &request)
        return request
    }

    /// A GET request.
    public func get(_ urlString: String, parameters: ParameterValue? = nil, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        try request(method: "GET", urlString, parameters: parameters, headers: headers)
    }

    /// A HEAD request.
    public func head(_ urlString: String, parameters: ParameterValue? = nil, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        try request(method: "HEAD", urlString, parameters: parameters, headers: headers)
    }

    /// A POST request.
    public func post(_ urlString: String, parameters: ParameterValue? = nil, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        try request(method: "POST", urlString, parameters: parameters, headers: headers)
    }

    /// A PUT request.
    public func put(_ urlString: String, parameters: ParameterValue? = nil, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        try request(method: "PUT", urlString, parameters: parameters, headers: headers)
    }

    /// A PATCH request.
    public func patch(_ urlString: String, parameters: ParameterValue? = nil, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        try request(method: "PATCH", urlString, parameters: parameters, headers: headers)
    }

    /// A DELETE request.
    public func delete(_ urlString: String, parameters: ParameterValue? = nil, headers: HTTPHeaders = [:]) throws -> HTTPRequest {
        try request(method: "DELETE", urlString, parameters: parameters, headers: headers)
    }

    /// Sets each per-request header, replacing a default of the same name where it stands.
    static func apply(_ headers: HTTPHeaders, to request: inout HTTPRequest) {
        for field in headers {
            request.headers.set(name: field.name, value: field.value)
        }
    }
}
