import Clocks
import Foundation
import Synchronization
import TestSupport
import Testing
import TincanCore
import TincanDemoServer

/// Every OAuth 2.0 grant end to end against the demo server's authorization server, time given
/// by a test clock: polls and expiry advance it, nothing sleeps.
@Suite("OAuth 2.0 grants against the demo server")
struct OAuth2GrantTests {
    /// A manager whose token store reads `clock`.
    static func manager<C: Clock>(_ clock: C) throws -> URLSessionManager where C.Duration == Duration {
        URLSessionManager(http: try HTTPSessionManager(baseURL: nil), oauth2Tokens: OAuth2TokenStore(timing: Timing(clock)))
    }

    static func configuration(_ server: DemoServer, _ grant: OAuth2Grant, clientID: String = "tincan-demo", secret: String? = "demo-secret") -> OAuth2Configuration {
        OAuth2Configuration(grant: grant, tokenURL: URLReference(parsing: server.baseURL + "/oauth/token"), clientID: clientID, clientSecret: secret,
                            authorizationURL: URLReference(parsing: server.baseURL + "/oauth/authorize"),
                            deviceAuthorizationURL: URLReference(parsing: server.baseURL + "/oauth/device/code"))
    }

    /// GET /oauth/protected with `configuration`.
    static func protected(_ manager: URLSessionManager, _ server: DemoServer, _ configuration: OAuth2Configuration,
                          interaction: OAuth2Interaction = .none, path: String = "/oauth/protected") async throws -> TaskResult {
        var options = TaskOptions()
        options.oauth2 = OAuth2Authorization(configuration: configuration, interaction: interaction)
        options.deadline = 30
        return try await manager.send(try RequestDraft(method: "GET", url: server.baseURL + path).build(), options: options)
    }

    /// A plain GET, as a browser or a user would make it.
    static func get(_ url: String) async throws -> TaskResult {
        let browser = URLSessionManager(http: try HTTPSessionManager(baseURL: nil))
        defer { Task { try? await browser.invalidate(cancelingTasks: true) } }
        var options = TaskOptions(responseSerializer: HTTPResponseSerializer())
        options.deadline = 30
        return try await browser.send(try RequestDraft(method: "GET", url: url).build(), options: options)
    }

    @Test("client credentials: the token is obtained with HTTP Basic, sent as a bearer token, and reused from the session's cache")
    func clientCredentials() async throws {
        try await withDemoServer { server in
            let manager = try Self.manager(TestClock())
            var configuration = Self.configuration(server, .clientCredentials)
            configuration.scope = "read"
            configuration.audience = "https://api.example"
            let first = try await Self.protected(manager, server, configuration)
            #expect(first.response?.statusCode == 200)
            #expect(await manager.oauth2Tokens.cached(for: configuration)?.accessToken.hasPrefix("at-") == true)
            let body = try json(first)
            #expect(field(body, "client_id") == "tincan-demo")
            #expect(field(body, "scope") == "read")
            #expect(field(body, "audience") == "https://api.example")
            #expect(first.tokenRequests.map(\.purpose) == ["client-credentials grant"])
            #expect(first.tokenRequests.first?.request.headers["Authorization"]?.hasPrefix("Basic ") == true)
            #expect(first.tokenRequests.first?.reason == .noToken)
            let second = try await Self.protected(manager, server, configuration)
            #expect(second.response?.statusCode == 200)
            #expect(second.tokenRequests.isEmpty, "the cached token is reused")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a client id and secret with reserved characters authenticate only through §2.3.1's form-urlencoding, and client-auth body works too")
    func clientAuthenticationEncodings() async throws {
        try await withDemoServer { server in
            let manager = try Self.manager(TestClock())
            let basic = Self.configuration(server, .clientCredentials, clientID: "tincan demo:client", secret: "p@ss word+&/")
            #expect(try await Self.protected(manager, server, basic).response?.statusCode == 200)
            var body = Self.configuration(server, .clientCredentials, clientID: "tincan demo:client", secret: "p@ss word+&/")
            body.clientAuthentication = .body
            let result = try await Self.protected(manager, server, body)
            #expect(result.response?.statusCode == 200)
            #expect(result.tokenRequests.first?.request.headers["Authorization"] == nil)
            var wrong = basic
            wrong.clientSecret = "nope"
            let refused = try await Self.protected(manager, server, wrong)
            #expect(refused.response == nil)
            guard case .authorization(let message)? = refused.transportError?.reason else {
                Issue.record("expected an authorization failure, got \(String(describing: refused.transportError))")
                return
            }
            #expect(message == "OAuth 2.0: the token endpoint answered 401 invalid_client: client authentication failed")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("password grant, then the expired token is refreshed with its refresh token when the clock passes its expiry")
    func passwordGrantAndRefreshOnExpiry() async throws {
        try await withDemoServer { server in
            let clock = TestClock()
            let manager = try Self.manager(clock)
            var configuration = Self.configuration(server, .password)
            configuration.username = "ada"
            configuration.password = "lovelace"
            let first = try await Self.protected(manager, server, configuration)
            #expect(first.response?.statusCode == 200)
            #expect(field(try json(first), "user") == "ada")
            let token = await manager.oauth2Tokens.cached(for: configuration)?.accessToken
            #expect(token != nil)
            await clock.advance(by: .seconds(200))
            let fresh = try await Self.protected(manager, server, configuration)
            #expect(fresh.tokenRequests.isEmpty, "200 s into a 300 s token it is still fresh")
            await clock.advance(by: .seconds(100))
            let refreshed = try await Self.protected(manager, server, configuration)
            #expect(refreshed.response?.statusCode == 200)
            #expect(refreshed.tokenRequests.map(\.purpose) == ["refresh"])
            #expect(refreshed.tokenRequests.first?.reason == .expired)
            #expect(await manager.oauth2Tokens.cached(for: configuration)?.accessToken != token)
            var wrong = configuration
            wrong.password = "wrong"
            let refused = try await Self.protected(manager, server, wrong)
            #expect(refused.transportError?.description == "OAuth 2.0: the token endpoint answered 400 invalid_grant: wrong username or password")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("a 401 to the token held refreshes it once and sends the request again; a second 401 is the answer")
    func refreshOnce401() async throws {
        try await withDemoServer { server in
            let manager = try Self.manager(TestClock())
            let configuration = Self.configuration(server, .clientCredentials)
            #expect(try await Self.protected(manager, server, configuration).response?.statusCode == 200)
            let token = try #require(await manager.oauth2Tokens.cached(for: configuration)?.accessToken)
            // The server forgets the token: the next request is refused.
            var revoke = RequestDraft(method: "POST", url: server.baseURL + "/oauth/revoke")
            revoke.items = [try RequestItem.parse("token=\(token)")]
            _ = try await manager.send(try revoke.build())
            let retried = try await Self.protected(manager, server, configuration)
            #expect(retried.response?.statusCode == 200)
            #expect(retried.retries == [.authentication(scheme: "Bearer", realm: nil)])
            #expect(retried.tokenRequests.map(\.purpose) == ["refresh"])
            #expect(retried.tokenRequests.first?.reason == .rejected)
            // A route that always answers 401 gets one renewal, not a loop.
            let always = try await Self.protected(manager, server, configuration, path: "/status/401")
            #expect(always.response?.statusCode == 401)
            #expect(always.retries.count == 1)
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("refresh-token grant: a refresh token the user holds is exchanged for an access token")
    func refreshTokenGrant() async throws {
        try await withDemoServer { server in
            let manager = try Self.manager(TestClock())
            let seed = try await Self.protected(manager, server, Self.configuration(server, .clientCredentials))
            #expect(seed.response?.statusCode == 200)
            let held = try #require(await manager.oauth2Tokens.cached(for: Self.configuration(server, .clientCredentials))?.refreshToken)
            var configuration = Self.configuration(server, .refreshToken)
            configuration.refreshToken = held
            let result = try await Self.protected(manager, server, configuration)
            #expect(result.response?.statusCode == 200)
            #expect(result.tokenRequests.map(\.purpose) == ["refresh"])
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("authorization code with PKCE: the test is the browser, following the authorization URL to Tincan's loopback redirect")
    func authorizationCode() async throws {
        try await withDemoServer { server in
            let manager = try Self.manager(TestClock())
            let shown = Mutex<[String]>([])
            let browsed = Mutex<[Int]>([])
            let interaction = OAuth2Interaction(showAuthorization: { url in
                shown.withLock { $0.append(url.string) }
                let visit = try? await Self.get(url.string)
                browsed.withLock { $0.append(visit?.response?.statusCode ?? 0) }
            })
            let result = try await Self.protected(manager, server, Self.configuration(server, .authorizationCode, clientID: "tincan-public", secret: nil),
                                                  interaction: interaction)
            #expect(result.response?.statusCode == 200, "\(String(describing: result.transportError))")
            let url = try #require(shown.withLock { $0.first })
            #expect(url.contains("code_challenge_method=S256"))
            #expect(url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
            #expect(browsed.withLock { $0 } == [200], "the browser lands on Tincan's page")
            #expect(result.tokenRequests.map(\.purpose) == ["authorization-code grant"])
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("authorization code: a redirect with another state is refused, and a refusal by the user is reported")
    func authorizationCodeChecksState() async throws {
        try await withDemoServer { server in
            let manager = try Self.manager(TestClock())
            let forged = OAuth2Interaction(showAuthorization: { url in
                let redirect = URLReference(parsing: url.string).query.map { OAuth2Form.decode(Substring($0)) }?.first { $0.0 == "redirect_uri" }?.1 ?? ""
                _ = try? await Self.get(redirect + "?code=stolen&state=forged")
            })
            let configuration = Self.configuration(server, .authorizationCode, clientID: "tincan-public", secret: nil)
            let result = try await Self.protected(manager, server, configuration, interaction: forged)
            #expect(result.transportError?.description == "OAuth 2.0: authorization failed: the redirect's state does not match the one sent (a forged or stale redirect)")
            let denied = OAuth2Interaction(showAuthorization: { url in _ = try? await Self.get(url.string + "&deny=1") })
            let refused = try await Self.protected(manager, server, configuration, interaction: denied)
            #expect(refused.transportError?.description == "OAuth 2.0: authorization failed: the authorization server answered access_denied: the user refused")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("authorization code: no redirect within the wait ends the task, on the test clock")
    func authorizationCodeTimesOut() async throws {
        try await withDemoServer { server in
            let clock = ImmediateClock()
            let manager = try Self.manager(clock)
            let interaction = OAuth2Interaction(redirectTimeout: .seconds(120))
            let result = try await Self.protected(manager, server, Self.configuration(server, .authorizationCode), interaction: interaction)
            #expect(result.transportError?.description == "OAuth 2.0: authorization failed: no redirect came back within 120 s")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("device code: pending, then slow_down (+5 s), then the token once the user approves; polls at the server's interval")
    func deviceCode() async throws {
        try await withDemoServer { server in
            let clock = ImmediateClock()
            let manager = try Self.manager(clock)
            let start = clock.now
            let prompts = Mutex<[OAuth2DevicePrompt]>([])
            let interaction = OAuth2Interaction(showDeviceCode: { prompt in
                prompts.withLock { $0.append(prompt) }
                _ = try? await Self.get(try #require(prompt.verificationURIComplete))
            })
            let result = try await Self.protected(manager, server, Self.configuration(server, .deviceCode), interaction: interaction)
            #expect(result.response?.statusCode == 200, "\(String(describing: result.transportError))")
            let prompt = try #require(prompts.withLock { $0.first })
            #expect(prompt.verificationURI == server.baseURL + "/oauth/device")
            #expect(prompt.interval == 1)
            #expect(result.tokenRequests.map(\.purpose) == ["device authorization", "device poll 1", "device poll 2", "device poll 3"])
            #expect(result.tokenRequests.map(\.error) == [nil, "authorization_pending", "slow_down", nil])
            #expect(start.duration(to: clock.now) == .seconds(1 + 1 + 6), "1 s, 1 s, then 6 s after slow_down")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("device code: without approval, polling stops when the code expires")
    func deviceCodeExpires() async throws {
        try await withDemoServer { server in
            let clock = ImmediateClock()
            let manager = try Self.manager(clock)
            let start = clock.now
            let result = try await Self.protected(manager, server, Self.configuration(server, .deviceCode))
            #expect(result.transportError?.description == "OAuth 2.0: the device code expired after 600 s without approval")
            #expect(start.duration(to: clock.now) <= .seconds(600))
            #expect(result.tokenRequests.count == 12, "the first request and the latest polls are kept")
            try await manager.invalidate(cancelingTasks: true)
        }
    }

    @Test("the token goes only to the request's origin: a redirect to another origin is sent without it")
    func tokenFollowsOnlyItsOrigin() async throws {
        try await withDemoServer { server in
            try await withDemoServer { other in
                let manager = try Self.manager(TestClock())
                let target = other.baseURL + "/headers"
                let path = "/redirect-to?url=" + OAuth2Form.escape(target)
                let result = try await Self.protected(manager, server, Self.configuration(server, .clientCredentials), path: path)
                #expect(result.response?.statusCode == 200)
                #expect(result.redirects.count == 1)
                #expect(field(try json(result), "headers", "Authorization") == nil)
                try await manager.invalidate(cancelingTasks: true)
            }
        }
    }

    @Test("a token endpoint's answer is bounded, and its error words reach the terminal neutralised")
    func tokenEndpointAnswersAreBoundedAndSanitised() async throws {
        let huge = try RawHTTPServer { _, socket in
            let body = "{\"access_token\": \"" + String(repeating: "a", count: 100_000) + "\"}"
            RawHTTPServer.write(socket, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
        defer { huge.stop() }
        let hostile = try RawHTTPServer { _, socket in
            let body = "{\"error\": \"invalid_scope\\u001b[2J\", \"error_description\": \"bad\\u001b]0;owned\\u0007 scope\"}"
            RawHTTPServer.write(socket, "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        }
        defer { hostile.stop() }
        try await withDemoServer { server in
            let manager = try Self.manager(TestClock())
            var configuration = Self.configuration(server, .clientCredentials)
            configuration.tokenURL = URLReference(parsing: huge.baseURL + "/token")
            let tooLarge = try await Self.protected(manager, server, configuration)
            #expect(tooLarge.transportError?.description == "OAuth 2.0: unusable answer from the endpoint \(huge.baseURL)/token: the answer is larger than 64 KiB")
            configuration.tokenURL = URLReference(parsing: hostile.baseURL + "/token")
            let refused = try await Self.protected(manager, server, configuration)
            let message = try #require(refused.transportError?.description)
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            #expect(message.hasPrefix("OAuth 2.0: the token endpoint answered 400 invalid_scope·[2J: bad·]0;owned· scope"))
            try await manager.invalidate(cancelingTasks: true)
        }
    }
}
