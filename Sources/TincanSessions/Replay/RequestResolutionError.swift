import TincanCore

/// A request that could not be resolved: which one, where, and why.
public struct RequestResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the request could not be resolved.
    public enum Reason: Sendable, Equatable {
        /// A `{{name}}` has no value, or its variables refer to one another in a cycle.
        case missingVariable(MissingVariableError)
        /// The upload rate, once its variables are expanded, is not a rate.
        case invalidUploadRate(NumericRangeError)
        /// The session's `tls:` files cannot be used.
        case clientCertificate(ClientIdentityError)
        /// The session's `proxy:` cannot be used.
        case proxy(ProxyError)
        /// The OAuth 2.0 grant, once its variables are expanded, cannot be used.
        case oauth2(String)
        /// A WebSocket request's URL or messages cannot be used.
        case webSocket(String)
    }

    /// The request, as `#1 name`.
    public var request: String
    public var file: String?
    /// The line of the reference at fault when it is known, else of the request; 0 for none.
    public var line: Int
    /// Why it could not be resolved.
    public var reason: Reason
    /// The column of the reference at fault, when it is known.
    public var column: Int?

    /// Creates an error.
    public init(request: String, file: String?, line: Int, reason: Reason, column: Int? = nil) {
        self.request = request
        self.file = file
        self.line = line
        self.reason = reason
        self.column = column
    }

    public var description: String {
        var location = ""
        if let file {
            location = file
            if line > 0 { location += ":\(line)" + (column.map { ":\($0)" } ?? "") }
            location += ": "
        }
        let why = switch reason {
        case .missingVariable(let error): error.description
        case .invalidUploadRate(let error): error.description
        case .clientCertificate(let error): "tls: \(error)"
        case .proxy(let error): "proxy: \(error)"
        case .oauth2(let problem): "auth: \(problem)"
        case .webSocket(let problem): "websocket: \(problem)"
        }
        return "\(location)request '\(request)': \(why)"
    }
}
