import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanCore
import TincanDemoServer

/// `tincan send --auth-type oauth2` against the demo server's authorization server.
@Suite("tincan send --auth-type oauth2")
struct SendOAuth2Tests {
    static func oauth(_ server: DemoServer, grant: String, _ more: [String] = []) -> [String] {
        ["--auth-type", "oauth2", "--grant", grant, "--token-url", server.baseURL + "/oauth/token"] + more
    }

    @Test("client credentials: the protected route answers, and the JSON report has the bearer request")
    func clientCredentials() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", server.baseURL + "/oauth/protected"]
                + Self.oauth(server, grant: "client-credentials", ["--client-id", "tincan demo:client", "--client-secret", "p@ss word+&/", "--scope", "read",
                                                                  "--token-param", "lifetime=60"]))
            #expect(result.status == 0, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
            let body = try #require((object["response"] as? [String: Any])?["body"] as? [String: Any])
            #expect(body["client_id"] as? String == "tincan demo:client")
            #expect(body["scope"] as? String == "read")
            #expect(!result.stdout.contains("Bearer at-"), "the bearer token is not in the report")
        }
    }

    @Test("authorization code: $BROWSER gets the URL as its one argument, and the loopback redirect completes the grant")
    func authorizationCodeWithABrowserScript() async throws {
        try await withDemoServer { server in
            let folder = try TemporaryDirectory()
            let browser = folder.path + "/browser.sh"
            try writeExecutable("#!/bin/sh\n[ $# -eq 1 ] || exit 9\nexec curl -sfL -o /dev/null \"$1\"\n", to: browser)
            let result = try await tincan(["send", "--print", "b", server.baseURL + "/oauth/protected"]
                + Self.oauth(server, grant: "authorization-code", ["--auth-url", server.baseURL + "/oauth/authorize", "--client-id", "tincan-public"]),
                environment: ["BROWSER": browser])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"client_id\": \"tincan-public\""))
            #expect(result.stderr.contains("open this URL to authorize (opening $BROWSER):\n  \(server.baseURL)/oauth/authorize?response_type=code&client_id=tincan-public"))
            #expect(result.stderr.contains("code_challenge_method=S256"))
        }
    }

    @Test("a refused client is exit 4 with the server's error, and the secret is never printed")
    func refusedClient() async throws {
        try await withDemoServer { server in
            let result = try await tincan(["send", server.baseURL + "/oauth/protected"]
                + Self.oauth(server, grant: "client-credentials", ["--client-id", "tincan-demo", "--client-secret", "wrong-secret-value"]))
            #expect(result.status == 4)
            #expect(result.stdout.contains("OAuth 2.0: the token endpoint answered 401 invalid_client: client authentication failed") || result.stderr.contains("invalid_client"))
            #expect(!(result.stdout + result.stderr).contains("wrong-secret-value"))
        }
    }

    @Test("--explain shows the token request a send makes, with the secret hidden")
    func explainShowsTheTokenRequest() async throws {
        let result = try await tincan(["send", "--explain", "http://127.0.0.1:9/oauth/protected", "--auth-type", "oauth2", "--grant", "client-credentials",
                                       "--token-url", "http://127.0.0.1:9/oauth/token", "--client-id", "app", "--client-secret", "s3cret-value"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("OAuth 2.0, client-credentials grant"))
        #expect(result.stdout.contains("Authorization: Basic ••••••"))
        #expect(result.stdout.contains("grant_type=client_credentials"))
        #expect(!result.stdout.contains("s3cret-value"))
    }

    @Test("OAuth 2.0 options are refused when they do not go together", arguments: [
        (["--grant", "client-credentials"], "--grant is for --auth-type oauth2"),
        (["--auth-type", "oauth2", "--token-url", "http://h/t", "--client-id", "a"], "--auth-type oauth2 needs --grant"),
        (["--auth-type", "oauth2", "--grant", "device-code", "--token-url", "http://h/t", "--client-id", "a"], "--grant device-code needs --device-url"),
        (["--auth-type", "oauth2", "--grant", "password", "--token-url", "http://h/t", "--client-id", "a"], "--grant password needs --user NAME:PASSWORD"),
        (["--auth-type", "oauth2", "--grant", "implicit"], "implicit"),
        (["--auth-type", "oauth2", "--grant", "client-credentials", "--token-url", "http://h/t", "--client-id", "a", "--client-auth", "jwt"], "jwt"),
        (["--auth-type", "oauth2", "--grant", "client-credentials", "--token-url", "http://h/t", "--client-id", "a", "--token-param", "novalue"],
         "--token-param 'novalue' is not NAME=VALUE"),
        (["--auth-type", "oauth2", "--grant", "authorization-code", "--token-url", "http://h/t", "--client-id", "a", "--auth-url", "http://h/a",
          "--redirect-uri", "http://example.com/cb"], "--redirect-uri: redirect-uri must name 127.0.0.1"),
    ])
    func badCombinations(arguments: [String], message: String) async {
        let ending = await ending(of: ["send", "http://127.0.0.1:9/x"] + arguments)
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains(message) == true, "\(ending.standardError ?? "")")
    }
}
