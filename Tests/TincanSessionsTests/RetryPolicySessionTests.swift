import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
@testable import TincanSessions

/// The error `text` gives when read as a session, or "(no error)".
private func readingError(_ text: String) -> String {
    do {
        _ = try Session.parse(text, path: "retry.tincan.yaml")
        return "(no error)"
    } catch {
        return "\(error)"
    }
}

@Suite("retry-policy: in session files, curl and replay")
struct RetryPolicySessionTests {
    static let text = """
        defaults:
          retry-policy:
            limit: 3
            delay: 500ms
            max-delay: 30s
            methods: [GET, PUT]
            statuses: [429, 503]
        requests:
          - method: GET
            url: http://h/a
          - method: POST
            url: http://h/b
            retry-policy:
              limit: 1

        """

    @Test("the defaults' policy applies, a request's own replaces it whole, and both are written back as read")
    func readAndWritten() throws {
        let session = try Session.parse(Self.text, path: "retry.tincan.yaml")
        #expect(session.defaults.retryPolicy == SavedRetryPolicy(limit: 3, delay: 0.5, maximumDelay: 30, methods: ["GET", "PUT"], statuses: [429, 503]))
        #expect(session.requests[1].retryPolicy == SavedRetryPolicy(limit: 1))
        #expect(session.yamlText() == Self.text)

        let first = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp").options.retryPolicy
        #expect(first?.limit == 3)
        #expect(first?.delay == 0.5)
        #expect(first?.maximumDelay == 30)
        #expect(first?.methods == ["GET", "PUT"])
        #expect(first?.statuses == [429, 503])
        let second = try session.resolve(1, template: Template(variables: [:]), directory: "/tmp").options.retryPolicy
        #expect(second?.limit == 1)
        #expect(second?.statuses == RetryPolicy.defaultStatuses, "a request's policy replaces the defaults' whole")
        #expect(second?.methods == RetryPolicy.defaultMethods)
    }

    @Test("bad values are refused at their line and column, naming the key and the range", arguments: [
        ("{limit: 101}", "retry.tincan.yaml:4:27: limit: 101 is out of range (0…100)"),
        ("{limit: 1.5}", "retry.tincan.yaml:4:27: limit: 1.5 is not a whole number"),
        ("{limit: 1, delay: 2h}", "retry.tincan.yaml:4:37: delay: '2h' is not a number; expected 0…3600 seconds, such as 0.5, 500ms or 2s"),
        ("{limit: 1, max-delay: 3601}", "retry.tincan.yaml:4:41: max-delay: 3601 is out of range (0…3600 seconds)"),
        ("{limit: 1, statuses: [700]}", "retry.tincan.yaml:4:41: status: 700 is out of range (100…599)"),
        ("{limit: 1, methods: [\"NOT A METHOD\"]}", "retry.tincan.yaml:4:39: 'NOT A METHOD' is not a method"),
        ("{delay: 1s}", "retry.tincan.yaml:4:19: retry-policy needs limit: (0 to 100)"),
        ("{limit: 1, tries: 2}", "retry.tincan.yaml:4:"),
    ])
    func badValues(policy: String, message: String) {
        let text = "requests:\n  - url: http://h/\n    method: GET\n    retry-policy: \(policy)\n"
        let error = readingError(text)
        #expect(error.contains(message), "\(error)")
    }

    @Test("curl's --retry and --retry-delay become the policy, and export gives them back")
    func curlImportAndExport() throws {
        let imported = try CurlCommand.parse("curl -L --retry 4 --retry-delay 2 http://h/x")
        #expect(imported.request.retryPolicy == SavedRetryPolicy(limit: 4, delay: 2))
        #expect(imported.warnings.contains { $0.hasPrefix("--retry-delay 2: curl waits that long before every retry") })
        #expect(!imported.warnings.contains { $0.hasPrefix("--retry 4") }, "a GET is retried by both")

        let alone = try CurlCommand.parse("curl -L --retry 2 http://h/x")
        #expect(alone.request.retryPolicy == SavedRetryPolicy(limit: 2))
        #expect(alone.warnings.isEmpty)
        let post = try CurlCommand.parse("curl -L --retry 2 -d a=1 http://h/x")
        #expect(post.warnings.contains { $0.hasPrefix("--retry 2: curl retries a POST too") })
        let delayOnly = try CurlCommand.parse("curl -L --retry-delay 3 http://h/x")
        #expect(delayOnly.request.retryPolicy == nil)
        #expect(delayOnly.warnings == ["--retry-delay 3: not kept; without --retry curl does not retry either"])
        let maxTime = try CurlCommand.parse("curl -L --retry 1 --retry-max-time 9 http://h/x")
        #expect(maxTime.warnings.contains { $0.hasPrefix("--retry-max-time 9: not kept") })
        #expect(throws: InterchangeError.self) { try CurlCommand.parse("curl --retry 101 http://h/x") }

        var session = Session()
        session.requests = [imported.request]
        let resolved = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp")
        let exported = CurlCommand.export(try resolved.draft.build(), resolved: resolved)
        #expect(exported.command.contains("--retry 4"))
        #expect(exported.command.contains("--retry-delay 2"))
        let reimported = try CurlCommand.parse(exported.command)
        #expect(reimported.request.retryPolicy == imported.request.retryPolicy, "the policy goes round curl and back")
        let http = try HTTPFile.export([("flaky", try resolved.draft.build(), resolved)])
        #expect(http.warnings.contains("request 'flaky': the retry policy (retry-policy: limit 4) is not carried over; a .http file cannot say it"))
    }

    @Test("the replay report's request entry lists each retry with its reason")
    func replayReport() async throws {
        try await withDemoServer { server in
            let session = try Session.parse("""
                base: "{{server}}/"
                requests:
                  - name: Flaky
                    method: GET
                    url: flaky/replay/2
                    retry-policy: {limit: 2, delay: 1ms}
                  - name: Never
                    method: GET
                    url: status/503
                    retry-policy: {limit: 1, delay: 1ms}

                """, path: "/tmp/retry.tincan.yaml")
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.map(\.state) == [.passed, .failed])
            let json = ReportWriter.render(report, format: .json)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let requests = try #require(object["requests"] as? [[String: Any]])
            let first = try #require(requests.first?["retries"] as? [[String: Any]])
            #expect(first.map { $0["attempt"] as? Int } == [1, 2])
            #expect(first.map { $0["status"] as? Int } == [503, 503])
            #expect(requests.first?["retryNote"] is NSNull)
            #expect(requests.last?["retryNote"] as? String == "status 503: gave up after 1 retry")
            let text = ReportWriter.render(report, format: .text)
            #expect(text.contains("    ↻ retry 1 after 0.001 s: status 503"), "\(text)")
            #expect(text.contains("    ↻ status 503: gave up after 1 retry"))
        }
    }
}
