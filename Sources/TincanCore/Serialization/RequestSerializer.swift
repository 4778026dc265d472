/// The body encodings Tincan offers, as users pick them.
public enum SerializerKind: String, Sendable, CaseIterable, Codable {
    case form
    case json
    case plist
    case multipart

    /// The serializer for this kind, sharing `settings`.
    ///
    /// Multipart bodies are built by ``RequestSerializer/multipartRequest(method:url:parameters:constructingBody:)``
    /// on the form serializer, as in AFNetworking.
    public func makeSerializer(settings: RequestSettings) -> any RequestSerializer {
        switch self {
        case .form, .multipart: FormRequestSerializer(settings: settings)
        case .json: JSONRequestSerializer(settings: settings)
        case .plist: PropertyListRequestSerializer(settings: settings)
        }
    }
}

/// Builds requests from a method, a URL and parameters (AFNetworking's `AFURLRequestSerialization`).
///
/// A conforming type only says how parameters become a body. The shared rules live in the
/// extension: observed properties, default headers, and for the methods in
/// `methodsEncodingParametersInURI`, parameters in the query string whatever the body encoding.
public protocol RequestSerializer: Sendable {
    /// Headers, observed properties and encoding rules, shared with other serializers.
    var settings: RequestSettings { get }

    /// Which kind of serializer this is.
    var kind: SerializerKind { get }

    /// Puts `parameters` into the body of `request`, whose method sends parameters in the body.
    ///
    /// Sets Content-Type only when the request has none.
    /// - Throws: ``RequestSerializationError`` when the parameters cannot be encoded, or the
    ///   error of a custom query-string serializer unchanged.
    func encodeBody(_ parameters: ParameterValue?, into request: inout HTTPRequest) throws
}

extension RequestSerializer {
    /// Builds a request (`requestWithMethod:URLString:parameters:error:`).
    ///
    /// Applies the observed properties that were changed, then ``serialize(_:parameters:)``.
    /// - Parameters:
    ///   - method: The method; standard methods are sent upper case.
    ///   - url: The absolute URL.
    ///   - parameters: The parameters, or nil for none.
    public func request(method: String, url: URLReference, parameters: ParameterValue?) throws -> HTTPRequest {
        var request = HTTPRequest(method: HTTPMethod.normalize(method), url: url)
        settings.observedProperties.apply(to: &request)
        return try serialize(request, parameters: parameters)
    }

    /// Adds default headers and parameters to a request (`requestBySerializingRequest:withParameters:error:`).
    ///
    /// A header the request already has is never replaced by a default.
    public func serialize(_ request: HTTPRequest, parameters: ParameterValue?) throws -> HTTPRequest {
        var request = request
        for field in settings.httpRequestHeaders where !request.headers.contains(name: field.name) {
            request.headers.add(name: field.name, value: field.value)
        }
        if settings.encodesParametersInURI(request.method) {
            if let parameters, let query = try queryString(for: request, parameters: parameters), !query.isEmpty {
                request.url.query = request.url.query.map { "\($0)&\(query)" } ?? query
            }
        } else {
            try encodeBody(parameters, into: &request)
        }
        return request
    }

    /// The query string for `parameters`: the custom serializer's, or AFNetworking's rules.
    ///
    /// - Returns: nil when the parameters are empty.
    public func queryString(for request: HTTPRequest, parameters: ParameterValue) throws -> String? {
        if let custom = settings.queryStringSerialization {
            return try custom(request, parameters)
        }
        switch parameters {
        case .dictionary(let dictionary):
            return dictionary.isEmpty ? nil : QueryString.encode(dictionary)
        case .null:
            return nil
        default:
            throw RequestSerializationError(.invalidFormParameters(
                "the top level is \(parameters.kindName); a query string needs an object of name/value pairs"))
        }
    }

    /// Builds a multipart/form-data request (`multipartFormRequestWithMethod:…constructingBodyWithBlock:`).
    ///
    /// Each parameter becomes a text part named by its query-string field (`user[name]`), then
    /// `constructingBody` appends files, data and streams. With no parts at all the request has
    /// no body.
    /// - Parameter boundary: A fixed boundary for reproducible output; random when nil.
    /// - Throws: ``RequestSerializationError/Reason/multipartNotAllowed(method:)`` for GET and HEAD.
    public func multipartRequest(
        method: String,
        url: URLReference,
        parameters: ParameterValue?,
        boundary: String? = nil,
        constructingBody: (inout MultipartFormData) throws -> Void
    ) throws -> HTTPRequest {
        let method = HTTPMethod.normalize(method)
        guard method != "GET", method != "HEAD" else {
            throw RequestSerializationError(.multipartNotAllowed(method: method))
        }
        var request = HTTPRequest(method: method, url: url)
        settings.observedProperties.apply(to: &request)
        for field in settings.httpRequestHeaders {
            request.headers.add(name: field.name, value: field.value)
        }
        var form = boundary.map(MultipartFormData.init(boundary:)) ?? MultipartFormData()
        switch parameters {
        case .dictionary(let dictionary):
            for pair in QueryString.pairs(dictionary) {
                form.append(data: Array((pair.value ?? "").utf8), name: pair.field)
            }
        case .none, .null:
            break
        case .some(let other):
            throw RequestSerializationError(.invalidFormParameters(
                "the top level is \(other.kindName); form fields need an object of name/value pairs"))
        }
        try constructingBody(&form)
        guard !form.parts.isEmpty else { return request }
        request.headers.set(name: "Content-Type", value: form.contentType)
        request.headers.set(name: "Content-Length", value: String(form.contentLength))
        request.body = .multipart(form)
        return request
    }
}

/// HTTP method names.
public enum HTTPMethod {
    /// The methods Tincan offers in its pickers, in the order they are listed.
    public static let standard = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Upper-cases the standard methods (any case is accepted) and keeps extension methods as typed.
    public static func normalize(_ method: String) -> String {
        let upper = method.uppercased()
        return (standard + ["TRACE", "CONNECT"]).contains(upper) ? upper : method
    }

    /// Whether `method` is a valid method token.
    public static func isValid(_ method: String) -> Bool {
        HTTPHeaders.isValidName(method)
    }
}

// MARK: - Form

/// Parameters as `application/x-www-form-urlencoded` (AFNetworking's `AFHTTPRequestSerializer`).
///
/// With no parameters the body is empty but present, which is a valid form payload.
public struct FormRequestSerializer: RequestSerializer {
    public let settings: RequestSettings
    public var kind: SerializerKind { .form }

    /// Creates a form serializer.
    public init(settings: RequestSettings = RequestSettings()) {
        self.settings = settings
    }

    public func encodeBody(_ parameters: ParameterValue?, into request: inout HTTPRequest) throws {
        let query = try parameters.flatMap { try queryString(for: request, parameters: $0) } ?? ""
        if !request.headers.contains(name: "Content-Type") {
            request.headers.set(name: "Content-Type", value: "application/x-www-form-urlencoded")
        }
        request.body = .bytes(Array(query.utf8))
    }
}

// MARK: - JSON

/// Parameters as a JSON body (AFNetworking's `AFJSONRequestSerializer`).
public struct JSONRequestSerializer: RequestSerializer {
    public let settings: RequestSettings
    public var kind: SerializerKind { .json }
    /// Spaces per indentation level, or nil for compact JSON (the default, as `NSJSONWritingOptions(0)`).
    public var indent: Int?

    /// Creates a JSON serializer.
    public init(settings: RequestSettings = RequestSettings(), indent: Int? = nil) {
        self.settings = settings
        self.indent = indent
    }

    public func encodeBody(_ parameters: ParameterValue?, into request: inout HTTPRequest) throws {
        guard let parameters else { return }
        if !request.headers.contains(name: "Content-Type") {
            request.headers.set(name: "Content-Type", value: "application/json")
        }
        if let reason = JSONWriter.invalidityReason(parameters) {
            throw RequestSerializationError(.invalidJSONParameters(reason))
        }
        request.body = .bytes(JSONWriter.bytes(parameters, indent: indent))
    }
}

// MARK: - Property list

/// Parameters as an XML property list body (AFNetworking's `AFPropertyListRequestSerializer`).
public struct PropertyListRequestSerializer: RequestSerializer {
    public let settings: RequestSettings
    public var kind: SerializerKind { .plist }

    /// Creates a property-list serializer.
    public init(settings: RequestSettings = RequestSettings()) {
        self.settings = settings
    }

    public func encodeBody(_ parameters: ParameterValue?, into request: inout HTTPRequest) throws {
        guard let parameters else { return }
        if !request.headers.contains(name: "Content-Type") {
            request.headers.set(name: "Content-Type", value: "application/x-plist")
        }
        request.body = .bytes(try PropertyListWriter.xml(parameters))
    }
}
