import TincanCore

/// An OAuth 2.0 grant as Postman, Insomnia or Bruno saves it: read into a session's
/// `auth: {type: oauth2, …}` on import, and written back on export. One table of each tool's
/// names serves both ways.
struct CollectionOAuth2 {
    /// What one tool calls each setting.
    struct Names {
        var grant: String
        var tokenURL: String
        var authURL: String
        var clientID: String
        var clientSecret: String
        var scope: String
        var audience: String?
        var redirectURI: String
        var username: String
        var password: String
        var refreshToken: String?
        /// The setting that says where the client's credentials go.
        var clientAuth: String
        /// The tool's words for each grant Tincan has.
        var grants: [String: OAuth2Grant]
        /// The word written for each grant the tool has (Postman's code grant with PKCE).
        var written: [OAuth2Grant: String]
        /// The client-authentication values written for Basic and for the form.
        var basicAndBody: (basic: String, body: String)
    }

    static let postman = Names(grant: "grant_type", tokenURL: "accessTokenUrl", authURL: "authUrl", clientID: "clientId", clientSecret: "clientSecret",
                               scope: "scope", audience: "audience", redirectURI: "redirect_uri", username: "username", password: "password",
                               refreshToken: nil, clientAuth: "client_authentication",
                               grants: ["client_credentials": .clientCredentials, "authorization_code": .authorizationCode,
                                        "authorization_code_with_pkce": .authorizationCode, "password_credentials": .password],
                               written: [.clientCredentials: "client_credentials", .authorizationCode: "authorization_code_with_pkce", .password: "password_credentials"],
                               basicAndBody: ("header", "body"))

    static let insomnia = Names(grant: "grantType", tokenURL: "accessTokenUrl", authURL: "authorizationUrl", clientID: "clientId", clientSecret: "clientSecret",
                                scope: "scope", audience: "audience", redirectURI: "redirectUrl", username: "username", password: "password",
                                refreshToken: "refreshToken", clientAuth: "credentialsInBody",
                                grants: ["client_credentials": .clientCredentials, "authorization_code": .authorizationCode, "password": .password,
                                         "refresh_token": .refreshToken],
                                written: [.clientCredentials: "client_credentials", .authorizationCode: "authorization_code", .password: "password", .refreshToken: "refresh_token"],
                                basicAndBody: ("false", "true"))

    static let bruno = Names(grant: "grant_type", tokenURL: "access_token_url", authURL: "authorization_url", clientID: "client_id", clientSecret: "client_secret",
                             scope: "scope", audience: nil, redirectURI: "callback_url", username: "username", password: "password",
                             refreshToken: nil, clientAuth: "credentials_placement",
                             grants: ["client_credentials": .clientCredentials, "authorization_code": .authorizationCode, "password": .password],
                             written: [.clientCredentials: "client_credentials", .authorizationCode: "authorization_code", .password: "password"],
                             basicAndBody: ("basic_auth_header", "body"))

    /// The credentials `value` gives under `names`, or the lines that say what was not carried
    /// over (the grant, when Tincan has none like it or its endpoint is missing).
    ///
    /// - Parameter value: The setting of that name, as text with the tool's references already
    ///   made Tincan's (`{{name}}`), or nil when the tool saved none.
    static func read(_ names: Names, place: String, value: (String) -> String?) -> (auth: SavedAuth?, notCarried: [String]) {
        func text(_ key: String?) -> String? {
            key.flatMap(value).flatMap { $0.isEmpty ? nil : $0 }
        }
        let word = text(names.grant) ?? "authorization_code"
        guard let grant = names.grants[word] else {
            return (nil, ["\(place): the OAuth 2.0 \(word) grant is not carried over; Tincan's grants are client credentials, authorization code (with PKCE), device code, password and refresh token"])
        }
        guard let tokenURL = text(names.tokenURL), let clientID = text(names.clientID) else {
            return (nil, ["\(place): its OAuth 2.0 auth has no token URL or no client id, and is not carried over"])
        }
        var notCarried: [String] = []
        var oauth2 = SavedOAuth2(grant: grant, tokenURL: tokenURL, clientID: clientID, clientSecret: text(names.clientSecret),
                                 scope: text(names.scope), audience: text(names.audience))
        if let how = text(names.clientAuth) {
            // Postman's "body", Bruno's "body", Insomnia's credentialsInBody: true.
            oauth2.clientAuth = ["body", "true"].contains(how) ? .body : .basic
        }
        if grant == .authorizationCode {
            guard let authURL = text(names.authURL) else {
                return (nil, ["\(place): its OAuth 2.0 authorization-code grant has no authorization URL, and is not carried over"])
            }
            oauth2.authURL = authURL
            if let redirect = text(names.redirectURI) {
                let url = URLReference(parsing: redirect)
                if url.scheme?.lowercased() == "http", ["127.0.0.1", "localhost", "::1"].contains(url.host?.lowercased() ?? "") {
                    oauth2.redirectURI = redirect
                } else {
                    notCarried.append("\(place): the redirect URI \(TerminalText.line(redirect)) is not carried over: Tincan listens on a loopback redirect (http://127.0.0.1:<free port>/callback unless redirect-uri: names one), which the authorization server must allow")
                }
            }
        }
        if grant == .refreshToken {
            guard let token = text(names.refreshToken) else {
                return (nil, ["\(place): its OAuth 2.0 refresh-token grant has no refresh token, and is not carried over"])
            }
            oauth2.refreshToken = token
        }
        let user = grant == .password ? text(names.username) ?? "" : ""
        let password = grant == .password ? text(names.password) ?? "" : ""
        return (SavedAuth(scheme: .oauth2, user: user, password: password, oauth2: oauth2), notCarried)
    }

    /// The settings `auth` is written as under `names`, in the tool's order, secrets through
    /// `secret` (the export's masking); nil when the tool has no such grant.
    static func settings(of auth: SavedAuth, _ names: Names, secret: (String, String) -> String) -> [(key: String, value: String)]? {
        guard let oauth2 = auth.oauth2, let grant = names.written[oauth2.grant] else { return nil }
        var pairs: [(key: String, value: String)] = [(names.grant, grant), (names.tokenURL, oauth2.tokenURL)]
        if let authURL = oauth2.authURL { pairs.append((names.authURL, authURL)) }
        if let redirect = oauth2.redirectURI { pairs.append((names.redirectURI, redirect)) }
        pairs.append((names.clientID, oauth2.clientID))
        if let clientSecret = oauth2.clientSecret { pairs.append((names.clientSecret, secret(clientSecret, names.clientSecret))) }
        if let scope = oauth2.scope { pairs.append((names.scope, scope)) }
        if let audience = oauth2.audience, let key = names.audience { pairs.append((key, audience)) }
        if let token = oauth2.refreshToken, let key = names.refreshToken { pairs.append((key, secret(token, key))) }
        if oauth2.grant == .password {
            pairs.append((names.username, auth.user))
            pairs.append((names.password, secret(auth.password, names.password)))
        }
        // Written only when the session says: each tool's default is Basic, as Tincan's is.
        if let how = oauth2.clientAuth { pairs.append((names.clientAuth, how == .body ? names.basicAndBody.body : names.basicAndBody.basic)) }
        return pairs
    }
}
