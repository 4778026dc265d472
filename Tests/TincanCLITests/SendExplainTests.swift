import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanCore

/// A POST with a secret header, a form body and a password in the URL.
private let postArguments = ["POST", "http://ann:hunter2@127.0.0.1:9/post?token=abc&page=2", "name=Ann", "-H", "Authorization: Bearer sekrit"]

@Suite("tincan send --explain prints the Explain view instead of sending")
struct SendExplainTests {
    @Test("the text is the core's explanation of the request (its Connection step included), with secrets hidden")
    func textIsTheExplanation() async throws {
        let result = try await tincan(["send", "--explain"] + postArguments)
        // Exit 0: nothing was sent (port 9 would have refused the connection, exit 4).
        #expect(result.status == 0, "\(result.stderr)")
        var draft = RequestDraft(method: "POST", url: "http://ann:hunter2@127.0.0.1:9/post?token=abc&page=2")
        draft.items = try ["name=Ann", "Authorization:Bearer sekrit"].map(RequestItem.parse)
        let request = try draft.build()
        var explanation = try draft.explain(request)
        explanation.steps.append(Explanation.connection(to: request.url, options: TaskOptions()))
        let titles = explanation.steps.map(\.title)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Every step's title, in order, on a line of its own.
        #expect(titles.compactMap { title in lines.firstIndex(of: title) } == titles.compactMap { title in lines.firstIndex(of: title) }.sorted())
        #expect(titles.allSatisfy(lines.contains))
        #expect(lines.contains { $0.hasPrefix("• ") })
        for secret in ["hunter2", "sekrit", "token=abc"] { #expect(!result.stdout.contains(secret), "\(secret) shown") }
    }

    @Test("--format markdown is a handout: a heading per step, code spans, the wire preview in a fenced block, secrets hidden")
    func markdownIsAHandout() async throws {
        let result = try await tincan(["send", "--explain", "--format", "markdown"] + postArguments)
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(text.hasPrefix("# POST `http://127.0.0.1:9/post?token=••••••&page=2`\n"))
        #expect(text.contains("\n## URL\n"))
        #expect(text.contains("\n## Connection\n"))
        #expect(text.contains("`Authorization`"))
        #expect(text.contains("## On the wire\n\n```http\nPOST /post?token=••••••&page=2 HTTP/1.1\nHost: 127.0.0.1:9\n"))
        #expect(text.contains("Authorization: Bearer ••••••\n"))
        #expect(text.hasSuffix("name=Ann\n```\n"))
        for secret in ["hunter2", "sekrit", "token=abc"] { #expect(!text.contains(secret), "\(secret) shown") }
    }

    @Test("the Connection step says what --insecure and an old --tls-min weaken, for an https URL")
    func weakenedTrustIsExplained() async throws {
        let result = try await tincan(["send", "--explain", "--insecure", "--tls-min", "1.1", "GET", "https://127.0.0.1:9/get"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Trust weakened by --insecure: certificate verification is off"), "\(result.stdout)")
        #expect(result.stdout.contains("Trust weakened by --tls-min 1.1: TLS 1.1 is accepted (RFC 8996"), "\(result.stdout)")
        let plain = try await tincan(["send", "--explain", "GET", "https://127.0.0.1:9/get"])
        #expect(!plain.stdout.contains("Trust weakened"))
    }

    @Test("--show-secrets keeps the secrets in the handout")
    func showSecretsKeepsThem() async throws {
        let result = try await tincan(["send", "--explain", "--format", "markdown", "--show-secrets"] + postArguments)
        #expect(result.status == 0, "\(result.stderr)")
        for secret in ["hunter2", "Bearer sekrit", "token=abc"] { #expect(result.stdout.contains(secret), "\(secret) hidden") }
    }

    @Test("formats that do not go with --explain, or without it, are bad usage naming the option",
          arguments: [
              (["--explain", "--format", "json"], "--format json"),
              (["--format", "markdown"], "--format markdown"),
              (["--show-secrets"], "--show-secrets"),
              (["--explain", "--format", "yaml"], "format"),
          ])
    func badFormatsAreRefused(options: [String], named: String) async {
        let ending = await ending(of: ["send"] + options + ["GET", "http://127.0.0.1:9/"])
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains(named) == true, "\(ending.standardError ?? "")")
    }
}
