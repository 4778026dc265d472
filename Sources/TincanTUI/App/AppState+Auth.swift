import TerminalUI
import TincanCore
import TincanSessions

/// A row of the Auth tab.
enum AuthRow: Sendable, Equatable {
    case scheme, user, password, token
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
        }
    }
}

/// The Auth tab's schemes: what `auth:` can say, and a bearer token, which is the request's
/// `Authorization: Bearer …` header.
enum AuthScheme: String, CaseIterable, Sendable {
    case none, basic, digest, bearer
}

/// The Auth tab: none, Basic, Digest (`auth:`) or a bearer token (an `Authorization` header),
/// with secrets shown as dots until v shows them. Values keep their `{{variables}}` as typed.
extension AppState {
    /// The scheme the request uses now.
    var authScheme: AuthScheme {
        if let auth { return auth.scheme == .basic ? .basic : .digest }
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

    /// The rows the tab shows for the scheme in use.
    var authRows: [AuthRow] {
        let fields: [AuthRow] = switch authScheme {
        case .none: []
        case .basic, .digest: [.user, .password]
        case .bearer: [.token]
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
        }
    }

    // MARK: - Actions

    /// Changes the selected row: a picker for the type, a prompt for a value.
    mutating func changeAuth() {
        let rows = authRows
        guard rows.indices.contains(authList.selected) else { return }
        switch rows[authList.selected] {
        case .scheme:
            mode = .modal(.picker(Picker(.authType, title: "Authentication", options: AuthScheme.allCases.map(\.rawValue), selected: authScheme.rawValue)))
        case .user: promptAuthUser()
        case .password:
            mode = .modal(.prompt(Prompt(.authPassword, title: "Password", question: "Password, or a {{variable}} such as {{$env.API_PASSWORD}}", text: auth?.password ?? "", isSecret: !revealsSecrets)))
        case .token: promptBearerToken()
        case .clientCertificate, .clientKey:
            status = StatusMessage("The client certificate is the session's (defaults: tls:): change it in the Props tab.")
        }
    }

    /// Shows secrets as they are, or as dots again.
    mutating func toggleSecrets() {
        revealsSecrets.toggle()
        status = StatusMessage(revealsSecrets ? "Secrets are shown; v hides them." : "Secrets are hidden.")
    }

    private mutating func promptAuthUser() {
        mode = .modal(.prompt(Prompt(.authUser, title: "User", question: "User name, or a {{variable}}", text: auth?.user ?? "")))
    }

    private mutating func promptBearerToken() {
        mode = .modal(.prompt(Prompt(.bearerToken, title: "Bearer token", question: "Sent as Authorization: Bearer …; a {{variable}} keeps it out of the file",
                                     text: bearerToken ?? "", isSecret: !revealsSecrets)))
    }

    /// Switches the scheme: credentials are kept between Basic and Digest, a bearer header is
    /// removed when another scheme is chosen, and the first value is asked for.
    mutating func chooseAuthScheme(_ option: String) {
        guard let scheme = AuthScheme(rawValue: option), scheme != authScheme else { return }
        if scheme != .bearer, let index = bearerHeaderIndex { headers.remove(at: index) }
        switch scheme {
        case .none:
            auth = nil
        case .basic, .digest:
            let kind: SavedAuth.Scheme = scheme == .basic ? .basic : .digest
            if auth != nil {
                auth?.scheme = kind
            } else {
                auth = SavedAuth(scheme: kind, user: "", password: "")
                promptAuthUser()
            }
        case .bearer:
            auth = nil
            promptBearerToken()
        }
        authList.select(authList.selected, count: authRows.count)
    }

    /// Answers the user prompt; a new credential asks for its password next.
    mutating func answerAuthUser(_ text: String) -> String? {
        guard auth != nil else { return nil }
        let isNew = auth?.user.isEmpty == true && auth?.password.isEmpty == true
        auth?.user = text
        if isNew {
            mode = .modal(.prompt(Prompt(.authPassword, title: "Password", question: "Password, or a {{variable}} such as {{$env.API_PASSWORD}}", isSecret: !revealsSecrets)))
        }
        return nil
    }

    mutating func answerAuthPassword(_ text: String) -> String? {
        auth?.password = text
        return nil
    }

    /// Sets the bearer token: the request's `Authorization` row, added or replaced.
    mutating func answerBearerToken(_ text: String) -> String? {
        let token = text.trimmingWhitespace()
        guard !token.isEmpty else { return "expected a token (choose the type none to send none)" }
        return setOwnHeader("Authorization", "Bearer " + token)
    }
}
