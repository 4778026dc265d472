import TincanCore

/// `auth: {type: oauth2, …}` as written: every value a template, expanded when the request is
/// resolved into the core's ``OAuth2Configuration``.
public struct SavedOAuth2: Sendable, Equatable {
    public var grant: OAuth2Grant
    public var tokenURL: String
    public var clientID: String
    /// The client secret, often `{{$env.NAME}}`.
    public var clientSecret: String?
    /// Basic (the default) or the form.
    public var clientAuth: OAuth2ClientAuthentication?
    public var scope: String?
    public var audience: String?
    public var authURL: String?
    /// A loopback redirect; nil for `http://127.0.0.1:<free port>/callback`.
    public var redirectURI: String?
    public var deviceURL: String?
    /// The refresh token the refresh-token grant exchanges.
    public var refreshToken: String?
    /// `token-params:`, in order.
    public var tokenParams: [OAuth2Parameter]

    /// Creates a grant.
    public init(grant: OAuth2Grant, tokenURL: String, clientID: String, clientSecret: String? = nil, clientAuth: OAuth2ClientAuthentication? = nil,
                scope: String? = nil, audience: String? = nil, authURL: String? = nil, redirectURI: String? = nil, deviceURL: String? = nil,
                refreshToken: String? = nil, tokenParams: [OAuth2Parameter] = []) {
        self.grant = grant
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientAuth = clientAuth
        self.scope = scope
        self.audience = audience
        self.authURL = authURL
        self.redirectURI = redirectURI
        self.deviceURL = deviceURL
        self.refreshToken = refreshToken
        self.tokenParams = tokenParams
    }

    /// The key each grant needs besides `token-url` and `client-id`, or nil.
    var requiredKey: SessionKey.Auth? {
        switch grant {
        case .clientCredentials, .password: nil
        case .authorizationCode: .authURL
        case .deviceCode: .deviceURL
        case .refreshToken: .refreshToken
        }
    }

    /// The core's configuration, each value expanded by `expand`.
    func configuration(user: String, password: String, expand: (String) throws(RequestResolutionError) -> String,
                       fail: (String) -> RequestResolutionError) throws(RequestResolutionError) -> OAuth2Configuration {
        func url(_ text: String?) throws(RequestResolutionError) -> URLReference? {
            guard let text else { return nil }
            return URLReference(parsing: try expand(text))
        }
        func optional(_ text: String?) throws(RequestResolutionError) -> String? {
            guard let text else { return nil }
            return try expand(text)
        }
        var parameters: [OAuth2Parameter] = []
        for parameter in tokenParams { parameters.append(OAuth2Parameter(name: try expand(parameter.name), value: try expand(parameter.value))) }
        let configuration = OAuth2Configuration(
            grant: grant, tokenURL: URLReference(parsing: try expand(tokenURL)), clientID: try expand(clientID), clientSecret: try optional(clientSecret),
            clientAuthentication: clientAuth ?? .basic, scope: try optional(scope), audience: try optional(audience), authorizationURL: try url(authURL),
            redirectURI: try url(redirectURI), deviceAuthorizationURL: try url(deviceURL),
            username: grant == .password ? try expand(user) : nil, password: grant == .password ? try expand(password) : nil,
            refreshToken: try optional(refreshToken), extraParameters: parameters)
        if let problem = configuration.problem() { throw fail(problem) }
        return configuration
    }
}
