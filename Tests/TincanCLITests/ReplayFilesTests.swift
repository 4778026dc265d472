import Foundation
import TestSupport
import Testing

@Suite("tincan replay with several files, --jobs, --shard and --test")
struct ReplayFilesTests {
    /// Writes session files named `names` into `directory`: each passes, except `failing`.
    static func sessions(_ names: [String], in directory: TemporaryDirectory, failing: Set<String> = []) throws -> [String] {
        try names.map { name in
            let status = failing.contains(name) ? 201 : 200
            return try directory.write("\(name).tincan.yaml", Array("""
                name: \(name)
                base: "{{server}}/"
                requests:
                  - name: \(name) first
                    url: anything/\(name)
                    assert:
                      status: \(status)
                  - name: \(name) second
                    url: delay/0.05
                """.utf8))
        }
    }

    @Test("a session that reads or writes files outside its folder says so on standard error, before its report")
    func filesOutsideTheFolderAreSaid() async throws {
        let outside = try TemporaryDirectory()
        let secret = try outside.write("secret.txt", Array("s3cret".utf8))
        // The session sits in a folder of its own inside a scratch one, where its download lands.
        let scratch = try TemporaryDirectory()
        let folder = scratch.path + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = try scratch.write("shared/shared.tincan.yaml", Array("""
            name: Shared
            base: "{{server}}/"
            requests:
              - method: PUT
                url: put
                upload: \(secret)
              - url: bytes/4
                download: ../pwned.bin
                response:
                  serializer: http
              - method: PUT
                url: put
                upload: kept.bin
            """.utf8))
        _ = try scratch.write("shared/kept.bin", Array("k".utf8))
        let result = try await tincan(["replay", "--demo", file])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("tincan: warning: \(file): request 'PUT put': the upload reads \(secret), outside the session's folder\n"), "\(result.stderr)")
        #expect(result.stderr.contains("tincan: warning: \(file): request 'GET bytes/4': the download writes ../pwned.bin, outside the session's folder\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("kept.bin"), "a file inside the folder is the session's own: \(result.stderr)")
    }

    @Test("side-by-side files print each file's lines together, in file order, then a summary")
    func textProgressKeepsFileOrder() async throws {
        let directory = try TemporaryDirectory()
        let files = try Self.sessions(["a", "b", "c", "d"], in: directory, failing: ["c"])
        let result = try await tincan(["replay", "--demo", "--jobs", "3"] + files)
        #expect(result.status == 3, "\(result.stdout)\n\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasSuffix(".tincan.yaml)") }
        #expect(headers.map { $0.prefix(1) } == ["a", "b", "c", "d"])
        // Each file's two request lines sit right under its header.
        for name in ["a", "b", "c", "d"] {
            let header = try #require(lines.firstIndex { $0.hasPrefix("\(name) (") })
            #expect(lines[header + 1].contains("\(name) first"), "\(result.stdout)")
            #expect(lines.dropFirst(header + 1).prefix(4).contains { $0.contains("\(name) second") }, "\(result.stdout)")
        }
        #expect(lines.last == lines.last.flatMap { $0.hasPrefix("4 files, 8 requests: 3 files passed, 1 failed in ") ? $0 : nil }, "\(result.stdout)")
    }

    @Test("--test prints one line a file and a summary, with the failed request under its file")
    func testSummary() async throws {
        let directory = try TemporaryDirectory()
        let files = try Self.sessions(["one", "two"], in: directory, failing: ["two"])
        let result = try await tincan(["replay", "--demo", "--test", "--jobs", "2"] + files)
        #expect(result.status == 3)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("\(files[0]): passed (2 requests in "), "\(result.stdout)")
        #expect(lines[1].hasPrefix("\(files[1]): failed (1 of 2 requests failed in "), "\(result.stdout)")
        #expect(lines[2].contains("✗ 1. two first"), "\(result.stdout)")
        #expect(lines[3].contains("status"), "\(result.stdout)")
        #expect(lines.last?.hasPrefix("2 files, 4 requests: 1 file passed, 1 failed in ") == true, "\(result.stdout)")
        #expect(!result.stdout.contains("one first"), "passing requests are not listed")
    }

    @Test("the json report of several files holds the totals and each file's report in file order")
    func jsonReportOfSeveralFiles() async throws {
        let directory = try TemporaryDirectory()
        let files = try Self.sessions(["x", "y", "z"], in: directory, failing: ["y"])
        let result = try await tincan(["replay", "--demo", "--jobs", "3", "--report", "json"] + files)
        #expect(result.status == 3)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any], "\(result.stdout)")
        #expect(report["files"] as? Int == 3)
        #expect(report["total"] as? Int == 6)
        #expect(report["failed"] as? Int == 1)
        #expect(report["passed"] as? Bool == false)
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["session"] as? String } == ["x", "y", "z"])
        #expect(sessions.map { $0["file"] as? String } == files)
        let requests = try #require(sessions[1]["requests"] as? [[String: Any]])
        #expect(requests.first?["attempts"] as? Int == 1)

        // docs/report.schema.json names exactly the keys the report has, at every level.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: package.appendingPathComponent("docs/report.schema.json"))) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: [String: Any]])
        func keys(_ name: String) -> Set<String> { Set(definitions[name]?["required"] as? [String] ?? []) }
        func properties(_ name: String) -> Set<String> { Set((definitions[name]?["properties"] as? [String: Any])?.keys.map { $0 } ?? []) }
        #expect(Set(report.keys) == keys("batch") && keys("batch") == properties("batch"))
        #expect(Set(sessions[0].keys) == keys("session") && keys("session") == properties("session"))
        #expect(Set(requests[0].keys) == keys("request") && keys("request") == properties("request"))
    }

    @Test("the junit report of several files has one testsuite a file")
    func junitReportOfSeveralFiles() async throws {
        let directory = try TemporaryDirectory()
        let files = try Self.sessions(["p", "q"], in: directory, failing: ["q"])
        let result = try await tincan(["replay", "--demo", "--report", "junit"] + files)
        #expect(result.status == 3)
        #expect(result.stdout.contains("<testsuites name=\"tincan replay\" tests=\"4\" failures=\"1\" skipped=\"0\""), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "<testsuite ").count == 3)
        let p = try #require(result.stdout.range(of: "<testsuite name=\"p\""))
        let q = try #require(result.stdout.range(of: "<testsuite name=\"q\""))
        #expect(p.lowerBound < q.lowerBound)
    }

    @Test("a folder stands for its session files in name order, and --shard takes every Nth of them")
    func foldersAndShards() async throws {
        let directory = try TemporaryDirectory()
        _ = try Self.sessions(["s1", "s2", "s3"], in: directory)
        try FileManager.default.createDirectory(atPath: directory.path + "/more", withIntermediateDirectories: true)
        try directory.write("more/s4.tincan.yaml", Array("base: \"{{server}}/\"\nname: s4\nrequests:\n  - url: get\n".utf8))
        try directory.write("notes.txt", Array("not a session".utf8))
        // A hidden folder's files (a checkout's .git, say) are not sessions to run.
        try FileManager.default.createDirectory(atPath: directory.path + "/.hidden", withIntermediateDirectories: true)
        try directory.write(".hidden/broken.tincan.yaml", Array("requests: [unclosed\n".utf8))
        let all = try await tincan(["replay", "--demo", "--test", directory.path])
        #expect(all.status == 0, "\(all.stdout)\n\(all.stderr)")
        #expect(all.stdout.contains("4 files, 7 requests: 4 files passed, 0 failed"), "\(all.stdout)")
        let second = try await tincan(["replay", "--demo", "--test", "--shard", "2/3", directory.path])
        #expect(second.status == 0)
        let ran = second.stdout.split(separator: "\n").filter { $0.contains(": passed") }
        // Name order: more/s4, s1, s2, s3; shard 2 of 3 takes the 2nd (s1).
        #expect(ran.count == 1 && ran[0].contains("s1.tincan.yaml"), "\(second.stdout)")
        let empty = try await tincan(["replay", "--demo", "--shard", "7/7", directory.path])
        #expect(empty.status == 0)
        #expect(empty.stderr.contains("shard 7/7 has no files (4 given)"))
    }

    @Test("unusable options and files are refused before anything is sent", arguments: [
        (["--jobs", "0"], "'--jobs <N>': 0 is out of range (1…256)"),
        (["--jobs", "257"], "'--jobs <N>': 257 is out of range (1…256)"),
        (["--jobs", "two"], "'--jobs <N>': 'two' is not a number"),
        (["--shard", "3/2"], "--shard '3/2' cannot be used; expected a shard K from 1 to 2"),
        (["--record-to", "/tmp/never.tincan.yaml"], "--record-to saves one session, and 2 session files are given"),
        (["--test", "--report", "json"], "--test prints text"),
    ])
    func refusedOptions(options: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        let files = try Self.sessions(["f1", "f2"], in: directory)
        let result = try await tincan(["replay", "--var", "server=http://127.0.0.1:9"] + options + files)
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a file that does not load stops the run before any file's request is sent")
    func aBrokenFileStopsEverything() async throws {
        let directory = try TemporaryDirectory()
        let files = try Self.sessions(["good"], in: directory)
        let broken = try directory.write("broken.tincan.yaml", Array("requests:\n  - url: [unclosed\n".utf8))
        let missing = directory.path + "/missing.tincan.yaml"
        let result = try await tincan(["replay", "--demo"] + files + [broken])
        #expect(result.status == 2)
        #expect(result.stderr.contains("broken.tincan.yaml:"), "\(result.stderr)")
        #expect(!result.stdout.contains("good first"))
        let absent = try await tincan(["replay", "--demo"] + files + [missing])
        #expect(absent.status == 2)
        #expect(absent.stderr.contains("missing.tincan.yaml: no such session file or folder"))
    }
}
