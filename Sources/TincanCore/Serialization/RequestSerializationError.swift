/// Why a request could not be built, with AFNetworking's error domain and codes.
public struct RequestSerializationError: Error, Sendable, CustomStringConvertible {
    /// The error domain of every request-serialization error.
    public static let domain = "io.tincan.error.serialization.request"

    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The parameters cannot be written as JSON (code -1016, `NSURLErrorCannotDecodeContentData`).
        case invalidJSONParameters(String)
        /// The parameters cannot be written as a property list (code -1016).
        case invalidPropertyListParameters(String)
        /// The parameters are not a dictionary, so they have no query-string form (code -1016).
        case invalidFormParameters(String)
        /// The URL cannot be used (code -1000, `NSURLErrorBadURL`).
        case invalidURL(String, reason: String)
        /// A multipart file does not exist or cannot be reached (code -1000).
        case fileNotReachable(path: String)
        /// A multipart file is a directory or another non-regular file (code -1000).
        case notARegularFile(path: String)
        /// A file exists but cannot be read (code -1000).
        case fileUnreadable(path: String, reason: String)
        /// Multipart bodies cannot go with this method (code -1000).
        case multipartNotAllowed(method: String)
        /// A header name or value cannot be sent (code -1000).
        case invalidHeader(name: String, reason: String)
        /// A part stream produced a different number of bytes than it declared (code -1000).
        case streamLengthMismatch(name: String, declared: Int64, actual: Int64)
    }

    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// The error code, as AFNetworking's errors in the same situations carry.
    public var code: Int {
        switch reason {
        case .invalidJSONParameters, .invalidPropertyListParameters, .invalidFormParameters: -1016
        default: -1000
        }
    }

    /// The failure reason, in one sentence.
    public var description: String {
        switch reason {
        case .invalidJSONParameters(let detail):
            "The `parameters` argument is not valid JSON: \(detail)."
        case .invalidPropertyListParameters(let detail):
            "The `parameters` argument is not a valid property list: \(detail)."
        case .invalidFormParameters(let detail):
            "The `parameters` argument cannot be form-encoded: \(detail)."
        case .invalidURL(let url, let reason):
            "The URL '\(url)' cannot be used: \(reason)."
        case .fileNotReachable(let path):
            "File not reachable: '\(path)' does not exist."
        case .notARegularFile(let path):
            "'\(path)' is not a regular file."
        case .fileUnreadable(let path, let reason):
            "Cannot read '\(path)': \(reason)."
        case .multipartNotAllowed(let method):
            "A multipart body cannot be sent with \(method); use POST, PUT or PATCH."
        case .invalidHeader(let name, let reason):
            "The header '\(name)' cannot be sent: \(reason)."
        case .streamLengthMismatch(let name, let declared, let actual):
            "The stream for part '\(name)' declared \(declared) bytes but gave \(actual)."
        }
    }
}
