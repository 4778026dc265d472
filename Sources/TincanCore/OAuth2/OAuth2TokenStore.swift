/// Sends one request to a token or device endpoint and returns its status and body (at most
/// ``OAuth2TokenStore/maximumResponseBytes``).
public typealias OAuth2Exchange = @Sendable (HTTPRequest) async throws(OAuth2Error) -> (status: Int, body: [UInt8])

/// A session's OAuth 2.0 tokens (RFC 6749): each configuration's token kept with its expiry,
/// refreshed with its refresh token when it expires or the server refuses it, obtained through
/// the configured grant otherwise.
///
/// A ``URLSessionManager`` holds one, as it holds the cookie jar, so every request of a session
/// (a replayed file, the TUI's open session) shares its tokens. Time is read from an
/// ``Timing``, so tests advance it instead of waiting.
public actor OAuth2TokenStore {
    /// The most bytes read from a token or device endpoint.
    public static let maximumResponseBytes = OAuth2Response.maximumBytes

    /// The clock expiry and polling use.
    public nonisolated let timing: Timing
    private var tokens: [OAuth2Configuration: OAuth2Token] = [:]
    private var pending: [OAuth2Configuration: Task<OAuth2Outcome, any Error>] = [:]

    /// A store reading `timing`.
    public init(timing: Timing = .continuous) {
        self.timing = timing
    }

    /// The token held for `configuration`, expired or not.
    public func cached(for configuration: OAuth2Configuration) -> OAuth2Token? {
        tokens[configuration]
    }

    /// Forgets every token (the TUI's command to sign out).
    public func removeAll() {
        tokens = [:]
    }

    /// A token for `configuration`: the cached one while it is fresh, else a refreshed or new one.
    ///
    /// Calls for one configuration that overlap share one token request.
    ///
    /// - Parameters:
    ///   - rejected: An access token the resource server refused (a 401): it is not returned again.
    ///   - exchange: Sends the token and device requests.
    ///   - interaction: Shows the user what a grant asks of them.
    /// - Returns: The token, and the token requests made for it (none when it was cached).
    /// - Throws: ``OAuth2Failure``: why, and the token requests made before it failed.
    public func token(for configuration: OAuth2Configuration, rejected: String? = nil, exchange: @escaping OAuth2Exchange,
                      interaction: OAuth2Interaction) async throws(OAuth2Failure) -> OAuth2Outcome {
        let now = timing.now()
        let cached = tokens[configuration]
        if let cached, cached.accessToken != rejected, !cached.isExpired(at: now) { return OAuth2Outcome(token: cached, records: []) }
        if let running = pending[configuration] { return try await Self.value(of: running) }
        let reason: OAuth2TokenReason = cached == nil ? .noToken : (cached?.accessToken == rejected ? .rejected : .expired)
        let timing = timing
        let task = Task {
            var flow = OAuth2Flow(configuration: configuration, timing: timing, exchange: exchange, interaction: interaction)
            do {
                return try await flow.obtain(reason: reason, refreshToken: cached?.refreshToken ?? configuration.refreshToken)
            } catch {
                throw OAuth2Failure(error: error as? OAuth2Error ?? OAuth2Error(.cancelled), records: flow.records)
            }
        }
        pending[configuration] = task
        defer { pending[configuration] = nil }
        let outcome = try await Self.value(of: task)
        var token = outcome.token
        // A refresh may come without a new refresh token: the old one stays good (§6).
        if token.refreshToken == nil { token.refreshToken = cached?.refreshToken }
        tokens[configuration] = token
        return OAuth2Outcome(token: token, records: outcome.records)
    }

    private static func value(of task: Task<OAuth2Outcome, any Error>) async throws(OAuth2Failure) -> OAuth2Outcome {
        do {
            return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        } catch let failure as OAuth2Failure {
            throw failure
        } catch {
            throw OAuth2Failure(error: OAuth2Error(.cancelled), records: [])
        }
    }
}

/// Why no token could be had, with the token requests made on the way (a device flow's polls).
public struct OAuth2Failure: Error, Sendable {
    public var error: OAuth2Error
    public var records: [OAuth2TokenRecord]
}

/// A token and the requests made to have it.
public struct OAuth2Outcome: Sendable {
    public var token: OAuth2Token
    /// The token (and device) requests made, in order.
    public var records: [OAuth2TokenRecord]
}

/// Why a token request was made.
public enum OAuth2TokenReason: Sendable, Hashable, CustomStringConvertible {
    /// The session held no token for this configuration.
    case noToken
    /// The token held had expired (or would within seconds).
    case expired
    /// The resource server answered 401 to the token held.
    case rejected
    /// A refresh was refused, so the grant was carried out again.
    case refreshRefused(String)

    public var description: String {
        switch self {
        case .noToken: "the session held no token"
        case .expired: "the token held had expired"
        case .rejected: "the server answered 401 to the token held"
        case .refreshRefused(let code): "the refresh was refused (\(TerminalText.line(code)))"
        }
    }
}

/// One request made to a token or device endpoint, for the Explain view and reports.
public struct OAuth2TokenRecord: Sendable {
    /// What the request was for: `client-credentials grant`, `refresh`, `device authorization`, `device poll 2`.
    public var purpose: String
    /// Why it was made.
    public var reason: OAuth2TokenReason
    /// The request as sent (its secrets are the configuration's ``OAuth2Configuration/secrets``,
    /// the Basic header and the codes: show it through ``RequestSecrets``-style hiding).
    public var request: HTTPRequest
    /// The status answered, or nil when no answer came.
    public var status: Int?
    /// The error code answered (`authorization_pending`), when there was one.
    public var error: String?
}

/// One carrying-out of a grant, with the records of what it sent.
struct OAuth2Flow {
    let configuration: OAuth2Configuration
    let timing: Timing
    let exchange: OAuth2Exchange
    let interaction: OAuth2Interaction
    var records: [OAuth2TokenRecord] = []

    init(configuration: OAuth2Configuration, timing: Timing, exchange: @escaping OAuth2Exchange, interaction: OAuth2Interaction) {
        self.configuration = configuration
        self.timing = timing
        self.exchange = exchange
        self.interaction = interaction
    }

    /// Refreshes with `refreshToken` when there is one and a token is held; carries the grant
    /// out otherwise, or when the refresh is refused.
    mutating func obtain(reason: OAuth2TokenReason, refreshToken: String?) async throws(OAuth2Error) -> OAuth2Outcome {
        if let problem = configuration.problem() { throw OAuth2Error(.configuration(problem)) }
        var reason = reason
        if let refreshToken, reason != .noToken || configuration.grant == .refreshToken {
            do {
                let token = try await post(configuration.tokenRequest(refreshing: refreshToken), purpose: "refresh", reason: reason)
                return OAuth2Outcome(token: token, records: records)
            } catch let error where error.serverCode != nil && configuration.grant != .refreshToken {
                reason = .refreshRefused(error.serverCode ?? "")
            }
        }
        let token: OAuth2Token
        switch configuration.grant {
        case .clientCredentials, .password, .refreshToken:
            token = try await post(configuration.tokenRequest(), purpose: "\(configuration.grant.rawValue) grant", reason: reason)
        case .authorizationCode:
            token = try await authorizationCode(reason: reason)
        case .deviceCode:
            token = try await deviceCode(reason: reason)
        }
        return OAuth2Outcome(token: token, records: records)
    }

    /// Posts a token request and reads the token it answers.
    private mutating func post(_ request: HTTPRequest, purpose: String, reason: OAuth2TokenReason) async throws(OAuth2Error) -> OAuth2Token {
        let answer = try await send(request, purpose: purpose, reason: reason)
        do {
            return try OAuth2Response.token(status: answer.status, body: answer.body, endpoint: "token endpoint", now: timing.now())
        } catch {
            records[records.count - 1].error = error.serverCode
            throw error
        }
    }

    private mutating func send(_ request: HTTPRequest, purpose: String, reason: OAuth2TokenReason) async throws(OAuth2Error) -> (status: Int, body: [UInt8]) {
        // A long device poll keeps its first request and the latest ones.
        if records.count >= 12 { records.remove(at: 1) }
        records.append(OAuth2TokenRecord(purpose: purpose, reason: reason, request: request))
        let answer = try await exchange(request)
        records[records.count - 1].status = answer.status
        return answer
    }

    // MARK: - Authorization code with PKCE (RFC 6749 §4.1, RFC 7636)

    private mutating func authorizationCode(reason: OAuth2TokenReason) async throws(OAuth2Error) -> OAuth2Token {
        let state = PKCE.randomToken(bytes: 16)
        let pkce = PKCE()
        let listener = try await OAuth2RedirectListener.start(redirectURI: configuration.redirectURI, state: state)
        let redirectURI = listener.redirectURI.string
        let url = configuration.authorizationRequestURL(redirectURI: redirectURI, state: state, pkce: pkce)
        await interaction.showAuthorization(url)
        interaction.openBrowser?(url.string)
        let code: String
        do {
            code = try await Self.first({ () async throws(OAuth2Error) -> String in try await listener.code() }, orTimeout: interaction.redirectTimeout, timing: timing)
        } catch {
            await listener.close()
            throw error
        }
        await listener.close()
        return try await post(configuration.tokenRequest(code: (code, redirectURI, pkce.verifier)), purpose: "authorization-code grant", reason: reason)
    }

    /// The code, unless `timeout` passes first on `timing`'s clock.
    private static func first(_ code: @escaping @Sendable () async throws(OAuth2Error) -> String, orTimeout timeout: Duration,
                              timing: Timing) async throws(OAuth2Error) -> String {
        do {
            return try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { try await code() }
                group.addTask {
                    try await timing.sleep(timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let code = first else {
                    throw OAuth2Error(.authorization("no redirect came back within \(timeout.components.seconds) s"))
                }
                return code
            }
        } catch let error as OAuth2Error {
            throw error
        } catch {
            throw OAuth2Error(.cancelled)
        }
    }

    // MARK: - Device authorization (RFC 8628)

    private mutating func deviceCode(reason: OAuth2TokenReason) async throws(OAuth2Error) -> OAuth2Token {
        let answer = try await send(configuration.deviceAuthorizationRequest(), purpose: "device authorization", reason: reason)
        let members = try OAuth2Response.members(status: answer.status, body: answer.body, endpoint: "device authorization endpoint")
        func text(_ name: String) -> String? { members[name]?.oauth2Text }
        func seconds(_ name: String) -> Int? { members[name]?.oauth2Integer }
        // Google's endpoint says verification_url.
        guard let deviceCode = text("device_code"), let userCode = text("user_code"),
              let verification = text("verification_uri") ?? text("verification_url")
        else {
            throw OAuth2Error(.badResponse(endpoint: "device authorization endpoint", "device_code, user_code or verification_uri is missing"))
        }
        let expiresIn = min(max(seconds("expires_in") ?? 1800, 1), 86_400)
        var interval = min(max(seconds("interval") ?? 5, 1), 300)
        let prompt = OAuth2DevicePrompt(verificationURI: verification, verificationURIComplete: text("verification_uri_complete"), userCode: userCode,
                                        expiresIn: expiresIn, interval: interval)
        await interaction.showDeviceCode(prompt)
        interaction.openBrowser?(prompt.verificationURIComplete ?? prompt.verificationURI)
        let deadline = timing.now() + .seconds(expiresIn)
        var poll = 0
        while true {
            guard timing.now() + .seconds(interval) <= deadline else { throw OAuth2Error(.deviceCodeExpired(seconds: expiresIn)) }
            do {
                try await timing.sleep(.seconds(interval))
            } catch {
                throw OAuth2Error(.cancelled)
            }
            poll += 1
            do {
                return try await post(configuration.tokenRequest(deviceCode: deviceCode), purpose: "device poll \(poll)", reason: reason)
            } catch let error {
                switch error.serverCode {
                case "authorization_pending": continue
                case "slow_down": interval += 5
                case "expired_token": throw OAuth2Error(.deviceCodeExpired(seconds: expiresIn))
                default: throw error
                }
            }
        }
    }
}
