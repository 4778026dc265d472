/// Why a response failed validation or could not be decoded, chained through its underlying error.
///
/// Like AFNetworking's errors, each carries the failing URL, the response and the data. When both
/// the content type and the status fail, the status error is on top and the content-type error is
/// its ``underlying`` error.
public struct ResponseSerializationError: Error, Sendable, CustomStringConvertible {
    /// The error domain of validation errors.
    public static let domain = "io.tincan.error.serialization.response"
    /// The error domain of decoding errors (the role of Cocoa's 3840 errors).
    public static let decodingDomain = "io.tincan.error.decoding"
    /// The error domain of a GraphQL response's `errors`.
    public static let graphQLDomain = "io.tincan.error.graphql"

    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The status code is not acceptable (code -1011, `NSURLErrorBadServerResponse`).
        case unacceptableStatusCode(Int)
        /// The MIME type is not acceptable (code -1016, `NSURLErrorCannotDecodeContentData`).
        case unacceptableContentType(String?)
        /// The body is not valid in the expected format (code 3840 in the decoding domain).
        case decodingFailed(format: String, detail: String)
        /// The body is not valid text in its charset (code -1016, as AFNetworking's "Data failed
        /// decoding as a UTF-8 string").
        case undecodableText(charset: String)
        /// A GraphQL response carried errors (code 1 in the GraphQL domain), each with its
        /// message and path, whatever its status.
        case graphQLErrors([GraphQLResponseError])
    }

    /// Whether this error says the response was not acceptable (its status or content type),
    /// rather than that its body could not be decoded.
    public var isValidationFailure: Bool {
        switch reason {
        case .unacceptableStatusCode, .unacceptableContentType, .graphQLErrors: true
        case .decodingFailed, .undecodableText: false
        }
    }

    /// What went wrong.
    public var reason: Reason
    /// The URL of the failing response.
    public var url: URLReference
    /// The failing response.
    public var response: HTTPResponse
    /// The body that came with it.
    public var data: [UInt8]
    /// The error this one wraps, if any.
    public var underlying: Box?

    /// A reference holder so the error can nest itself.
    public final class Box: Sendable {
        /// The wrapped error.
        public let error: ResponseSerializationError
        init(_ error: ResponseSerializationError) { self.error = error }
    }

    /// Creates an error.
    public init(_ reason: Reason, response: HTTPResponse, data: [UInt8], underlying: ResponseSerializationError? = nil) {
        self.reason = reason
        self.url = response.url
        self.response = response
        self.data = data
        self.underlying = underlying.map(Box.init)
    }

    /// The domain this error belongs to.
    public var domain: String {
        switch reason {
        case .decodingFailed: return Self.decodingDomain
        case .graphQLErrors: return Self.graphQLDomain
        default: return Self.domain
        }
    }

    /// AFNetworking's code for this kind of failure.
    public var code: Int {
        switch reason {
        case .unacceptableStatusCode: -1011
        case .unacceptableContentType: -1016
        case .decodingFailed: 3840
        case .undecodableText: -1016
        case .graphQLErrors: 1
        }
    }

    /// The message, in AFNetworking's words.
    public var message: String {
        switch reason {
        case .unacceptableStatusCode(let code):
            "Request failed: \(HTTPResponse.localizedString(forStatusCode: code)) (\(code))"
        case .unacceptableContentType(let type):
            "Request failed: unacceptable content-type: \(type ?? "(none)")"
        case .decodingFailed(let format, let detail):
            "The \(format) body could not be decoded: \(detail)"
        case .undecodableText(let charset):
            "Data failed decoding as a UTF-8 string" + (charset == "utf-8" ? "" : " (from its charset \(charset))")
        case .graphQLErrors(let errors):
            errors.count == 1
                ? "GraphQL error: \(errors[0])"
                : "\(errors.count) GraphQL errors: " + errors.map(\.description).joined(separator: "; ")
        }
    }

    /// This error and every underlying one, outermost first.
    public var chain: [ResponseSerializationError] {
        var result = [self]
        var next = underlying
        while let box = next {
            result.append(box.error)
            next = box.error.underlying
        }
        return result
    }

    /// Whether this error or one below it has `code` in `domain`.
    public func hasCode(_ code: Int, inDomain domain: String) -> Bool {
        chain.contains { $0.code == code && $0.domain == domain }
    }

    /// A copy with `error` at the bottom of the chain (AFNetworking's `AFErrorWithUnderlyingError`).
    public func wrapping(_ error: ResponseSerializationError?) -> ResponseSerializationError {
        guard let error else { return self }
        var copy = self
        copy.underlying = Box(underlying.map { $0.error.wrapping(error) } ?? error)
        return copy
    }

    public var description: String {
        chain.map(\.message).joined(separator: " ← ")
    }
}
