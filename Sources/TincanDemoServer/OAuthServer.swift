import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OrderedCollections
import Synchronization
import TincanCore

/// The demo server's OAuth 2.0 authorization server (RFC 6749, RFC 7636, RFC 8628, RFC 7009),
/// for tests and the OAuth lesson, under `/oauth`:
///
/// - `POST /oauth/token`: the client-credentials, password, authorization-code (PKCE S256
///   checked), device-code and refresh-token grants; clients authenticate with HTTP Basic
///   (id and secret form-urlencoded, §2.3.1) or in the form.
/// - `GET /oauth/authorize`: the demo user consents at once and is redirected to the loopback
///   `redirect_uri` with the code and `state` (`deny=1` answers `access_denied`).
/// - `POST /oauth/device/code` and `GET /oauth/device?user_code=…` (the page the user opens,
///   which approves; `deny=1` refuses). A device code's first poll answers
///   `authorization_pending` and its second `slow_down`, so clients show they honour both.
/// - `GET /oauth/protected`: the resource, 401 with `WWW-Authenticate: Bearer` without a live token.
/// - `POST /oauth/revoke`: forgets an access or refresh token.
///
/// Clients: `tincan-demo` (secret `demo-secret`), `tincan demo:client` (secret `p@ss word+&/`,
/// which only a correct form-urlencoding of Basic gets right) and the public `tincan-public`
/// (no secret, PKCE only). The password grant's user is `ada`, password `lovelace`. Tokens last
/// `lifetime` seconds when the token request asks (a demo extra parameter, 1–86400), else 300.
/// Everything is kept per server, at most 10,000 of each kind, the oldest forgotten first.
final class OAuthServer: Sendable {
    static let clients: [String: String?] = ["tincan-demo": "demo-secret", "tincan demo:client": "p@ss word+&/", "tincan-public": nil]
    static let user = ("ada", "lovelace")
    static let defaultLifetime = 300
    static let capacity = 10_000

    struct Grant: Sendable {
        var clientID: String
        var user: String?
        var scope: String?
        var audience: String?
    }

    struct Code: Sendable {
        var grant: Grant
        var redirectURI: String
        var challenge: String
    }

    struct Device: Sendable {
        var grant: Grant
        var userCode: String
        var polls = 0
        var approved: Bool?
        var expires: ContinuousClock.Instant
    }

    struct Token: Sendable {
        var grant: Grant
        var expires: ContinuousClock.Instant
    }

    struct State: Sendable {
        var codes = OrderedDictionary<String, Code>()
        var devices = OrderedDictionary<String, Device>()
        var userCodes = OrderedDictionary<String, String>()
        var accessTokens = OrderedDictionary<String, Token>()
        var refreshTokens = OrderedDictionary<String, Grant>()
    }

    private let state = Mutex(State())

    func register(on router: Router<BasicRequestContext>) {
        router.post("/oauth/token") { request, _ in try await self.token(request) }
        router.get("/oauth/authorize") { request, _ in self.authorize(request) }
        router.post("/oauth/device/code") { request, _ in try await self.deviceCode(request) }
        router.get("/oauth/device") { request, _ in self.approve(request) }
        router.getAndHead("/oauth/protected") { request, _ in self.protected(request) }
        router.post("/oauth/revoke") { request, _ in try await self.revoke(request) }
    }

    // MARK: - Endpoints

    private func token(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        guard let client = authenticate(request, form) else { return Self.unauthorized() }
        let lifetime = form["lifetime"].flatMap(Int.init).map { min(max($0, 1), 86_400) } ?? Self.defaultLifetime
        switch form["grant_type"] ?? "" {
        case "client_credentials":
            guard Self.clients[client] != nil, Self.clients[client]! != nil else { return Self.error("unauthorized_client", "a public client cannot use client_credentials") }
            return issue(Grant(clientID: client, scope: form["scope"], audience: form["audience"]), lifetime: lifetime)
        case "password":
            guard form["username"] == Self.user.0, form["password"] == Self.user.1 else { return Self.error("invalid_grant", "wrong username or password") }
            return issue(Grant(clientID: client, user: Self.user.0, scope: form["scope"], audience: form["audience"]), lifetime: lifetime)
        case "authorization_code":
            guard let code = form["code"], let stored = state.withLock({ $0.codes.removeValue(forKey: code) }) else {
                return Self.error("invalid_grant", "unknown or used authorization code")
            }
            guard stored.grant.clientID == client else { return Self.error("invalid_grant", "the code was issued to another client") }
            guard form["redirect_uri"] == stored.redirectURI else { return Self.error("invalid_grant", "redirect_uri differs from the authorization request's") }
            guard let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == stored.challenge else {
                return Self.error("invalid_grant", "PKCE verification failed: code_verifier does not match code_challenge")
            }
            return issue(stored.grant, lifetime: lifetime)
        case "urn:ietf:params:oauth:grant-type:device_code":
            return poll(form["device_code"] ?? "", client: client, lifetime: lifetime)
        case "refresh_token":
            guard let refresh = form["refresh_token"], let grant = state.withLock({ $0.refreshTokens.removeValue(forKey: refresh) }) else {
                return Self.error("invalid_grant", "unknown or revoked refresh token")
            }
            guard grant.clientID == client else { return Self.error("invalid_grant", "the refresh token was issued to another client") }
            return issue(grant, lifetime: lifetime)
        case "":
            return Self.error("invalid_request", "grant_type is missing")
        case let other:
            return Self.error("unsupported_grant_type", "'\(other)' is not a grant this server knows")
        }
    }

    private func authorize(_ request: Request) -> Response {
        let query = Self.query(request)
        guard let client = query["client_id"], Self.clients[client] != nil else {
            return Self.page("Unknown client_id.", status: .badRequest)
        }
        guard let redirect = query["redirect_uri"], OAuth2RedirectListener.problem(with: URLReference(parsing: redirect)) == nil else {
            return Self.page("redirect_uri must be a loopback http URL.", status: .badRequest)
        }
        func back(_ pairs: [(String, String)]) -> Response {
            var pairs = pairs
            if let state = query["state"] { pairs.append(("state", state)) }
            let separator = redirect.contains("?") ? "&" : "?"
            return DemoRoutes.redirect(to: redirect + separator + OAuth2Form.encode(pairs), status: .found)
        }
        guard query["response_type"] == "code" else { return back([("error", "unsupported_response_type")]) }
        guard let challenge = query["code_challenge"], query["code_challenge_method"] == "S256" else {
            return back([("error", "invalid_request"), ("error_description", "PKCE with S256 is required")])
        }
        if query["deny"] == "1" { return back([("error", "access_denied"), ("error_description", "the user refused")]) }
        let code = PKCE.randomToken(bytes: 16)
        let grant = Grant(clientID: client, user: Self.user.0, scope: query["scope"], audience: query["audience"])
        state.withLock { Self.insert(Code(grant: grant, redirectURI: redirect, challenge: challenge), at: code, into: &$0.codes) }
        return back([("code", code)])
    }

    private func deviceCode(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        guard let client = authenticate(request, form) else { return Self.unauthorized() }
        let deviceCode = PKCE.randomToken(bytes: 24)
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        let userCode = String((0..<8).map { _ in letters.randomElement()! }).inserting("-", at: 4)
        let device = Device(grant: Grant(clientID: client, user: Self.user.0, scope: form["scope"], audience: form["audience"]),
                            userCode: userCode, expires: .now + .seconds(600))
        state.withLock { state in
            Self.insert(device, at: deviceCode, into: &state.devices)
            Self.insert(deviceCode, at: userCode, into: &state.userCodes)
        }
        let base = Self.base(request)
        return DemoRoutes.json(["device_code": .string(deviceCode), "user_code": .string(userCode),
                                "verification_uri": .string("\(base)/oauth/device"),
                                "verification_uri_complete": .string("\(base)/oauth/device?user_code=\(userCode)"),
                                "expires_in": 600, "interval": 1])
    }

    private func approve(_ request: Request) -> Response {
        let query = Self.query(request)
        guard let userCode = query["user_code"]?.uppercased() else {
            return Self.page("Open this page with ?user_code=XXXX-XXXX to approve a device.", status: .ok)
        }
        let approved = query["deny"] != "1"
        let found = state.withLock { state -> Bool in
            guard let device = state.userCodes[userCode], state.devices[device] != nil else { return false }
            state.devices[device]?.approved = approved
            return true
        }
        guard found else { return Self.page("Unknown user code.", status: .notFound) }
        return Self.page(approved ? "Device approved. You can go back to Tincan." : "Device refused.", status: .ok)
    }

    private func poll(_ deviceCode: String, client: String, lifetime: Int) -> Response {
        enum Answer { case error(String, String), token(Grant) }
        let answer = state.withLock { state -> Answer in
            guard var device = state.devices[deviceCode], device.grant.clientID == client else {
                return .error("invalid_grant", "unknown device code")
            }
            guard device.expires > .now else {
                state.devices.removeValue(forKey: deviceCode)
                return .error("expired_token", "the device code expired")
            }
            device.polls += 1
            state.devices[deviceCode] = device
            if device.polls == 1 { return .error("authorization_pending", "the user has not approved yet") }
            if device.polls == 2 { return .error("slow_down", "poll less often: the interval is now 5 s longer") }
            switch device.approved {
            case true?:
                state.devices.removeValue(forKey: deviceCode)
                state.userCodes.removeValue(forKey: device.userCode)
                return .token(device.grant)
            case false?:
                state.devices.removeValue(forKey: deviceCode)
                return .error("access_denied", "the user refused")
            case nil:
                return .error("authorization_pending", "the user has not approved yet")
            }
        }
        switch answer {
        case .error(let code, let description): return Self.error(code, description)
        case .token(let grant): return issue(grant, lifetime: lifetime)
        }
    }

    private func protected(_ request: Request) -> Response {
        let header = request.headers[.authorization] ?? ""
        let token = header.lowercased().hasPrefix("bearer ") ? String(header.dropFirst(7)) : nil
        let live = token.flatMap { token in state.withLock { $0.accessTokens[token] } }.flatMap { $0.expires > .now ? $0 : nil }
        guard let live else {
            let reason = token == nil ? "" : ", error=\"invalid_token\""
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"tincan-demo\"\(reason)", .contentLength: "0"])
        }
        var object: OrderedDictionary<String, ParameterValue> = ["authenticated": true, "client_id": .string(live.grant.clientID)]
        object["user"] = live.grant.user.map(ParameterValue.string) ?? .null
        object["scope"] = live.grant.scope.map(ParameterValue.string) ?? .null
        object["audience"] = live.grant.audience.map(ParameterValue.string) ?? .null
        return DemoRoutes.json(.dictionary(object))
    }

    private func revoke(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        if let token = form["token"] {
            state.withLock { state in
                state.accessTokens.removeValue(forKey: token)
                state.refreshTokens.removeValue(forKey: token)
            }
        }
        return Response(status: .ok, headers: [.contentLength: "0"])
    }

    // MARK: - Helpers

    private func issue(_ grant: Grant, lifetime: Int) -> Response {
        let access = "at-" + PKCE.randomToken(bytes: 24)
        let refresh = "rt-" + PKCE.randomToken(bytes: 24)
        state.withLock { state in
            Self.insert(Token(grant: grant, expires: .now + .seconds(lifetime)), at: access, into: &state.accessTokens)
            Self.insert(grant, at: refresh, into: &state.refreshTokens)
        }
        var object: OrderedDictionary<String, ParameterValue> = ["access_token": .string(access), "token_type": "Bearer",
                                                                  "expires_in": .integer(Int64(lifetime)), "refresh_token": .string(refresh)]
        if let scope = grant.scope { object["scope"] = .string(scope) }
        var response = DemoRoutes.json(.dictionary(object))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The client the request authenticates as: HTTP Basic (RFC 6749 §2.3.1: id and secret
    /// form-urlencoded before base64), else `client_id` (and `client_secret`) in the form.
    private func authenticate(_ request: Request, _ form: [String: String]) -> String? {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("basic ") {
            guard let data = Data(base64Encoded: String(header.dropFirst(6))), let pair = String(data: data, encoding: .utf8),
                  let colon = pair.firstIndex(of: ":")
            else { return nil }
            let decoded = OAuth2Form.decode(Substring("\(pair[..<colon])=\(pair[pair.index(after: colon)...])"))
            guard let (id, secret) = decoded.first, case let expected?? = Self.clients[id], expected == secret else { return nil }
            return id
        }
        guard let id = form["client_id"], let expected = Self.clients[id], expected == form["client_secret"] else { return nil }
        return id
    }

    /// RFC 6749 §5.2's answer to a client that did not authenticate.
    private static func unauthorized() -> Response {
        Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"tincan-demo\"", .contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(string: "{\"error\": \"invalid_client\", \"error_description\": \"client authentication failed\"}\n")))
    }

    private static func form(_ request: Request) async throws -> [String: String] {
        var request = request
        let body = try await request.collectBody(upTo: 64 * 1024)
        let pairs = OAuth2Form.decode(Substring(String(decoding: body.readableBytesView, as: UTF8.self)))
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    private static func query(_ request: Request) -> [String: String] {
        Dictionary(OAuth2Form.decode(Substring(request.uri.query ?? "")), uniquingKeysWith: { first, _ in first })
    }

    private static func base(_ request: Request) -> String {
        "\(request.head.scheme ?? "http")://\(request.head.authority ?? "127.0.0.1")"
    }

    private static func error(_ code: String, _ description: String, status: HTTPResponse.Status = .badRequest) -> Response {
        DemoRoutes.json(["error": .string(code), "error_description": .string(description)], status: status)
    }

    private static func page(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: "<!doctype html><title>Tincan demo</title><p>\(text)</p>\n")))
    }

    private static func insert<Value>(_ value: Value, at key: String, into table: inout OrderedDictionary<String, Value>) {
        if table[key] == nil, table.count >= capacity { table.removeFirst() }
        table[key] = value
    }
}

extension String {
    fileprivate func inserting(_ character: Character, at offset: Int) -> String {
        var copy = self
        copy.insert(character, at: copy.index(copy.startIndex, offsetBy: offset))
        return copy
    }
}
