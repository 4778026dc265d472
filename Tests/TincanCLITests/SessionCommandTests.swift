import Foundation
import TestSupport
import Testing

@Suite("tincan replay, import and export")
struct SessionCommandTests {
    /// Each example as a workshop replays it: the binary with its own demo server. A process of
    /// its own, too, so that the examples' max-duration checks time Tincan, not this test
    /// process's thread pool while the whole suite runs (in-process, a 0.5 s throttled upload
    /// measured 11.7 s while other suites kept the pool's two threads busy).
    @Test(arguments: try exampleFiles())
    func everyExamplePasses(_ file: String) async throws {
        let downloads = try TemporaryDirectory()
        let result = try await tincan(["replay", "--demo", file, "--var", "downloads=\(downloads.path)", "--report", "json"])
        #expect(result.status == 0, "\(file):\n\(result.stdout)\n\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
        let requests = try #require(report["requests"] as? [[String: Any]], "\(result.stdout)")
        #expect(requests.count >= 3)
        #expect(report["passed"] as? Bool == true && requests.allSatisfy { $0["state"] as? String == "passed" }, "\(result.stdout)")
    }

    static let passing = """
        # A session that passes.
        name: Smoke
        base: "{{server}}/"
        requests:
          - name: Get
            method: GET
            url: get
            query:
              q: "{{word}}"
            assert:
              status: 200
              body:
                $.args.q: tea
        variables:
          word: coffee
          server: http://127.0.0.1:9
        environments:
          ci:
            word: tea
        """

    @Test func replayPassesWithAnEnvironmentAndFailsWithoutIt() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("smoke.tincan.yaml", Array(Self.passing.utf8))
        try await withDemoServer { server in
            let passed = try await tincan(["replay", file, "--env", "ci", "--var", "server=\(server.baseURL)"])
            #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
            #expect(passed.stdout.contains("✓ 1. Get  GET \(server.baseURL)/get?q=tea → 200"))
            #expect(passed.stdout.contains("1 request: 1 passed, 0 failed"))

            let failed = try await tincan(["replay", file, "--var", "server=\(server.baseURL)"])
            #expect(failed.status == 3)
            #expect(failed.stdout.contains("✗ body $.args.q: is \"coffee\", expected \"tea\""))
        }
    }

    @Test func junitGoesToAFileWhileTextProgressShows() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("smoke.tincan.yaml", Array(Self.passing.utf8))
        let report = directory.path + "/report.xml"
        try await withDemoServer { server in
            let result = try await tincan(["replay", file, "--env", "ci", "--var", "server=\(server.baseURL)", "--report", "junit", "--output", report])
            #expect(result.status == 0)
            #expect(result.stdout.contains("✓ 1. Get"))
            let xml = String(decoding: FileManager.default.contents(atPath: report) ?? Data(), as: UTF8.self)
            #expect(xml.contains("<testcase name=\"1. Get\" classname=\"Smoke\""))
        }
    }

    @Test func theDemoFlagRunsAnExampleWithNothingElseRunning() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/chaining.tincan.yaml").path
        let result = try await tincan(["replay", "--demo", example, "--report", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
        #expect(object["passed"] as? Bool == true)
    }

    @Test func aMalformedSessionNamesFileLineAndColumn() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("bad.tincan.yaml", Array("name: x\nrequests:\n  - url: /get\n    mehtod: GET\n".utf8))
        let result = try await tincan(["replay", file])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file):4:5: unknown key 'mehtod' in a request; expected one of: name, group, variables, method, url"))
        let unknownEnvironment = try await tincan(["replay", try directory.write("s.tincan.yaml", Array(Self.passing.utf8)), "--env", "prod"])
        #expect(unknownEnvironment.status == 2)
        #expect(unknownEnvironment.stderr.contains("there is no environment 'prod'; expected one of: ci"))
    }

    @Test func theTUIRefusesABadSessionFileBeforeTakingTheScreen() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("bad.tincan.yaml", Array("name: x\nrequests:\n  - url: /get\n    mehtod: GET\n".utf8))
        let bad = try await tincan([file])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("\(file):4:5: unknown key 'mehtod'"))
        #expect(!bad.stdout.contains("\u{1B}["))
        let good = try directory.write("s.tincan.yaml", Array(Self.passing.utf8))
        let unknownEnvironment = try await tincan([good, "--env", "prod"])
        #expect(unknownEnvironment.status == 2)
        #expect(unknownEnvironment.stderr.contains("there is no environment 'prod'; expected one of: ci"))
        let badVariable = try await tincan([good, "--var", "novalue"])
        #expect(badVariable.status == 2)
        #expect(badVariable.stderr.contains("expected name=value"))
    }

    @Test func recordRefusesToDropCommentsButRecordToWritesANewFile() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("smoke.tincan.yaml", Array(Self.passing.utf8))
        let recorded = directory.path + "/recorded.tincan.yaml"
        try await withDemoServer { server in
            let refused = try await tincan(["replay", file, "--env", "ci", "--var", "server=\(server.baseURL)", "--record"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("would drop its comments (line 1)"))
            #expect(String(decoding: FileManager.default.contents(atPath: file)!, as: UTF8.self) == Self.passing)

            let saved = try await tincan(["replay", file, "--env", "ci", "--var", "server=\(server.baseURL)", "--record-to", recorded])
            #expect(saved.status == 0)
            let compared = try await tincan(["replay", recorded, "--env", "ci", "--var", "server=\(server.baseURL)", "--compare-recorded", "--verbose"])
            #expect(compared.status == 0, "\(compared.stdout)")
            #expect(compared.stdout.contains("✓ recorded status"))
        }
    }

    @Test func importCurlPrintsASessionAndAppendsToAFile() async throws {
        let directory = try TemporaryDirectory()
        let printed = try await tincan(["import", "curl", "curl -X PUT https://api.example/items/1 -H 'Content-Type: application/json' -d '{\"a\":1}'"])
        #expect(printed.status == 0)
        // curl sends neither Accept-Encoding nor Accept-Language, so Tincan's own are removed.
        #expect(printed.stdout.contains("  - method: PUT\n    url: https://api.example/items/1\n    headers:\n      Content-Type: application/json\n      Accept-Encoding: null\n      Accept-Language: null\n    body: \"{\\\"a\\\":1}\"\n"))

        let file = directory.path + "/api.tincan.yaml"
        for name in ["one", "two"] {
            let added = try await tincan(["import", "curl", "--name", name, "-o", file, "curl https://api.example/\(name)"])
            #expect(added.status == 0)
        }
        let listed = try await tincan(["export", file, "--format", "curl", "--request", "two"])
        #expect(listed.stdout.hasPrefix("curl https://api.example/two"))

        let bad = try await tincan(["import", "curl", "curl --socks5 x https://h/"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("the curl option --socks5 cannot be imported"))
    }

    @Test func importedPathsStillNameTheSameFilesFromTheSessionsFolder() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("data.txt", Array("a\r\nb".utf8))
        try directory.write("doc.txt", Array("doc".utf8))
        try FileManager.default.createDirectory(atPath: directory.path + "/other/dir", withIntermediateDirectories: true)
        let imported = try await tincan(["import", "curl", "-o", "other/dir/x.tincan.yaml",
                                         "curl -L http://127.0.0.1:9/up -F 'doc=@doc.txt' -o out.json"], in: directory.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let saved = try String(contentsOfFile: directory.path + "/other/dir/x.tincan.yaml", encoding: .utf8)
        #expect(saved.contains("path: ../../doc.txt"), "\(saved)")
        #expect(saved.contains("download: ../../out.json"))
        // The session reads them from its folder: the export names the files curl named.
        let exported = try await tincan(["export", "other/dir/x.tincan.yaml"], in: directory.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("-F 'doc=@\(directory.path)/other/dir/../../doc.txt;type=text/plain'"), "\(exported.stdout)")
        #expect(exported.stdout.contains("-o \(directory.path)/other/dir/../../out.json"))

        // What the session cannot keep is named on standard error; the printed YAML keeps paths as given.
        let stripped = try await tincan(["import", "curl", "curl -L http://127.0.0.1:9/up -d @data.txt"], in: directory.path)
        #expect(stripped.stdout.contains("body: ab\n"), "\(stripped.stdout)")
        #expect(stripped.stderr.contains("tincan: warning: -d @data.txt: curl sends the file without its line breaks"))
    }

    @Test func exportNamesWhatCurlWillNotDoAsTincanDoes() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("s.tincan.yaml", Array("requests:\n  - name: slow\n    method: DELETE\n    url: http://127.0.0.1:9/x\n    properties:\n      timeout: 0.5\n".utf8))
        let exported = try await tincan(["export", file])
        #expect(exported.status == 0)
        #expect(exported.stdout.contains("--connect-timeout 0.5 --speed-limit 1 --speed-time 1"))
        #expect(exported.stderr.contains("tincan: warning: request 'slow': timeout 0.5: curl's --speed-time counts whole seconds, so it is 1\n"))
        #expect(exported.stderr.contains("tincan: warning: request 'slow': -X DELETE: after a 303 redirect curl sends DELETE again, where Tincan switches to GET\n"))
    }

    @Test func importHTTPThenExportHTTP() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("api.http", Array("@host = http://127.0.0.1:9\n\n### Create\nPOST {{host}}/items\nContent-Type: application/json\n\n{\"a\": 1}\n".utf8))
        let session = directory.path + "/api.tincan.yaml"
        let imported = try await tincan(["import", "http", file, "-o", session])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try await tincan(["export", session, "--format", "http"])
        #expect(exported.status == 0)
        #expect(exported.stdout.hasPrefix("### Create\nPOST http://127.0.0.1:9/items\n"))
        #expect(exported.stdout.contains("Content-Type: application/json\n\n{\"a\": 1}\n"))
    }
}
