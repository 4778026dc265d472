/// The requests an OAuth 2.0 client makes, built from a configuration: pure, so each is tested
/// byte by byte.
extension OAuth2Configuration {
    /// The token request for the configured grant, or for a refresh with `refreshing`.
    ///
    /// - Parameters:
    ///   - code: The authorization code and the redirect URI it was sent to, with the PKCE verifier.
    ///   - deviceCode: The device code being polled for.
    ///   - refreshing: A refresh token to exchange (RFC 6749 §6), whatever the grant.
    public func tokenRequest(code: (code: String, redirectURI: String, verifier: String)? = nil, deviceCode: String? = nil,
                             refreshing: String? = nil) -> HTTPRequest {
        var form: [(String, String)] = []
        if let refreshing {
            form = [("grant_type", "refresh_token"), ("refresh_token", refreshing)]
        } else {
            form = [("grant_type", grant.grantType)]
            switch grant {
            case .clientCredentials: break
            case .authorizationCode:
                if let code { form += [("code", code.code), ("redirect_uri", code.redirectURI), ("code_verifier", code.verifier)] }
            case .deviceCode:
                if let deviceCode { form.append(("device_code", deviceCode)) }
            case .password:
                form += [("username", username ?? ""), ("password", password ?? "")]
            case .refreshToken:
                form.append(("refresh_token", refreshToken ?? ""))
            }
        }
        // The code and device-code exchanges were asked for with the scope already.
        if let scope, !scope.isEmpty, refreshing == nil, grant != .authorizationCode, grant != .deviceCode { form.append(("scope", scope)) }
        if let audience, !audience.isEmpty, refreshing == nil { form.append(("audience", audience)) }
        form += extraParameters.map { ($0.name, $0.value) }
        return formRequest(to: tokenURL, form)
    }

    /// The device authorization request (RFC 8628 §3.1).
    public func deviceAuthorizationRequest() -> HTTPRequest {
        var form: [(String, String)] = []
        if let scope, !scope.isEmpty { form.append(("scope", scope)) }
        if let audience, !audience.isEmpty { form.append(("audience", audience)) }
        return formRequest(to: deviceAuthorizationURL ?? tokenURL, form)
    }

    /// The authorization request's URL (RFC 6749 §4.1.1, RFC 7636 §4.3), to open in a browser.
    public func authorizationRequestURL(redirectURI: String, state: String, pkce: PKCE) -> URLReference {
        var url = authorizationURL ?? tokenURL
        var pairs = [("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI)]
        if let scope, !scope.isEmpty { pairs.append(("scope", scope)) }
        if let audience, !audience.isEmpty { pairs.append(("audience", audience)) }
        pairs += [("state", state), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]
        let query = OAuth2Form.encode(pairs)
        url.query = url.query.map { $0.isEmpty ? query : "\($0)&\(query)" } ?? query
        url.fragment = nil
        return url
    }

    /// A POST of `form` with the client's authentication: HTTP Basic, or the id and secret in
    /// the form. A public client (no secret) always sends its `client_id` in the form (§3.2.1).
    func formRequest(to url: URLReference, _ form: [(String, String)]) -> HTTPRequest {
        var form = form
        var request = HTTPRequest(method: "POST", url: url)
        switch (clientAuthentication, clientSecret) {
        case (.basic, let secret?):
            request.headers.set(name: "Authorization", value: OAuth2Form.basicAuthorization(clientID: clientID, clientSecret: secret))
        case (.body, let secret?):
            form += [("client_id", clientID), ("client_secret", secret)]
        case (_, nil):
            form.append(("client_id", clientID))
        }
        request.headers.set(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.set(name: "Accept", value: "application/json")
        request.body = .bytes(Array(OAuth2Form.encode(form).utf8))
        return request
    }
}
