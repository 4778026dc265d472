import Foundation
import TestSupport
import Testing

/// Secrets stay secret in every output: a report's messages are hidden as the fields they quote,
/// and every file that holds secrets is private (0600), as the cookie jar is.
@Suite("Secrets stay secret in reports and files")
struct SecretOutputTests {
    private func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test("a failed url or location check quotes the URL as the report's url field shows it, in text, JSON and JUnit")
    func urlCheckMessagesAreRedacted() async throws {
        try await withDemoServer { server in
            let directory = try TemporaryDirectory()
            let file = try directory.write("token.tincan.yaml", Array("""
                name: Token
                base: "\(server.baseURL)/"
                requests:
                  - name: With a token
                    url: "get?access_token={{$env.TINCAN_TEST_TOKEN}}&page=2"
                    assert:
                      url: {ends-with: "page=3"}
                      request:
                        url: {contains: "page=9"}
                  - name: Redirected
                    url: "redirect-to?url=/get%3Faccess_token%3D{{$env.TINCAN_TEST_TOKEN}}"
                    follow-redirects: false
                    assert:
                      location: {equals: "/elsewhere"}
                """.utf8))
            let environment = ["TINCAN_TEST_TOKEN": "EnvTok9Secret", "LANG": "en_US.UTF-8"]
            // The token written in the file itself: only the URL's own redaction hides it.
            let literal = try directory.write("literal.tincan.yaml", Array(String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self)
                .replacingOccurrences(of: "{{$env.TINCAN_TEST_TOKEN}}", with: "EnvTok9Secret").utf8))
            for session in [file, literal] {
                for report in ["text", "json", "junit"] {
                    let result = try await run(BuiltProducts.tincan, ["replay", session, "--report", report, "--verbose"], environment: environment)
                    #expect(result.status == 3, "\(report): \(result.stdout)\(result.stderr)")
                    #expect(result.stdout.contains("access_token=••••••"), "\(report): \(result.stdout)")
                    let leaks = (result.stdout + result.stderr).components(separatedBy: "\n").filter { $0.contains("EnvTok9Secret") }
                    // A token percent-encoded inside another field's value is not that field's secret: only the $env one is hidden there.
                    #expect(leaks.allSatisfy { session == literal && $0.contains("%3DEnvTok9Secret") }, "\(report): \(leaks)")
                }
            }
        }
    }

    @Test("a recorded HAR is written 0600, with and without --show-secrets; a report with --show-secrets too")
    func harAndReportsArePrivate() async throws {
        try await withDemoServer { server in
            let directory = try TemporaryDirectory()
            let file = try directory.write("one.tincan.yaml", Array("""
                name: One
                base: "\(server.baseURL)/"
                requests:
                  - url: get
                    headers:
                      Authorization: Bearer s3cret
                """.utf8))
            for showSecrets in [false, true] {
                let har = directory.path + "/run-\(showSecrets).har"
                let report = directory.path + "/report-\(showSecrets).json"
                let result = try await tincan(["replay", file, "--record-har", har, "--report", "json", "--output", report] + (showSecrets ? ["--show-secrets"] : []))
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                #expect(mode(har) == 0o600, "\(String(mode(har), radix: 8))")
                #expect(mode(report) == (showSecrets ? 0o600 : 0o644), "\(String(mode(report), radix: 8))")
            }
        }
    }

    @Test("a new session file that holds a secret as written is created 0600; one without, or an existing file, keeps the usual mode")
    func sessionFilesWithSecretsArePrivate() async throws {
        let directory = try TemporaryDirectory()
        let secret = directory.path + "/secret.tincan.yaml"
        let imported = try await tincan(["import", "curl", "curl -H 'Authorization: Bearer abc' https://example.com/a", "-o", secret])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(mode(secret) == 0o600)
        let plain = directory.path + "/plain.tincan.yaml"
        _ = try await tincan(["import", "curl", "curl -H 'Authorization: Bearer {{token}}' https://example.com/a", "-o", plain])
        #expect(mode(plain) == 0o644)
        // An existing file keeps the mode its owner gave it.
        chmod(plain, 0o640)
        _ = try await tincan(["import", "curl", "curl -H 'X-Api-Key: k123' https://example.com/b", "-o", plain])
        #expect(mode(plain) == 0o640)
    }
}

/// The public suffix list the cookie jar reads, and what a command says without it.
@Suite("The system's public suffix list")
struct PublicSuffixListCLITests {
    @Test("without the list, a send that stores a cookie says the jar kept cookies for their host only; with it, nothing is said")
    func missingListIsSaid() async throws {
        try await withDemoServer { server in
            let missing = try await run(BuiltProducts.tincan, ["send", "GET", server.baseURL + "/cookies/set?a=1"],
                                        environment: ["TINCAN_PUBLIC_SUFFIX_LIST": "/nonexistent/public_suffix_list.dat", "LANG": "en_US.UTF-8"])
            #expect(missing.status == 0, "\(missing.stderr)")
            #expect(missing.stderr.contains("tincan: note: the public suffix list is not available (/nonexistent/public_suffix_list.dat is missing; Debian's publicsuffix package installs it), so every cookie was kept for the host that set it only"), "\(missing.stderr)")
            let present = try await tincan(["send", "GET", server.baseURL + "/cookies/set?a=1"])
            #expect(present.status == 0)
            #expect(!present.stderr.contains("public suffix"), "\(present.stderr)")
            let none = try await run(BuiltProducts.tincan, ["send", "GET", server.baseURL + "/get"],
                                     environment: ["TINCAN_PUBLIC_SUFFIX_LIST": "/nonexistent/public_suffix_list.dat"])
            #expect(!none.stderr.contains("public suffix"), "no cookie, nothing to say: \(none.stderr)")
        }
    }
}
