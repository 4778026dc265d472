extension Explanation {
    /// The Authorization step of a request sent with an OAuth 2.0 grant: where its token comes
    /// from, where the token and the client secret go (and where they never go), and the token
    /// requests made for it with why each was made.
    ///
    /// - Parameters:
    ///   - url: The request's URL: its origin is the only one the token is sent to.
    ///   - records: The token requests the last send made (none before a send, or when the
    ///     session's token was still fresh).
    ///   - cached: The token the session holds now, if any.
    ///   - now: The store's clock now, for the time the cached token has left.
    ///   - describe: The lines of a token request as shown, its secrets hidden (the caller owns
    ///     redaction).
    public static func oauth2(_ authorization: OAuth2Authorization, for url: URLReference, records: [OAuth2TokenRecord] = [], cached: OAuth2Token? = nil,
                              now: Duration = .zero, describe: (HTTPRequest) -> [String]) -> Step {
        let configuration = authorization.configuration
        var lines: [Line] = []
        lines.append(Line("OAuth 2.0, \(configuration.grant.rawValue) grant: the token from `\(configuration.tokenURL.string)` is sent as `Authorization: Bearer …`."))
        let how: String = switch configuration.grant {
        case .clientCredentials: "The client's own credentials are exchanged for a token (RFC 6749 §4.4)."
        case .password: "The user's name and password are exchanged for a token (RFC 6749 §4.3)."
        case .refreshToken: "The refresh token given is exchanged for an access token (RFC 6749 §6)."
        case .authorizationCode:
            "The browser opens `\(configuration.authorizationURL?.string ?? "")` with a PKCE S256 challenge and a random state; Tincan listens on `\(configuration.redirectURI?.string ?? "http://127.0.0.1:<free port>/callback")` for the code, checks the state, and exchanges the code with its verifier (RFC 6749 §4.1, RFC 7636)."
        case .deviceCode:
            "`\(configuration.deviceAuthorizationURL?.string ?? "")` gives a user code to enter elsewhere; Tincan polls the token endpoint at the interval the server asks, 5 s slower after each slow_down, until the code expires (RFC 8628)."
        }
        lines.append(Line(how, .detail))
        let client = switch (configuration.clientSecret, configuration.clientAuthentication) {
        case (nil, _): "The client is public: `client_id` goes in the form, with no secret."
        case (_, .basic): "The client authenticates with HTTP Basic, its id and secret form-urlencoded first (RFC 6749 §2.3.1)."
        case (_, .body): "The client sends `client_id` and `client_secret` in the form (client-auth: body)."
        }
        lines.append(Line(client, .detail))
        let origin = "\(url.scheme?.lowercased() ?? "http")://\(url.host ?? ""):\(url.effectivePort ?? 80)"
        lines.append(Line("The token goes only to `\(origin)` (a redirect to another origin is sent without it); the client secret goes only to the token and device endpoints.", .detail))
        lines.append(Line("The session keeps the token until it expires, then refreshes it with its refresh token; a 401 from `\(origin)` refreshes it once and sends the request again.", .detail))
        if let cached {
            let left = cached.expiresAt.map { "\(max(0, ($0 - now).components.seconds)) s left" } ?? "no expiry given"
            lines.append(Line("The session holds a token (\(left))\(cached.refreshToken == nil ? "" : ", with a refresh token")."))
        }
        if records.isEmpty, cached == nil, [.clientCredentials, .password, .refreshToken].contains(configuration.grant) {
            lines.append(Line("Token request a send makes first, because the session holds no token:"))
            for text in describe(configuration.tokenRequest()) { lines.append(Line("`\(text)`", .detail)) }
        }
        for record in records {
            let answer = record.status.map { "answered \($0)\(record.error.map { " \(TerminalText.line($0))" } ?? "")" } ?? "no answer"
            lines.append(Line("Token request (\(record.purpose)) because \(record.reason): \(answer)."))
            for text in describe(record.request) { lines.append(Line("`\(text)`", .detail)) }
        }
        return Step(topic: .authorization, title: "Authorization", lines: lines)
    }
}
