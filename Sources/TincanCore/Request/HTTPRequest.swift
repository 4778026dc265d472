/// A request as Tincan will send it: method, absolute URL, headers in wire order, body and properties.
///
/// It plays the role of `NSMutableURLRequest` in AFNetworking, without Foundation's networking
/// layer (which on Linux would bring libcurl along and hide the exact bytes sent).
public struct HTTPRequest: Sendable {
    /// The method, as sent (upper case for the standard methods).
    public var method: String
    /// The absolute URL.
    public var url: URLReference
    /// The header fields in the order they were set.
    public var headers: HTTPHeaders
    /// The body.
    public var body: RequestBody
    /// The effective per-request properties.
    public var properties: RequestProperties
    /// The observed properties the serializer copied onto this request, in AFNetworking's order.
    public internal(set) var appliedProperties: [ObservedProperty]

    /// Creates a request with no headers, no body and default properties.
    public init(method: String, url: URLReference) {
        self.method = method
        self.url = url
        self.headers = HTTPHeaders()
        self.body = .none
        self.properties = RequestProperties()
        self.appliedProperties = []
    }
}
