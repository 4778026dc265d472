/// How a request gets its OAuth 2.0 access token (RFC 6749, with RFC 7636's PKCE and RFC 8628's
/// device flow): every value resolved, nothing left to expand.
///
/// It is the key of the session's token cache (``OAuth2TokenStore``), so two requests that say
/// the same thing share one token.
public struct OAuth2Configuration: Sendable, Hashable {
    /// The grant that obtains the first token.
    public var grant: OAuth2Grant
    /// The token endpoint (RFC 6749 §3.2).
    public var tokenURL: URLReference
    /// The client identifier (§2.2).
    public var clientID: String
    /// The client secret, or nil for a public client (which then sends its `client_id` in the form).
    public var clientSecret: String?
    /// How the client authenticates at the token and device endpoints.
    public var clientAuthentication: OAuth2ClientAuthentication
    /// The scope asked for, space-separated as written, or nil for the server's default.
    public var scope: String?
    /// `audience`, passed through to the token endpoint (Auth0, Okta and RFC 8693 servers read it).
    public var audience: String?
    /// The authorization endpoint, for the authorization-code grant.
    public var authorizationURL: URLReference?
    /// The redirection endpoint for the authorization-code grant: a loopback `http` URL that
    /// Tincan listens on, or nil for `http://127.0.0.1:<free port>/callback`.
    public var redirectURI: URLReference?
    /// The device authorization endpoint (RFC 8628 §3.1), for the device-code grant.
    public var deviceAuthorizationURL: URLReference?
    /// The resource owner's name and password, for the password grant (§4.3).
    public var username: String?
    public var password: String?
    /// The refresh token to exchange, for the refresh-token grant (§6).
    public var refreshToken: String?
    /// Further parameters sent to the token endpoint as they are, in order.
    public var extraParameters: [OAuth2Parameter]

    /// Creates a configuration.
    public init(grant: OAuth2Grant, tokenURL: URLReference, clientID: String, clientSecret: String? = nil,
                clientAuthentication: OAuth2ClientAuthentication = .basic, scope: String? = nil, audience: String? = nil,
                authorizationURL: URLReference? = nil, redirectURI: URLReference? = nil, deviceAuthorizationURL: URLReference? = nil,
                username: String? = nil, password: String? = nil, refreshToken: String? = nil, extraParameters: [OAuth2Parameter] = []) {
        self.grant = grant
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientAuthentication = clientAuthentication
        self.scope = scope
        self.audience = audience
        self.authorizationURL = authorizationURL
        self.redirectURI = redirectURI
        self.deviceAuthorizationURL = deviceAuthorizationURL
        self.username = username
        self.password = password
        self.refreshToken = refreshToken
        self.extraParameters = extraParameters
    }

    /// The values that must not be shown: the client secret, the password and a refresh token.
    public var secrets: [String] {
        [clientSecret, password, refreshToken].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// Why this configuration cannot be used, or nil when it can: each grant's own endpoint and
    /// credentials, and endpoints that are absolute http(s) URLs.
    public func problem() -> String? {
        func check(_ url: URLReference?, _ key: String) -> String? {
            guard let url else { return "the \(grant.rawValue) grant needs \(key)" }
            guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false else {
                return "\(key) must be an absolute http or https URL, not '\(url.string)'"
            }
            return nil
        }
        if let problem = check(tokenURL, "token-url") { return problem }
        if clientID.isEmpty { return "client-id is empty" }
        switch grant {
        case .clientCredentials:
            return nil
        case .authorizationCode:
            if let problem = check(authorizationURL, "auth-url") { return problem }
            if let redirectURI { return OAuth2RedirectListener.problem(with: redirectURI) }
            return nil
        case .deviceCode:
            return check(deviceAuthorizationURL, "device-url")
        case .password:
            return username == nil || password == nil ? "the password grant needs user and password" : nil
        case .refreshToken:
            return refreshToken?.isEmpty == false ? nil : "the refresh-token grant needs refresh-token"
        }
    }
}

/// One extra parameter of a token request.
public struct OAuth2Parameter: Sendable, Hashable {
    public var name: String
    public var value: String

    /// Creates a parameter.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The OAuth 2.0 grants Tincan can carry out, by their session-file names.
public enum OAuth2Grant: String, Sendable, Hashable, CaseIterable {
    /// RFC 6749 §4.4: the client's own credentials.
    case clientCredentials = "client-credentials"
    /// RFC 6749 §4.1 with RFC 7636's PKCE (S256), through a browser and a loopback redirect.
    case authorizationCode = "authorization-code"
    /// RFC 8628: a user code entered on another device while Tincan polls.
    case deviceCode = "device-code"
    /// RFC 6749 §4.3: the resource owner's name and password.
    case password
    /// RFC 6749 §6: a refresh token the user already holds.
    case refreshToken = "refresh-token"

    /// The `grant_type` the token request sends.
    public var grantType: String {
        switch self {
        case .clientCredentials: "client_credentials"
        case .authorizationCode: "authorization_code"
        case .deviceCode: "urn:ietf:params:oauth:grant-type:device_code"
        case .password: "password"
        case .refreshToken: "refresh_token"
        }
    }
}

/// How the client authenticates to the token and device authorization endpoints.
public enum OAuth2ClientAuthentication: String, Sendable, Hashable, CaseIterable {
    /// HTTP Basic with the form-urlencoded id and secret (RFC 6749 §2.3.1), the default.
    case basic
    /// `client_id` and `client_secret` in the request's form.
    case body
}
