import Foundation
import TestSupport
import Testing

@Suite("tincan replay --record-har, import har and export --format har")
struct HARCommandTests {
    static let session = """
        name: HAR
        base: "{{server}}"
        requests:
          - name: Slides
            url: /json
          - name: Echo
            method: POST
            url: /anything/items?api_key=k3y-secret
            serializer: json
            headers:
              Authorization: Bearer s3cret-token
              X-Trace: t-1
            params:
              name: tea
              count: 2
          - name: Bytes
            url: /bytes/16
        """

    /// The log's entries, read with Foundation's own JSON reader.
    func entries(_ path: String) throws -> [[String: Any]] {
        let data = try #require(FileManager.default.contents(atPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let log = try #require(object["log"] as? [String: Any])
        #expect((log["creator"] as? [String: Any])?["name"] as? String == "tincan")
        return try #require(log["entries"] as? [[String: Any]])
    }

    @Test("replay --record-har writes each exchange with its response, timings and secrets hidden")
    func recordHAR() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("s.tincan.yaml", Array(Self.session.utf8))
        let har = directory.path + "/out.har"
        try await withDemoServer { server in
            let result = try await tincan(["replay", file, "--var", "server=\(server.baseURL)", "--record-har", har])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("tincan: wrote 3 exchanges to \(har)"))
            let text = String(decoding: FileManager.default.contents(atPath: har) ?? Data(), as: UTF8.self)
            // The header and the query field, and their echo in the response body, are hidden.
            #expect(!text.contains("s3cret-token") && !text.contains("k3y-secret"))
            let entries = try entries(har)
            #expect(entries.count == 3)
            let requests = entries.compactMap { $0["request"] as? [String: Any] }
            let responses = entries.compactMap { $0["response"] as? [String: Any] }
            #expect(requests.map { $0["url"] as? String } == ["/json", "/anything/items?api_key=••••••", "/bytes/16"].map { server.baseURL + $0 })
            #expect(responses.map { $0["status"] as? Int } == [200, 200, 200])
            #expect(requests.map { $0["httpVersion"] as? String } == responses.map { $0["httpVersion"] as? String })
            let headers = try #require(requests[1]["headers"] as? [[String: String]])
            #expect(headers.first { $0["name"] == "Authorization" }?["value"] == "Bearer ••••••")
            #expect(headers.first { $0["name"] == "X-Trace" }?["value"] == "t-1")
            let posted = try #require(requests[1]["postData"] as? [String: Any])
            #expect(posted["text"] as? String == "{\"name\":\"tea\",\"count\":2}")
            let slides = try #require(responses[0]["content"] as? [String: Any])
            #expect((slides["text"] as? String)?.contains("\"slideshow\"") == true)
            #expect(slides["mimeType"] as? String == "application/json")
            let bytes = try #require(responses[2]["content"] as? [String: Any])
            #expect(bytes["encoding"] as? String == "base64" || bytes["encoding"] == nil)
            let decoded = bytes["encoding"] == nil ? Data((bytes["text"] as? String ?? "").utf8) : Data(base64Encoded: bytes["text"] as? String ?? "")
            #expect(decoded?.count == 16)
            let dates = ISO8601DateFormatter()
            dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            for entry in entries {
                let timings = try #require(entry["timings"] as? [String: Any]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
                let phases = ["send", "wait", "receive"].compactMap { timings[$0] }
                #expect(phases.count == 3 && phases.allSatisfy { $0 >= 0 })
                let time = try #require((entry["time"] as? NSNumber)?.doubleValue)
                #expect(time > 0 && abs(phases.reduce(0, +) - time) < 0.001)
                #expect(timings["dns"] == -1 && timings["connect"] == -1)
                #expect(dates.date(from: entry["startedDateTime"] as? String ?? "") != nil)
            }
        }
    }

    @Test("a HAR recorded with secrets, imported, replays with --compare-recorded and passes")
    func importedHARComparesRecorded() async throws {
        let directory = try TemporaryDirectory()
        // The random bytes are left out: a new replay could not match their recording.
        let file = try directory.write("s.tincan.yaml", Array(Self.session.replacingOccurrences(of: "  - name: Bytes\n    url: /bytes/16", with: "").utf8))
        let har = directory.path + "/out.har"
        let imported = directory.path + "/imported.tincan.yaml"
        try await withDemoServer { server in
            let recorded = try await tincan(["replay", file, "--var", "server=\(server.baseURL)", "--record-har", har, "--show-secrets"])
            #expect(recorded.status == 0, "\(recorded.stderr)")
            #expect(String(decoding: FileManager.default.contents(atPath: har) ?? Data(), as: UTF8.self).contains("Bearer s3cret-token"))
            let result = try await tincan(["import", "har", har, "-o", imported])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("tincan: 2 requests added to \(imported)"))
            #expect(result.stderr.contains("request headers not imported"))
            let compared = try await tincan(["replay", imported, "--compare-recorded", "--verbose"])
            #expect(compared.status == 0, "\(compared.stdout)\(compared.stderr)")
            #expect(compared.stdout.components(separatedBy: "✓ recorded body").count == 3, "\(compared.stdout)")
            #expect(compared.stdout.contains("✓ recorded header Content-Type") || compared.stdout.contains("✓ recorded header content-type"), "\(compared.stdout)")

            // Added to a file with a base of its own, the HAR's requests keep their origin.
            let other = try directory.write("other.tincan.yaml", Array("name: other\nbase: http://127.0.0.1:9/\n".utf8))
            let merged = try await tincan(["import", "har", har, "-o", other])
            #expect(merged.status == 0, "\(merged.stderr)")
            let mergedText = try String(contentsOfFile: other, encoding: .utf8)
            #expect(mergedText.contains("base: http://127.0.0.1:9/"))
            #expect(mergedText.contains("url: \(server.baseURL)/"), "\(mergedText)")
            let replayed = try await tincan(["replay", other, "--compare-recorded"])
            #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        }
    }

    @Test("--record-har over several files writes one log, in file order, each entry naming its file")
    func recordHARFromSeveralFiles() async throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("a.tincan.yaml", Array("base: \"{{server}}\"\nrequests:\n  - name: One\n    url: /get\n".utf8))
        let second = try directory.write("b.tincan.yaml", Array("base: \"{{server}}\"\nrequests:\n  - name: Two\n    url: /json\n  - name: Three\n    url: /xml\n".utf8))
        let har = directory.path + "/all.har"
        try await withDemoServer { server in
            let result = try await tincan(["replay", first, second, "--jobs", "2", "--var", "server=\(server.baseURL)", "--record-har", har])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            let entries = try entries(har)
            #expect(entries.map { $0["comment"] as? String } == ["\(first): One", "\(second): Two", "\(second): Three"])
            #expect(entries.map { ($0["request"] as? [String: Any])?["url"] as? String } == ["/get", "/json", "/xml"].map { server.baseURL + $0 })
        }
    }

    @Test("--record-har into a full device or a missing folder exits 23 naming the file")
    func recordHARWriteError() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("s.tincan.yaml", Array(Self.session.utf8))
        let full = directory.fullDevice()
        let missing = directory.path + "/no/such/folder/out.har"
        try await withDemoServer { server in
            for (target, reason) in [(full, "No space left on device"), (missing, "No such file or directory")] {
                let result = try await tincan(["replay", file, "--var", "server=\(server.baseURL)", "--record-har", target])
                #expect(result.status == 23, "\(result.stderr)")
                #expect(result.stderr.contains("cannot write to \(target)") && result.stderr.contains(reason), "\(result.stderr)")
            }
        }
    }

    @Test("import refuses a file that is not a HAR log with its line and column")
    func importRefusesNonHAR() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("x.har", Array("{\n  \"entries\": []\n}\n".utf8))
        let result = try await tincan(["import", "har", file])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: \(file):1:1: the file: expected a HAR log: an object with a log key"), "\(result.stderr)")
        // A device that never ends is read only up to the limit.
        let endless = try await tincan(["import", "har", "/dev/zero"])
        #expect(endless.status == 2)
        #expect(endless.stderr.contains("error: /dev/zero: the file holds more than the 256 MiB a HAR import reads"), "\(endless.stderr)")
        #expect(endless.maxRSSBytes < 400 << 20)
    }

    @Test("export --format har prints the session's requests, secrets hidden unless asked")
    func exportHAR() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("s.tincan.yaml", Array(Self.session.utf8))
        let hidden = try await tincan(["export", file, "--format", "har", "--var", "server=http://127.0.0.1:9"])
        #expect(hidden.status == 0, "\(hidden.stderr)")
        #expect(hidden.stdout.contains("\"value\": \"Bearer ••••••\""))
        #expect(!hidden.stdout.contains("s3cret-token"))
        let shown = try await tincan(["export", file, "--format", "har", "--var", "server=http://127.0.0.1:9", "--show-secrets"])
        #expect(shown.stdout.contains("\"value\": \"Bearer s3cret-token\""))
        let refused = try await tincan(["export", file, "--show-secrets"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--show-secrets applies to --format har"))
    }
}
