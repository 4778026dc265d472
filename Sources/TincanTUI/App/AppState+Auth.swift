import TerminalUI
import TincanCore
import TincanSessions

/// A row of the Auth tab.
public enum AuthRow: Sendable, Equatable {
    case scheme, user, password, token
    /// `type: oauth2`'s keys.
    case grant, tokenURL, authURL, deviceURL, redirectURI, clientID, clientSecret, clientAuth, scope, audience, refreshToken
    /// The session's client certificate and key (`defaults: tls:`), shown here, changed in Props.
    case clientCertificate, clientKey

    var label: String {
        switch self {
        case .scheme: "type"
        case .user: "user"
        case .password: "password"
        case .token: "token"
        case .clientCertificate: "client cert"
        case .clientKey: "client key"
        case .grant: "grant"
        case .tokenURL: "token url"
        case .authURL: "auth url"
        case .deviceURL: "device url"
        case .redirectURI: "redirect uri"
        case .clientID: "client id"
        case .clientSecret: "client secret"
        case .clientAuth: "client auth"
        case .scope: "scope"
        case .audience: "audience"
        case .refreshToken: "refresh token"
        }
    }

    /// Whether the row holds a secret, shown as dots until v.
    var isSecret: Bool { [.password, .token, .clientSecret, .refreshToken].contains(self) }
}

/// The Auth tab's schemes: what `auth:` can say, and a bearer token, which is the request's
/// `Authorization: Bearer …` header.
enum AuthScheme: String, CaseIterable, Sendable {
    case none, basic, digest, bearer, oauth2
}

/// The Auth tab: none, Basic, Digest (`auth:`) or a bearer token (an `Authorization` header),
/// with secrets shown as dots until v shows them. Values keep their `{{variables}}` as typed.
extension AppState {
    /// The scheme the request uses now.
    var authScheme: AuthScheme {
        if let auth {
            switch auth.scheme {
            case .basic: return .basic
            case .digest: return .digest
            case .oauth2: return .oauth2
            }
        }
        return bearerHeaderIndex == nil ? .none : .bearer
    }

    /// The request's own `Authorization: Bearer …` row that is on, if any.
    var bearerHeaderIndex: Int? {
        headers.lastIndex { $0.isEnabled && HTTPHeaders.same($0.name, "Authorization") && $0.value.lowercased().hasPrefix("bearer ") }
    }

    /// The bearer token, as written.
    var bearerToken: String? {
        bearerHeaderIndex.map { String(headers[$0].value.dropFirst("Bearer ".count)) }
    }

    /// The rows the tab shows for the scheme in use (a token being typed for a new bearer
    /// scheme shows its row before the header exists).
    var authRows: [AuthRow] {
        if case .inlineEdit(let edit)? = Optional(mode), edit.target == .auth(.token), authScheme == .none {
            return [.scheme, .token, .clientCertificate, .clientKey]
        }
        let fields: [AuthRow] = switch authScheme {
        case .none: []
        case .basic, .digest: [.user, .password]
        case .bearer: [.token]
        case .oauth2: oauth2Rows
        }
        return [.scheme] + fields + [.clientCertificate, .clientKey]
    }

    /// A secret as the tab shows it: dots until revealed, and never its length.
    func shownSecret(_ secret: String) -> String {
        if secret.isEmpty { return "(empty)" }
        return revealsSecrets ? secret : "••••••••"
    }

    /// The value a row shows.
    func authValue(_ row: AuthRow) -> String {
        let tls = workspace.session.defaults.tls
        switch row {
        case .scheme: return authScheme.rawValue
        case .user: return auth?.user ?? ""
        case .password: return shownSecret(auth?.password ?? "")
        case .token: return shownSecret(bearerToken ?? "")
        case .clientCertificate: return tls.certificate ?? "none"
        case .clientKey: return tls.key ?? (tls.certificate == nil ? "none" : "in the cert file")
        default:
            let value = oauth2Value(row)
            return row.isSecret ? (value.isEmpty ? "(none)" : shownSecret(value)) : value
        }
    }

    // MARK: - Actions

    /// Enter on a row: the type row opens the type picker; a field row is edited in place.
    mutating func changeAuth() {
        let rows = authRows
        guard rows.indices.contains(authList.selected) else { return }
        switch rows[authList.selected] {
        case .scheme:
            mode = .modal(.picker(Picker(.authType, title: "Authentication type", options: AuthScheme.allCases.map(\.rawValue), selected: authScheme.rawValue)))
        case .user, .password, .token:
            editAuthField(rows[authList.selected])
        case .clientCertificate, .clientKey:
            status = StatusMessage("The client certificate is the session's (defaults: tls:): change it in the Props tab.")
        case .grant:
            mode = .modal(.picker(Picker(.oauth2Grant, title: "OAuth 2.0 grant", options: OAuth2Grant.allCases.map(\.rawValue),
                                         selected: auth?.oauth2?.grant.rawValue ?? OAuth2Grant.clientCredentials.rawValue)))
        case .clientAuth:
            mode = .modal(.picker(Picker(.oauth2ClientAuth, title: "Client authentication", options: OAuth2ClientAuthentication.allCases.map(\.rawValue),
                                         selected: (auth?.oauth2?.clientAuth ?? .basic).rawValue)))
        case .tokenURL, .authURL, .deviceURL, .redirectURI, .clientID, .clientSecret, .scope, .audience, .refreshToken:
            editAuthField(rows[authList.selected])
        }
    }

    /// Starts editing a field of the Auth tab in its row.
    ///
    /// - Parameter then: The field edited next when Enter confirms this one (a new credential's password).
    mutating func editAuthField(_ row: AuthRow, then next: AuthRow? = nil) {
        let value: String = switch row {
        case .user: auth?.user ?? ""
        case .password: auth?.password ?? ""
        case .token: bearerToken ?? ""
        default: oauth2Value(row)
        }
        var field = TextField(value)
        field.isSecret = row.isSecret && !revealsSecrets
        mode = .inlineEdit(InlineEdit(target: .auth(row), field: field, then: next.map { .auth($0) }))
        if let index = authRows.firstIndex(of: row) { authList.select(index, count: authRows.count) }
        let what = switch row {
        case .user: "the user name"
        case .password: "the password (a {{variable}} such as {{$env.API_PASSWORD}} keeps it out of the file)"
        case .token: "the bearer token, sent as Authorization: Bearer … (a {{variable}} keeps it out of the file)"
        case .clientSecret: "the client secret (a {{variable}} such as {{$env.CLIENT_SECRET}} keeps it out of the file)"
        default: "the \(row.label)"
        }
        status = StatusMessage("Editing \(what): enter keeps it\(next.map { " and goes on to the \($0.label)" } ?? ""), esc leaves it as it was.")
    }

    /// Keeps an edited field's text: the credentials' user or password, or the bearer header.
    ///
    /// - Returns: Why the text was refused, or nil.
    mutating func applyAuthField(_ row: AuthRow, _ text: String) -> String? {
        switch row {
        case .user:
            if auth == nil { auth = SavedAuth(scheme: .basic, user: "", password: "") }
            auth?.user = text
        case .password:
            if auth == nil { auth = SavedAuth(scheme: .basic, user: "", password: "") }
            auth?.password = text
        case .token:
            let token = text.trimmingWhitespace()
            guard !token.isEmpty else { return "expected a token (the type none sends none)" }
            return setOwnHeader("Authorization", "Bearer " + token)
        default:
            return applyOAuth2Field(row, text)
        }
        return nil
    }

    /// Switches the type. What the type switched from is kept for this request until another
    /// request is loaded, so switching back brings it again (issue 34 §5): Basic and Digest share
    /// their user and password; a bearer token is the request's `Authorization` header while it
    /// is the type. A type with nothing yet is edited in place at once.
    mutating func chooseAuthScheme(_ option: String) {
        guard let scheme = AuthScheme(rawValue: option), scheme != authScheme else { return }
        // Keep what the current type holds.
        if let auth {
            if auth.scheme == .oauth2 { authStash.oauth2 = auth } else { authStash.credentials = auth }
        }
        if let token = bearerToken { authStash.token = token }
        if scheme != .bearer, let index = bearerHeaderIndex { headers.remove(at: index) }
        switch scheme {
        case .none:
            auth = nil
            status = StatusMessage(authStash.isEmpty ? "No authentication." : "No authentication; the credentials are kept until another request is loaded, should you switch back.")
        case .oauth2:
            auth = authStash.oauth2 ?? SavedAuth(scheme: .oauth2, user: "", password: "", oauth2: SavedOAuth2(grant: .clientCredentials, tokenURL: "", clientID: ""))
            if auth?.oauth2?.tokenURL.isEmpty == true {
                editAuthField(.tokenURL, then: .clientID)
            } else {
                status = StatusMessage("OAuth 2.0, \(auth?.oauth2?.grant.rawValue ?? "") grant.")
            }
        case .basic, .digest:
            let kind: SavedAuth.Scheme = scheme == .basic ? .basic : .digest
            var credentials = (auth?.scheme == .oauth2 ? nil : auth) ?? authStash.credentials ?? SavedAuth(scheme: kind, user: "", password: "")
            credentials.scheme = kind
            auth = credentials
            if credentials.user.isEmpty, credentials.password.isEmpty {
                editAuthField(.user, then: .password)
            } else {
                status = StatusMessage("\(scheme == .basic ? "Basic" : "Digest") authentication as \(credentials.user.isEmpty ? "(no user)" : credentials.user).")
            }
        case .bearer:
            auth = nil
            if let token = authStash.token, !token.isEmpty {
                _ = setOwnHeader("Authorization", "Bearer " + token)
                status = StatusMessage("Bearer token authentication.")
            } else {
                editAuthField(.token)
            }
        }
        authList.select(authList.selected, count: authRows.count)
    }
}

/// What the Auth tab keeps of the types switched away from, for the request in the panes.
struct AuthStash: Sendable, Equatable {
    /// Basic or Digest's user and password.
    var credentials: SavedAuth?
    /// The bearer token.
    var token: String?
    /// The OAuth 2.0 grant.
    var oauth2: SavedAuth?

    var isEmpty: Bool { credentials == nil && token == nil && oauth2 == nil }
}
