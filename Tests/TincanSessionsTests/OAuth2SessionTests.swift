import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

/// The error `text` gives when read as a session, or "(no error)".
private func readingError(_ text: String) -> String {
    do {
        _ = try Session.parse(text, path: "oauth.tincan.yaml")
        return "(no error)"
    } catch {
        return "\(error)"
    }
}

@Suite("auth: type: oauth2 in session files and replay")
struct OAuth2SessionTests {
    static let text = """
        defaults:
          auth:
            type: oauth2
            grant: client-credentials
            token-url: "{{server}}/oauth/token"
            client-id: tincan-demo
            client-secret: "{{$env.TINCAN_TEST_SECRET}}"
            client-auth: body
            scope: read write
            audience: https://api.example
            token-params:
              resource: https://api.example/v1
        requests:
          - name: Protected
            method: GET
            url: "{{server}}/oauth/protected"
            assert:
              status: 200
              body:
                $.client_id: tincan-demo
          - name: As Ada
            method: GET
            url: "{{server}}/oauth/protected"
            auth:
              type: oauth2
              grant: password
              token-url: "{{server}}/oauth/token"
              client-id: tincan-demo
              client-secret: demo-secret
              user: ada
              password: lovelace
            assert:
              status: 200
              body:
                $.user: ada

        """

    @Test("every oauth2 key is read and written back as it was")
    func readAndWritten() throws {
        let session = try Session.parse(Self.text, path: "oauth.tincan.yaml")
        let grant = try #require(session.defaults.auth?.oauth2)
        #expect(session.defaults.auth?.scheme == .oauth2)
        #expect(grant == SavedOAuth2(grant: .clientCredentials, tokenURL: "{{server}}/oauth/token", clientID: "tincan-demo",
                                     clientSecret: "{{$env.TINCAN_TEST_SECRET}}", clientAuth: .body, scope: "read write", audience: "https://api.example",
                                     tokenParams: [OAuth2Parameter(name: "resource", value: "https://api.example/v1")]))
        #expect(session.requests[1].auth?.user == "ada")
        #expect(session.yamlText() == Self.text)
        let every = """
            requests:
              - method: GET
                url: http://h/
                auth:
                  type: oauth2
                  grant: authorization-code
                  token-url: http://h/token
                  auth-url: http://h/authorize
                  redirect-uri: http://127.0.0.1:8765/callback
                  client-id: app
              - method: GET
                url: http://h/
                auth:
                  type: oauth2
                  grant: device-code
                  token-url: http://h/token
                  device-url: http://h/device
                  client-id: app
              - method: GET
                url: http://h/
                auth:
                  type: oauth2
                  grant: refresh-token
                  token-url: http://h/token
                  client-id: app
                  refresh-token: rt

            """
        #expect(try Session.parse(every, path: "every.tincan.yaml").yamlText() == every)
    }

    @Test("the secret comes from {{$env.NAME}}, the defaults' grant applies to requests without auth:, and a request's own replaces it")
    func resolved() throws {
        let session = try Session.parse(Self.text, path: "oauth.tincan.yaml")
        let template = Template(variables: ["server": "http://127.0.0.1:9"], environment: ["TINCAN_TEST_SECRET": "from-env"])
        let first = try #require(try session.resolve(0, template: template, directory: "/tmp").options.oauth2?.configuration)
        #expect(first.clientSecret == "from-env")
        #expect(first.clientAuthentication == .body)
        #expect(first.extraParameters == [OAuth2Parameter(name: "resource", value: "https://api.example/v1")])
        #expect(first.tokenURL.string == "http://127.0.0.1:9/oauth/token")
        let second = try #require(try session.resolve(1, template: template, directory: "/tmp").options.oauth2?.configuration)
        #expect(second.grant == .password)
        #expect(second.username == "ada")
        #expect(second.password == "lovelace")
        #expect(try session.resolve(1, template: template, directory: "/tmp").draft.credentials == nil, "no Basic header is built for oauth2")
    }

    @Test("mistakes are refused at their place, naming what was expected", arguments: [
        ("{type: oauth2, token-url: http://h/t, client-id: a}", "oauth.tincan.yaml:4:11: type: oauth2 needs grant: (client-credentials, authorization-code, device-code, password, refresh-token)"),
        ("{type: oauth2, grant: implicit, token-url: http://h/t, client-id: a}", "oauth.tincan.yaml:4:33: 'implicit' is not a grant; expected client-credentials, authorization-code, device-code, password, refresh-token"),
        ("{type: oauth2, grant: device-code, token-url: http://h/t, client-id: a}", "oauth.tincan.yaml:4:11: the device-code grant needs device-url:"),
        ("{type: oauth2, grant: client-credentials, client-id: a}", "oauth.tincan.yaml:4:11: the client-credentials grant needs token-url:"),
        ("{type: oauth2, grant: password, token-url: http://h/t, client-id: a, user: ada}", "oauth.tincan.yaml:4:11: the password grant needs user: and password:"),
        ("{type: oauth2, grant: client-credentials, token-url: http://h/t, client-id: a, user: ada}", "oauth.tincan.yaml:4:96: user: and password: are for the password grant"),
        ("{type: oauth2, grant: client-credentials, token-url: http://h/t, client-id: a, client-auth: jwt}", "oauth.tincan.yaml:4:103: 'jwt' is not a client authentication; expected basic or body"),
        ("{user: ada, client-id: a}", "oauth.tincan.yaml:4:34: client-id: is for type: oauth2"),
        ("{type: oauth2, grant: authorization-code, token-url: http://h/t, auth-url: http://h/a, client-id: a, redirect-uri: http://example.com/cb}",
         "oauth.tincan.yaml:4:126: redirect-uri must name 127.0.0.1, [::1] or localhost, where Tincan listens, not 'example.com'"),
    ])
    func mistakes(auth: String, expected: String) {
        #expect(readingError("requests:\n  - method: GET\n    url: http://h/\n    auth: \(auth)\n") == expected)
    }

    @Test("history hides the client secret, the refresh token and the password, but keeps {{…}} references")
    func historyHidesCredentials() throws {
        let session = try Session.parse(Self.text, path: "oauth.tincan.yaml")
        var request = session.requests[1]
        request.auth?.oauth2?.refreshToken = "rt-literal"
        let entry = HistoryEntry(time: Date(), request: request, sentURL: "http://h/").redacted()
        #expect(entry.request.auth?.oauth2?.clientSecret == Redaction.mask)
        #expect(entry.request.auth?.oauth2?.refreshToken == Redaction.mask)
        #expect(entry.request.auth?.password == Redaction.mask)
        var referenced = session.requests[0]
        referenced.auth = session.defaults.auth
        #expect(HistoryEntry(time: Date(), request: referenced, sentURL: "http://h/").redacted().request.auth?.oauth2?.clientSecret == "{{$env.TINCAN_TEST_SECRET}}")
        #expect(session.holdsSecrets, "a literal client secret makes the file 0600")
    }

    @Test("a token request shown for Explain hides the Basic credentials, the secret and the codes")
    func tokenRequestLinesHideSecrets() {
        var configuration = OAuth2Configuration(grant: .clientCredentials, tokenURL: URLReference(parsing: "http://h/token"), clientID: "app", clientSecret: "s3cret")
        let basic = Redaction.oauth2Request(configuration.tokenRequest())
        #expect(basic.contains("Authorization: Basic ••••••"))
        #expect(!basic.joined().contains("s3cret"))
        configuration.clientAuthentication = .body
        #expect(Redaction.oauth2Request(configuration.tokenRequest()).last == "grant_type=client_credentials&client_id=app&client_secret=••••••")
        configuration.grant = .authorizationCode
        let code = configuration.tokenRequest(code: ("the-code", "http://127.0.0.1:1/cb", "the-verifier"))
        let lines = Redaction.oauth2Request(code).joined(separator: "\n")
        #expect(!lines.contains("the-code") && !lines.contains("the-verifier"))
        #expect(Redaction.oauth2Request(code, showingSecrets: true).joined().contains("the-verifier"))
    }

    @Test("a replay shares one token across the session's requests and checks the protected route")
    func replayAgainstTheDemoServer() async throws {
        try await withDemoServer { server in
            let session = try Session.parse(Self.text, path: "oauth.tincan.yaml")
            let (report, _) = try await replay(session, on: server) { options in
                options.processEnvironment["TINCAN_TEST_SECRET"] = "demo-secret"
            }
            #expect(report.passed, "\(report.outcomes.map { "\($0.status.map(String.init) ?? "-") \(String(describing: $0.error))" })")
            #expect(report.outcomes.map(\.status) == [200, 200])
        }
    }
}
