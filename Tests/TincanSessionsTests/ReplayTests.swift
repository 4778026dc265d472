#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

/// Replays `session` against `server` (its `server` variable pointed there).
func replay(_ session: Session, path: String = "/tmp/test.tincan.yaml", on server: DemoServer, _ configure: (inout ReplayOptions) -> Void = { _ in }) async throws -> (report: ReplayReport, session: Session) {
    var options = ReplayOptions()
    options.variables["server"] = server.baseURL
    configure(&options)
    return try await Replayer(session: session, path: path, options: options).run()
}

@Suite("Replaying sessions against the demo server")
struct ReplayTests {
    @Test func failedChecksAreReportedWithTheirReasons() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: Wrong status
                method: GET
                url: status/404
              - name: Wrong body
                method: GET
                url: get
                query:
                  q: tea
                assert:
                  status: 200
                  body:
                    $.args.q: coffee
                    $.missing: {exists: true}
                  headers:
                    Content-Type: {contains: xml}
              - name: Still runs
                method: GET
                url: get
            """, path: "f.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.outcomes.map(\.state) == [.failed, .failed, .passed])
            #expect(report.outcomes[0].checks.first?.failure?.hasPrefix("the response failed validation: Request failed: not found (404) [-1011]") == true)
            let failures = report.outcomes[1].checks.filter { !$0.passed }.map { "\($0.name): \($0.failure!)" }
            #expect(failures == [
                "body $.args.q: is \"tea\", expected \"coffee\"",
                "body $.missing: is missing",
                "header Content-Type: is \"application/json\", expected it to contain \"xml\"",
            ])
            #expect(!report.passed)
        }
    }

    @Test func failFastSkipsTheRest() async throws {
        let session = try Session.parse("base: \"{{server}}/\"\nrequests:\n  - url: status/500\n  - url: get\n  - url: get\n", path: "f.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server) { $0.failFast = true }
            #expect(report.outcomes.map(\.state) == [.failed, .skipped, .skipped])
            #expect(report.outcomes[1].result == nil, "a skipped request is not sent")
        }
    }

    @Test func aMissingVariableFailsItsRequestAndNamesIt() async throws {
        let session = try Session.parse("base: \"{{server}}/\"\nrequests:\n  - name: Uses id\n    url: anything/{{id}}\n  - url: get\n", path: "m.tincan.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, path: "m.tincan.yaml", on: server)
            #expect(report.outcomes[0].state == .failed)
            #expect(report.outcomes[0].error?.hasPrefix("m.tincan.yaml:4:19: request '#1 Uses id': the variable {{id}} is not defined") == true)
            #expect(report.outcomes[1].state == .passed)
        }
    }

    @Test func recordingThenComparingPassesAndAChangeIsCaught() async throws {
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - name: Echo
                method: POST
                url: anything/echo
                serializer: json
                params:
                  n: "{{n}}"
            variables:
              n: 1
            """, path: "r.yaml")
        try await withDemoServer { server in
            let (_, recorded) = try await replay(session, on: server) { $0.record = true }
            var withIgnore = recorded
            withIgnore.requests[0].recorded?.ignore = [try BodyPath(parsing: "$.headers")]
            #expect(withIgnore.requests[0].recorded?.status == 200)
            #expect(withIgnore.requests[0].recorded?.headers.map(\.name) == ["Content-Type"])

            let (same, _) = try await replay(withIgnore, on: server) { $0.compareRecorded = true }
            #expect(same.passed, "\(same.outcomes.map { ReportWriter.outcomeText($0, verbose: true) })")

            let (changed, _) = try await replay(withIgnore, on: server) {
                $0.compareRecorded = true
                $0.variables["n"] = "2"
            }
            let failure = changed.outcomes[0].checks.first { $0.name == "recorded body" }?.failure
            #expect(failure == #"$.data: recorded "{\"n\":1}", got "{\"n\":\"2\"}""#)
        }
    }

    @Test func aCookieSetByOneRequestIsSentWithTheNext() async throws {
        // The first request sets a cookie; the second's echo shows it was sent.
        let session = try Session.parse("""
            base: "{{server}}/"
            requests:
              - url: cookies/set?k=v
              - url: cookies
                assert:
                  body:
                    $.cookies.k: v
            """, path: "c.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, on: server)
            #expect(report.passed)
        }
    }

    @Test func reportsAreMachineReadable() async throws {
        let session = try Session.parse("name: Reports\nbase: \"{{server}}/\"\nrequests:\n  - name: ok <1>\n    url: get\n  - name: bad & broken\n    url: status/418\n  - name: token\n    url: response-headers?X-Token=s3cret\n    capture:\n      token:\n        header: X-Token\n", path: "rep.yaml")
        try await withDemoServer { server in
            let (report, _) = try await replay(session, path: "rep.yaml", on: server)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(ReportWriter.render(report, format: .json).utf8)) as? [String: Any])
            #expect(json["passed"] as? Bool == false)
            #expect(json["failed"] as? Int == 1)
            let requests = try #require(json["requests"] as? [[String: Any]])
            #expect(requests[1]["status"] as? Int == 418)
            #expect((requests[2]["captures"] as? [String: String])?["token"] == Redaction.mask)
            let shown = ReportWriter.render(report, format: .json, showSecrets: true)
            #expect(shown.contains("s3cret"))

            let junit = ReportWriter.render(report, format: .junit)
            #expect(junit.contains("<testsuite name=\"Reports\" file=\"rep.yaml\" tests=\"3\" failures=\"1\""))
            #expect(junit.contains("<testcase name=\"1. ok &lt;1&gt;\""))
            #expect(junit.contains("<testcase name=\"2. bad &amp; broken\""))
            #expect(junit.contains("<failure message=\"valid: the response failed validation"))
            let parser = XMLParser(data: Data(junit.utf8))
            #expect(parser.parse(), "the JUnit report is well-formed XML")
        }
    }
}
