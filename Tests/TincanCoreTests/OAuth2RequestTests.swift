import Foundation
import Testing
import TincanCore

/// The requests an OAuth 2.0 client builds and how it reads the answers, byte by byte.
@Suite("OAuth 2.0 requests")
struct OAuth2RequestTests {
    static let token = URLReference(parsing: "https://auth.example/token")

    static func form(_ request: HTTPRequest) -> String {
        guard case .bytes(let bytes) = request.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("the form encoding writes a space as + and escapes everything but letters, digits and *-._")
    func formEncodingFollowsTheHTMLRules() {
        #expect(OAuth2Form.escape("a b+c/d:e@f~g*h-i.j_k") == "a+b%2Bc%2Fd%3Ae%40f%7Eg*h-i.j_k")
        #expect(OAuth2Form.escape("é") == "%C3%A9")
        #expect(OAuth2Form.decode("a=1+2&b=%C3%A9&c").map { "\($0.0)=\($0.1)" } == ["a=1 2", "b=é", "c="])
    }

    @Test("HTTP Basic client authentication form-urlencodes the id and the secret before base64 (RFC 6749 §2.3.1)")
    func basicClientAuthenticationEncodesIdAndSecret() {
        let header = OAuth2Form.basicAuthorization(clientID: "tincan demo:client", clientSecret: "p@ss word+&/")
        let decoded = String(decoding: Data(base64Encoded: String(header.dropFirst("Basic ".count)))!, as: UTF8.self)
        #expect(decoded == "tincan+demo%3Aclient:p%40ss+word%2B%26%2F")
    }

    @Test("the S256 challenge of RFC 7636's Appendix B verifier is the RFC's")
    func pkceChallengeMatchesTheRFCExample() {
        #expect(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let verifier = PKCE().verifier
        #expect(verifier.count == 64)
        #expect(verifier.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) })
    }

    @Test("a client-credentials request authenticates with Basic by default and sends scope, audience and extra parameters")
    func clientCredentialsRequestUsesBasic() {
        let configuration = OAuth2Configuration(grant: .clientCredentials, tokenURL: Self.token, clientID: "app", clientSecret: "s3cret", scope: "read write",
                                                audience: "https://api.example", extraParameters: [OAuth2Parameter(name: "resource", value: "x y")])
        let request = configuration.tokenRequest()
        #expect(request.method == "POST")
        #expect(request.headers["Authorization"] == OAuth2Form.basicAuthorization(clientID: "app", clientSecret: "s3cret"))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(Self.form(request) == "grant_type=client_credentials&scope=read+write&audience=https%3A%2F%2Fapi.example&resource=x+y")
    }

    @Test("client-auth body puts the id and the secret in the form and sends no Authorization")
    func bodyClientAuthentication() {
        let configuration = OAuth2Configuration(grant: .password, tokenURL: Self.token, clientID: "app", clientSecret: "s3cret", clientAuthentication: .body,
                                                username: "ada", password: "love lace")
        let request = configuration.tokenRequest()
        #expect(request.headers["Authorization"] == nil)
        #expect(Self.form(request) == "grant_type=password&username=ada&password=love+lace&client_id=app&client_secret=s3cret")
    }

    @Test("a public client sends its client_id in the form, with no secret")
    func publicClientSendsItsId() {
        let configuration = OAuth2Configuration(grant: .refreshToken, tokenURL: Self.token, clientID: "cli", refreshToken: "rt")
        #expect(configuration.tokenRequest().headers["Authorization"] == nil)
        #expect(Self.form(configuration.tokenRequest()) == "grant_type=refresh_token&refresh_token=rt&client_id=cli")
    }

    @Test("the device authorization request authenticates the client as the token request does")
    func deviceAuthorizationRequestUsesBasicToo() {
        let configuration = OAuth2Configuration(grant: .deviceCode, tokenURL: Self.token, clientID: "app", clientSecret: "s", scope: "openid",
                                                deviceAuthorizationURL: URLReference(parsing: "https://auth.example/device"))
        let request = configuration.deviceAuthorizationRequest()
        #expect(request.url.string == "https://auth.example/device")
        #expect(request.headers["Authorization"] == OAuth2Form.basicAuthorization(clientID: "app", clientSecret: "s"))
        #expect(Self.form(request) == "scope=openid")
        #expect(Self.form(configuration.tokenRequest(deviceCode: "dc")) == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=dc")
    }

    @Test("the authorization URL carries the PKCE S256 challenge, the state and the redirect URI; the code exchange the verifier")
    func authorizationURLCarriesPKCE() {
        let configuration = OAuth2Configuration(grant: .authorizationCode, tokenURL: Self.token, clientID: "app", scope: "openid profile",
                                                authorizationURL: URLReference(parsing: "https://auth.example/authorize?tenant=1"))
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let url = configuration.authorizationRequestURL(redirectURI: "http://127.0.0.1:5000/callback", state: "xyz", pkce: pkce)
        #expect(url.string == "https://auth.example/authorize?tenant=1&response_type=code&client_id=app&redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&scope=openid+profile&state=xyz&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256")
        let exchange = configuration.tokenRequest(code: ("c0de", "http://127.0.0.1:5000/callback", pkce.verifier))
        #expect(Self.form(exchange) == "grant_type=authorization_code&code=c0de&redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&client_id=app")
    }

    @Test("each grant names what it is missing, and a redirect URI must be loopback http")
    func configurationProblems() {
        let base = OAuth2Configuration(grant: .authorizationCode, tokenURL: Self.token, clientID: "app")
        #expect(base.problem() == "the authorization-code grant needs auth-url")
        var device = base
        device.grant = .deviceCode
        #expect(device.problem() == "the device-code grant needs device-url")
        var remote = base
        remote.authorizationURL = URLReference(parsing: "https://auth.example/a")
        remote.redirectURI = URLReference(parsing: "https://evil.example/callback")
        #expect(remote.problem()?.contains("loopback") == true)
        var relative = base
        relative.grant = .clientCredentials
        relative.tokenURL = URLReference(parsing: "/token")
        #expect(relative.problem() == "token-url must be an absolute http or https URL, not '/token'")
    }

    @Test("a token is expired from five seconds before its expiry on the store's clock")
    func tokenExpiryHasAMargin() {
        let token = OAuth2Token(accessToken: "t", expiresIn: 60, expiresAt: .seconds(60))
        #expect(!token.isExpired(at: .seconds(54)))
        #expect(token.isExpired(at: .seconds(55)))
        #expect(!OAuth2Token(accessToken: "t").isExpired(at: .seconds(1_000_000)))
    }
}
