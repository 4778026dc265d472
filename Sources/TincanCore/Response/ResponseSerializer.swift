/// A response body after its serializer has decoded it.
public enum DecodedBody: Sendable, Equatable {
    /// No body, or nothing the serializer could decode.
    case none
    /// The raw bytes (the HTTP serializer decodes nothing).
    case data([UInt8])
    /// A JSON value, checked whole and decoded where it is read (with nulls removed, when
    /// asked, from the decoded tree).
    case json(JSONDocument)
    /// An XML document's root element.
    case xml(XMLTree)
    /// A property list, as the same value tree as JSON.
    case propertyList(ParameterValue)
    /// An image's format and pixel size, read from its header without decoding pixels.
    case image(ImageInfo)
}

/// A response serializer's verdict: the decoded body and the error, either or both.
///
/// As in AFNetworking, a body can decode and still fail validation (a JSON error page with 404).
public struct ResponseSerialization: Sendable {
    /// The decoded body.
    public var body: DecodedBody
    /// The validation or decoding error, chained, or nil when the response is valid.
    public var error: ResponseSerializationError?

    /// Whether the response passed validation and decoded.
    public var isValid: Bool { error == nil }
}

/// Validates and decodes responses (AFNetworking's `AFURLResponseSerialization`).
///
/// Conformers say what they accept and how they decode; the extension holds AFNetworking's
/// validation: content type first, then status, the status error wrapping the content-type error.
public protocol ResponseSerializer: Sendable {
    /// The acceptable status codes, or nil for any.
    var acceptableStatusCodes: StatusCodeSet? { get set }
    /// The acceptable MIME types (lower case), or nil for any.
    var acceptableContentTypes: Set<String>? { get set }
    /// Which kind of serializer this is.
    var kind: ResponseSerializerKind { get }

    /// Validates and decodes a response.
    ///
    /// - Parameters:
    ///   - response: The response head.
    ///   - data: The whole body.
    ///   - request: The request, when known (HEAD responses pass content-type validation).
    func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization
}

extension ResponseSerializer {
    /// AFNetworking's validation: the error for an unacceptable content type and/or status, or nil.
    ///
    /// A response with no body passes the content-type check when it has no MIME type, when its
    /// status is 204 or 205, or when it answers a HEAD request.
    public func validate(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerializationError? {
        var error: ResponseSerializationError?
        if let acceptable = acceptableContentTypes {
            let mimeType = response.mimeType
            let bodiless = data.isEmpty && (mimeType == nil || [204, 205].contains(response.statusCode) || request?.method == "HEAD")
            if !bodiless, !(mimeType.map(acceptable.contains) ?? false) {
                error = ResponseSerializationError(.unacceptableContentType(mimeType), response: response, data: data)
            }
        }
        if let acceptable = acceptableStatusCodes, !acceptable.contains(response.statusCode) {
            error = ResponseSerializationError(.unacceptableStatusCode(response.statusCode), response: response, data: data, underlying: error)
        }
        return error
    }

    /// Validates, then decodes with `decode` unless the content type was refused (AFNetworking
    /// decodes a body whose only fault is its status).
    func validatingThenDecoding(
        _ response: HTTPResponse,
        data: [UInt8],
        request: HTTPRequest?,
        decode: () throws(ResponseSerializationError) -> DecodedBody
    ) -> ResponseSerialization {
        let validation = validate(response, data: data, request: request)
        if let validation, validation.hasCode(-1016, inDomain: ResponseSerializationError.domain) {
            return ResponseSerialization(body: .none, error: validation)
        }
        do {
            return ResponseSerialization(body: try decode(), error: validation)
        } catch {
            return ResponseSerialization(body: .none, error: error.wrapping(validation))
        }
    }
}

/// The response serializers, by the names users pick them with.
public enum ResponseSerializerKind: String, Sendable, CaseIterable, Codable {
    case http, json, xml, plist, image, compound
    /// JSON whose `errors` array fails validation: the default for a GraphQL body.
    case graphql

    /// A serializer of this kind with its defaults.
    public func makeSerializer() -> any ResponseSerializer {
        switch self {
        case .http: HTTPResponseSerializer()
        case .json: JSONResponseSerializer()
        case .xml: XMLResponseSerializer()
        case .plist: PropertyListResponseSerializer()
        case .image: ImageResponseSerializer()
        case .compound: CompoundResponseSerializer()
        case .graphql: GraphQLResponseSerializer()
        }
    }
}

// MARK: - HTTP

/// Validates status and content type and keeps the body as bytes.
public struct HTTPResponseSerializer: ResponseSerializer {
    public var acceptableStatusCodes: StatusCodeSet? = .successful
    public var acceptableContentTypes: Set<String>?
    public var kind: ResponseSerializerKind { .http }

    /// Creates the serializer: statuses 200–299, any content type.
    public init() {}

    public func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization {
        ResponseSerialization(body: data.isEmpty ? .none : .data(data), error: validate(response, data: data, request: request))
    }
}

// MARK: - JSON

/// Decodes JSON (`application/json`, `text/json`, `text/javascript`).
public struct JSONResponseSerializer: ResponseSerializer {
    public var acceptableStatusCodes: StatusCodeSet? = .successful
    public var acceptableContentTypes: Set<String>? = ["application/json", "text/json", "text/javascript"]
    /// Whether keys whose value is null are removed, recursively, inside arrays too.
    public var removesKeysWithNullValues = false
    /// Whether a top-level scalar is accepted (`NSJSONReadingFragmentsAllowed`).
    public var allowsFragments = false
    public var kind: ResponseSerializerKind { .json }

    /// Creates the serializer with AFNetworking's defaults.
    public init() {}

    public func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization {
        validatingThenDecoding(response, data: data, request: request) { () throws(ResponseSerializationError) -> DecodedBody in
            // An empty body, or the single space some servers send for "nothing", is no object and no error.
            if data.isEmpty || data == [0x20] { return .none }
            // As AFNetworking: the body is read in its charset (UTF-8 when none) and parsed as UTF-8.
            guard let text = TextEncoding.utf8(data, charset: response.textEncodingName) else {
                throw ResponseSerializationError(.undecodableText(charset: response.textEncodingName ?? "utf-8"), response: response, data: data)
            }
            let document: JSONDocument
            do {
                document = try JSONDocument(bytes: text)
            } catch {
                throw ResponseSerializationError(.decodingFailed(format: "JSON", detail: "\(error)"), response: response, data: data)
            }
            if !allowsFragments, !document.isContainer {
                throw ResponseSerializationError(
                    .decodingFailed(format: "JSON", detail: "the top level is \(document.kindName) and fragments are not allowed"),
                    response: response, data: data)
            }
            return .json(removesKeysWithNullValues ? document.removingNullMembers() : document)
        }
    }

    /// Removes dictionary entries whose value is null, at every depth, inside arrays too.
    /// Nulls that are array elements stay: they hold a position.
    public static func removingKeysWithNullValues(_ value: ParameterValue) -> ParameterValue {
        switch value {
        case .array(let array): return .array(array.map(removingKeysWithNullValues))
        case .dictionary(let dictionary):
            var result = dictionary
            for (key, element) in dictionary {
                if case .null = element { result.removeValue(forKey: key) } else { result[key] = removingKeysWithNullValues(element) }
            }
            return .dictionary(result)
        default: return value
        }
    }
}

/// Null removal (`removesKeysWithNullValues`) through every serializer that decodes JSON: the
/// JSON serializer, and the JSON members of a compound one.
public enum NullRemoval {
    /// `serializer` with null removal turned on wherever it decodes JSON.
    public static func applied(to serializer: any ResponseSerializer) -> any ResponseSerializer {
        if var json = serializer as? JSONResponseSerializer {
            json.removesKeysWithNullValues = true
            return json
        }
        if var compound = serializer as? CompoundResponseSerializer {
            compound.serializers = compound.serializers.map(applied(to:))
            return compound
        }
        if var graphQL = serializer as? GraphQLResponseSerializer {
            graphQL.json.removesKeysWithNullValues = true
            return graphQL
        }
        return serializer
    }

    /// Whether `serializer` removes nulls from the JSON it decodes.
    public static func isOn(in serializer: any ResponseSerializer) -> Bool {
        if let json = serializer as? JSONResponseSerializer { return json.removesKeysWithNullValues }
        if let compound = serializer as? CompoundResponseSerializer { return compound.serializers.contains(where: isOn(in:)) }
        if let graphQL = serializer as? GraphQLResponseSerializer { return graphQL.json.removesKeysWithNullValues }
        return false
    }
}

// MARK: - Compound

/// Tries serializers in order; the first that decodes a body wins, carrying its own error (such as
/// a bad status). When none decodes, falls back to plain HTTP validation.
///
/// Its acceptable status codes are handed to every serializer it holds, and its acceptable
/// content types (when set) are checked before any of them decodes, so that one setting governs
/// validation whichever serializer wins.
public struct CompoundResponseSerializer: ResponseSerializer {
    /// The serializers to try, in order.
    public var serializers: [any ResponseSerializer]
    public var acceptableStatusCodes: StatusCodeSet? = .successful {
        didSet {
            for index in serializers.indices { serializers[index].acceptableStatusCodes = acceptableStatusCodes }
        }
    }
    public var acceptableContentTypes: Set<String>?
    public var kind: ResponseSerializerKind { .compound }

    /// Creates a compound serializer; by default JSON, XML, property list, then image.
    public init(serializers: [any ResponseSerializer] = [JSONResponseSerializer(), XMLResponseSerializer(), PropertyListResponseSerializer(), ImageResponseSerializer()]) {
        self.serializers = serializers
    }

    public func serialize(_ response: HTTPResponse, data: [UInt8], request: HTTPRequest?) -> ResponseSerialization {
        let refusedType = validate(response, data: data, request: request)?.hasCode(-1016, inDomain: ResponseSerializationError.domain) ?? false
        for serializer in serializers where !refusedType {
            let result = serializer.serialize(response, data: data, request: request)
            if result.body != .none { return result }
        }
        var fallback = HTTPResponseSerializer()
        fallback.acceptableStatusCodes = acceptableStatusCodes
        fallback.acceptableContentTypes = acceptableContentTypes
        return fallback.serialize(response, data: data, request: request)
    }
}
