import TincanCore
import TincanSessions

/// The Auth tab's OAuth 2.0 rows (`auth: {type: oauth2, …}`): the grant and the client
/// authentication chosen from lists, the rest edited in place, the client secret and the
/// refresh token shown as dots until v. `token-params:` is edited in the file.
extension AppState {
    /// The rows for the grant in use: its own endpoint or credentials, then the client's.
    var oauth2Rows: [AuthRow] {
        let own: [AuthRow] = switch auth?.oauth2?.grant ?? .clientCredentials {
        case .clientCredentials: []
        case .authorizationCode: [.authURL, .redirectURI]
        case .deviceCode: [.deviceURL]
        case .password: [.user, .password]
        case .refreshToken: [.refreshToken]
        }
        return [.grant, .tokenURL] + own + [.clientID, .clientSecret, .clientAuth, .scope, .audience]
    }

    /// An OAuth 2.0 row's value as written (secrets too: the caller hides them).
    func oauth2Value(_ row: AuthRow) -> String {
        guard let oauth2 = auth?.oauth2 else { return "" }
        return switch row {
        case .grant: oauth2.grant.rawValue
        case .tokenURL: oauth2.tokenURL
        case .authURL: oauth2.authURL ?? ""
        case .deviceURL: oauth2.deviceURL ?? ""
        case .redirectURI: oauth2.redirectURI ?? ""
        case .clientID: oauth2.clientID
        case .clientSecret: oauth2.clientSecret ?? ""
        case .clientAuth: (oauth2.clientAuth ?? .basic).rawValue
        case .scope: oauth2.scope ?? ""
        case .audience: oauth2.audience ?? ""
        case .refreshToken: oauth2.refreshToken ?? ""
        default: ""
        }
    }

    /// Keeps an edited OAuth 2.0 field; an empty optional field is left out of the file.
    ///
    /// - Returns: Why the text was refused, or nil.
    mutating func applyOAuth2Field(_ row: AuthRow, _ text: String) -> String? {
        guard var oauth2 = auth?.oauth2 else { return nil }
        let value = text.trimmingWhitespace()
        let optional = value.isEmpty ? nil : value
        switch row {
        case .tokenURL:
            guard !value.isEmpty else { return "expected the token endpoint's URL" }
            oauth2.tokenURL = value
        case .clientID:
            guard !value.isEmpty else { return "expected the client id" }
            oauth2.clientID = value
        case .authURL: oauth2.authURL = optional
        case .deviceURL: oauth2.deviceURL = optional
        case .redirectURI:
            if let optional, !optional.contains("{{"), let problem = OAuth2RedirectListener.problem(with: URLReference(parsing: optional)) { return problem }
            oauth2.redirectURI = optional
        case .clientSecret: oauth2.clientSecret = text.isEmpty ? nil : text
        case .scope: oauth2.scope = optional
        case .audience: oauth2.audience = optional
        case .refreshToken: oauth2.refreshToken = optional
        default: return nil
        }
        auth?.oauth2 = oauth2
        return nil
    }

    /// The grant picked from the list; its own endpoint is asked for at once when it has none.
    mutating func chooseOAuth2Grant(_ option: String) {
        guard let grant = OAuth2Grant(rawValue: option) else { return }
        auth?.oauth2?.grant = grant
        authList.select(authList.selected, count: authRows.count)
        let missing: AuthRow? = switch grant {
        case .authorizationCode where auth?.oauth2?.authURL == nil: .authURL
        case .deviceCode where auth?.oauth2?.deviceURL == nil: .deviceURL
        case .refreshToken where auth?.oauth2?.refreshToken == nil: .refreshToken
        case .password where auth?.user.isEmpty ?? true: .user
        default: nil
        }
        if let missing {
            editAuthField(missing, then: missing == .user ? .password : nil)
        } else {
            status = StatusMessage("OAuth 2.0, \(grant.rawValue) grant.")
        }
    }

    /// The client authentication picked from the list.
    mutating func chooseOAuth2ClientAuthentication(_ option: String) {
        guard let method = OAuth2ClientAuthentication(rawValue: option) else { return }
        auth?.oauth2?.clientAuth = method == .basic ? nil : method
        status = StatusMessage(method == .basic ? "The client authenticates with HTTP Basic." : "The client sends its id and secret in the form.")
    }
}
