/// The request head exactly as it goes on the wire, after transport framing.
public struct WireHead: Sendable, Hashable {
    /// The method.
    public var method: String
    /// The origin-form request target: path and query.
    public var target: String
    /// The header fields in wire order, with Host and the framing headers in place.
    public var headers: HTTPHeaders

    /// The head as text: request line, fields, and the blank line, with CRLF line ends.
    public var text: String {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        for field in headers { text += "\(field.name): \(field.value)\r\n" }
        return text + "\r\n"
    }
}

extension HTTPRequest {
    /// The head as the transport sends it.
    ///
    /// Framing follows AsyncHTTPClient, which Tincan sends through: Host comes first when the
    /// request does not set it; Content-Length and Transfer-Encoding are dropped and set again
    /// last from the body (no Content-Length for an empty GET, HEAD, DELETE, CONNECT or TRACE;
    /// `Content-Length: 0` for an empty body of any other method).
    public var wireHead: WireHead {
        var headers = HTTPHeaders()
        if !self.headers.contains(name: "Host"), let host = url.hostHeaderValue {
            headers.add(name: "Host", value: host)
        }
        for field in self.headers where !HTTPHeaders.same(field.name, "Content-Length") && !HTTPHeaders.same(field.name, "Transfer-Encoding") {
            headers.add(name: field.name, value: field.value)
        }
        let length = body.length ?? 0
        if length > 0 || Self.framesEmptyBody(method) {
            headers.add(name: "Content-Length", value: String(length))
        }
        return WireHead(method: method, target: url.requestTarget, headers: headers)
    }

    /// Whether an empty body of `method` is sent with `Content-Length: 0`: AsyncHTTPClient frames
    /// every method that way except GET, HEAD, DELETE, CONNECT and TRACE, whose semantics
    /// anticipate no body.
    public static func framesEmptyBody(_ method: String) -> Bool {
        !["GET", "HEAD", "DELETE", "CONNECT", "TRACE"].contains(method)
    }

    /// Checks that every header can be sent, as the transport will.
    ///
    /// - Throws: ``RequestSerializationError/Reason/invalidHeader(name:reason:)``.
    public func validateHeaders() throws {
        for field in headers {
            guard HTTPHeaders.isValidName(field.name) else {
                throw RequestSerializationError(.invalidHeader(name: field.name, reason: "a header name may only hold letters, digits and !#$%&'*+-.^_`|~"))
            }
            guard HTTPHeaders.isValidValue(field.value) else {
                throw RequestSerializationError(.invalidHeader(name: field.name, reason: "the value holds a control character (only tab is allowed)"))
            }
        }
    }
}
