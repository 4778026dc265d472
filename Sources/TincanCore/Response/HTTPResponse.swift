import Foundation

/// A response head as received: status, headers, and what they say about the body.
public struct HTTPResponse: Sendable, Hashable {
    /// The URL the response came from (after redirects).
    public var url: URLReference
    /// The status code.
    public var statusCode: Int
    /// The header fields, in the order received.
    public var headers: HTTPHeaders
    /// The protocol version the server answered in: what was negotiated, not what was offered.
    public var version: HTTPVersion

    /// Creates a response head.
    public init(url: URLReference, statusCode: Int, headers: HTTPHeaders = [:], version: HTTPVersion = .http1_1) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.version = version
    }

    /// The status line: `HTTP/2 200 OK`.
    public var statusLine: String {
        let reason = Self.reasonPhrase(forStatusCode: statusCode)
        return reason.isEmpty ? "\(version) \(statusCode)" : "\(version) \(statusCode) \(reason)"
    }

    /// The MIME type from Content-Type, lower case and without parameters, or nil.
    public var mimeType: String? {
        headers["Content-Type"].flatMap(MIMEType.essence(of:))
    }

    /// The `charset` parameter of Content-Type, lower case, or nil.
    public var textEncodingName: String? {
        headers["Content-Type"].flatMap { HTTPHeaders.parameter("charset", in: $0) }?.lowercased()
    }

    /// The length Content-Length announces, or nil when it is absent or not a number.
    public var expectedContentLength: Int64? {
        headers["Content-Length"].flatMap { Int64($0.trimmingWhitespace()) }
    }

    /// The standard reason phrase for a status line (RFC 9110), or an empty string.
    public static func reasonPhrase(forStatusCode code: Int) -> String {
        standardReasons[code] ?? ""
    }

    private static let standardReasons: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Content Too Large", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 418: "I'm a teapot",
        422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// The status's reason in lower case, as Apple's `localizedString(forStatusCode:)` words it.
    public static func localizedString(forStatusCode code: Int) -> String {
        if let reason = reasons[code] { return reason }
        switch code {
        case 100..<200: return "informational"
        case 200..<300: return "no error"
        case 300..<400: return "redirected"
        case 400..<500: return "client error"
        case 500..<600: return "server error"
        default: return "unknown"
        }
    }

    private static let reasons: [Int: String] = [
        100: "continue", 101: "switching protocols", 200: "no error", 201: "created", 202: "accepted",
        203: "non-authoritative information", 204: "no content", 205: "reset content", 206: "partial content",
        300: "multiple choices", 301: "moved permanently", 302: "found", 303: "see other", 304: "not modified",
        305: "needs proxy", 307: "temporarily redirected", 308: "permanent redirect", 400: "bad request",
        401: "unauthorized", 402: "payment required", 403: "forbidden", 404: "not found", 405: "method not allowed",
        406: "unacceptable", 407: "proxy authentication required", 408: "request timed out", 409: "conflict",
        410: "no longer exists", 411: "length required", 412: "precondition failed", 413: "request too large",
        414: "requested URL too long", 415: "unsupported media type", 416: "requested range not satisfiable",
        417: "expectation failed", 418: "I'm a teapot", 422: "unprocessable content", 429: "too many requests",
        500: "internal server error", 501: "unimplemented", 502: "bad gateway", 503: "service unavailable",
        504: "gateway timed out", 505: "unsupported version",
    ]
}
