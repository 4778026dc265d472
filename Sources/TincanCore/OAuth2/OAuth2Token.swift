/// An access token and what came with it (RFC 6749 §5.1).
public struct OAuth2Token: Sendable, Hashable {
    /// The access token, sent as `Authorization: Bearer …`.
    public var accessToken: String
    /// `token_type` as the server said it (`Bearer`).
    public var tokenType: String
    /// The refresh token, when the server gave one.
    public var refreshToken: String?
    /// The seconds the token lives from when it was issued, when the server said.
    public var expiresIn: Int?
    /// The scope granted, when the server said.
    public var scope: String?
    /// When it expires on the store's clock (``Timing/now``), or nil for never known.
    public var expiresAt: Duration?

    /// Creates a token.
    public init(accessToken: String, tokenType: String = "Bearer", refreshToken: String? = nil, expiresIn: Int? = nil, scope: String? = nil,
                expiresAt: Duration? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.scope = scope
        self.expiresAt = expiresAt
    }

    /// Whether the token is expired at `now`, counting it as expired `margin` early, so a
    /// token is not sent in its last seconds and refused on arrival.
    public func isExpired(at now: Duration, margin: Duration = .seconds(5)) -> Bool {
        guard let expiresAt else { return false }
        return now + margin >= expiresAt
    }
}

/// What a token or device endpoint answered, read from its JSON body.
enum OAuth2Response {
    /// The most bytes read from a token or device endpoint's response; past it the response is
    /// refused rather than kept.
    static let maximumBytes = 64 * 1024

    /// The JSON members of a token endpoint's body, or the error it reports (§5.2).
    ///
    /// - Throws: ``OAuth2Error`` for an error response, a body that is not a JSON object, or an
    ///   answer without an access token.
    static func members(status: Int, body: [UInt8], endpoint: String) throws(OAuth2Error) -> [String: ParameterValue] {
        let members: [String: ParameterValue]
        if case .dictionary(let object)? = try? JSONParser.parse(bytes: body) {
            members = Dictionary(object.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        } else {
            members = [:]
        }
        if case .string(let code)? = members["error"] {
            throw OAuth2Error(.server(endpoint: endpoint, status: status, code: code, description: members["error_description"]?.oauth2Text,
                                      uri: members["error_uri"]?.oauth2Text))
        }
        guard (200..<300).contains(status) else {
            throw OAuth2Error(.badResponse(endpoint: endpoint, "status \(status) without an OAuth 2.0 error"))
        }
        guard !members.isEmpty else {
            throw OAuth2Error(.badResponse(endpoint: endpoint, "the body is not a JSON object"))
        }
        return members
    }

    /// The token in a successful token response.
    static func token(status: Int, body: [UInt8], endpoint: String, now: Duration) throws(OAuth2Error) -> OAuth2Token {
        let members = try members(status: status, body: body, endpoint: endpoint)
        guard let access = members["access_token"]?.oauth2Text, !access.isEmpty else {
            throw OAuth2Error(.badResponse(endpoint: endpoint, "no access_token in the response"))
        }
        let type = members["token_type"]?.oauth2Text ?? "Bearer"
        guard type.lowercased() == "bearer" else {
            throw OAuth2Error(.badResponse(endpoint: endpoint, "token_type '\(type)' is not Bearer, the only type Tincan sends"))
        }
        let expiresIn = members["expires_in"]?.oauth2Integer.map { max(0, min($0, 10 * 365 * 86_400)) }
        return OAuth2Token(accessToken: access, tokenType: type, refreshToken: members["refresh_token"]?.oauth2Text, expiresIn: expiresIn,
                           scope: members["scope"]?.oauth2Text, expiresAt: expiresIn.map { now + .seconds($0) })
    }
}

/// Why an OAuth 2.0 token could not be had, in words fit for a terminal: what came from the
/// server has gone through ``TerminalText``.
public struct OAuth2Error: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The configuration cannot be used (a missing endpoint, a bad redirect URI).
        case configuration(String)
        /// The endpoint answered with an OAuth 2.0 error (§5.2, RFC 8628 §3.5).
        case server(endpoint: String, status: Int, code: String, description: String?, uri: String?)
        /// The endpoint's answer could not be used.
        case badResponse(endpoint: String, String)
        /// The request to the endpoint failed below HTTP.
        case transport(endpoint: String, String)
        /// The redirect brought an error, a wrong `state`, or no code.
        case authorization(String)
        /// The device code expired before the user approved it.
        case deviceCodeExpired(seconds: Int)
        /// Waiting was stopped.
        case cancelled
    }

    public var reason: Reason

    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .configuration(let problem): "OAuth 2.0: \(problem)"
        case .server(let endpoint, let status, let code, let text, let uri):
            "OAuth 2.0: the \(endpoint) answered \(status) \(TerminalText.line(code))"
                + (text.map { ": \(TerminalText.line($0))" } ?? "") + (uri.map { " (\(TerminalText.line($0)))" } ?? "")
        case .badResponse(let endpoint, let detail): "OAuth 2.0: unusable answer from the \(endpoint): \(TerminalText.line(detail))"
        case .transport(let endpoint, let detail): "OAuth 2.0: the \(endpoint) could not be reached: \(TerminalText.line(detail))"
        case .authorization(let detail): "OAuth 2.0: authorization failed: \(TerminalText.line(detail))"
        case .deviceCodeExpired(let seconds): "OAuth 2.0: the device code expired after \(seconds) s without approval"
        case .cancelled: "OAuth 2.0: cancelled"
        }
    }

    /// The server's error code, for an error response.
    public var serverCode: String? {
        if case .server(_, _, let code, _, _) = reason { return code }
        return nil
    }
}

extension ParameterValue {
    /// A string member as text, a number as its digits.
    var oauth2Text: String? {
        switch self {
        case .string(let text): text
        case .integer(let value): String(value)
        default: nil
        }
    }

    /// An integer member, or a string of digits (some servers quote `expires_in`).
    var oauth2Integer: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .double(let value): value.isFinite && abs(value) < 1e12 ? Int(value) : nil
        case .string(let text): Int(text)
        default: nil
        }
    }
}
