import Foundation
import TestSupport
import Testing
import TincanDemoServer

/// A session with one request to the demo server (`{{server}}`).
private let oneRequest = """
    name: One
    base: "{{server}}/"
    requests:
      - name: Get
        url: get
    """

/// What a crash leaves on standard error (Swift's runtime, or a backtrace).
private func looksLikeACrash(_ stderr: String) -> Bool {
    ["Fatal error", "Crash", "backtrace", "Illegal instruction", "💣"].contains { stderr.contains($0) }
}

@Suite("Output that cannot be written is an error (exit 23)")
struct WriteErrorTests {
    /// A full device, and the directory that holds it (kept alive as long as it is used).
    static func full() throws -> (String, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        return (directory.fullDevice(), directory)
    }

    @Test("export to a full device exits 23 and says why")
    func exportToAFullDevice() async throws {
        let (full, device) = try Self.full()
        defer { withExtendedLifetime(device) {} }
        let directory = try TemporaryDirectory()
        let file = try directory.write("one.tincan.yaml", Array(oneRequest.utf8))
        let result = try await tincan(["export", file, "--var", "server=http://127.0.0.1:9"], standardOutput: .file(full))
        #expect(result.status == 23)
        #expect(result.stderr == "tincan: error: cannot write to standard output: No space left on device\n")
    }

    @Test("an offline send to a full device exits 23, as text and as JSON")
    func offlineSendToAFullDevice() async throws {
        let (full, device) = try Self.full()
        defer { withExtendedLifetime(device) {} }
        for format in ["text", "json"] {
            let result = try await tincan(["send", "--offline", "--format", format, "POST", "http://127.0.0.1:9/post", "a=1"], standardOutput: .file(full))
            #expect(result.status == 23, "\(format): \(result.stderr)")
            #expect(result.stderr.contains("cannot write to standard output: No space left on device"))
        }
    }

    @Test("a sent request whose report cannot be written exits 23, not 0")
    func sentReportToAFullDevice() async throws {
        let (full, device) = try Self.full()
        defer { withExtendedLifetime(device) {} }
        try await withDemoServer { server in
            let result = try await tincan(["send", "GET", "\(server.baseURL)/get"], standardOutput: .file(full))
            #expect(result.status == 23)
            #expect(result.stderr.contains("cannot write to standard output: No space left on device"))
            #expect(!looksLikeACrash(result.stderr))
        }
    }

    @Test("replay --output to a full device exits 23 naming the file")
    func replayReportFileOnAFullDevice() async throws {
        let (full, device) = try Self.full()
        defer { withExtendedLifetime(device) {} }
        let directory = try TemporaryDirectory()
        let file = try directory.write("one.tincan.yaml", Array(oneRequest.utf8))
        try await withDemoServer { server in
            let result = try await tincan(["replay", file, "--var", "server=\(server.baseURL)", "--report", "json", "--output", full])
            #expect(result.status == 23, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("cannot write to \(full): No space left on device"))
            // The device is written in place, never replaced by a renamed file.
            var info = stat()
            #expect(stat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)

            let text = try await tincan(["replay", file, "--var", "server=\(server.baseURL)"], standardOutput: .file(full))
            #expect(text.status == 23)
            #expect(text.stderr.contains("cannot write to standard output"))
        }
    }

    @Test("import, keys, --help and serve check their output too")
    func everyCommandChecksItsOutput() async throws {
        let (full, device) = try Self.full()
        defer { withExtendedLifetime(device) {} }
        let imported = try await tincan(["import", "curl", "curl https://example.com/x"], standardOutput: .file(full))
        #expect(imported.status == 23)
        let importedToFile = try await tincan(["import", "curl", "curl https://example.com/x", "-o", full])
        #expect(importedToFile.status == 23, "\(importedToFile.stderr)")
        #expect(importedToFile.stderr.contains("\(full): No space left on device"))
        let keys = try await tincan(["keys"], standardOutput: .file(full))
        #expect(keys.status == 23)
        let help = try await tincan(["send", "--help"], standardOutput: .file(full))
        #expect(help.status == 23)
        // --version alone takes a shorter path than the argument parser, and checks its output too.
        let version = try await tincan(["--version"], standardOutput: .file(full))
        #expect(version.status == 23)
        #expect(version.stderr.contains("No space left on device"))
    }

    @Test("serve stops when its banner cannot be written", .timeLimit(.minutes(1)))
    func serveChecksItsLog() async throws {
        let (full, device) = try Self.full()
        defer { withExtendedLifetime(device) {} }
        // Otherwise the server would run on, unheard, until killed.
        let serve = try await tincan(["serve", "--port", "0"], standardOutput: .file(full))
        #expect(serve.status == 23)
        #expect(serve.stderr.contains("cannot write to standard output: No space left on device"))
    }
}

@Suite("A closed pipe stops the output quietly (exit 23, no crash)")
struct ClosedPipeTests {
    @Test("send --format json piped into head -c 100 stops without a crash")
    func sentJSONIntoAClosedPipe() async throws {
        try await withDemoServer { server in
            // 300 kB of text in the body: far more than a pipe holds once the reader is gone.
            let result = try await tincan(["send", "--format", "json", "GET", "\(server.baseURL)/range/300000"], standardOutput: .pipeClosedAfter(100))
            #expect(result.stdoutBytes.count == 100)
            #expect(result.status == 23, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "a reader that left needs no explanation: \(result.stderr)")
            #expect(!looksLikeACrash(result.stderr))
        }
    }

    @Test("an offline send into a closed pipe exits 23 rather than dying of SIGPIPE")
    func offlineIntoAClosedPipe() async throws {
        let directory = try TemporaryDirectory()
        let body = try directory.write("body.txt", Array(repeating: UInt8(ascii: "x"), count: 400_000))
        let result = try await tincan(["send", "--offline", "--format", "json", "POST", "http://127.0.0.1:9/post", "text=@\(body)"], standardOutput: .pipeClosedAfter(10))
        #expect(result.status == 23, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }
}

@Suite("Reports name an upload by its file, size and SHA-256")
struct UploadReportTests {
    @Test("a 1 MB upload's JSON report stays small and names the file's hash")
    func uploadReportNamesTheHash() async throws {
        let directory = try TemporaryDirectory()
        let bytes = await offThePool {
            var generator = SystemRandomNumberGenerator()
            return (0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let path = try directory.write("big.bin", bytes)
        let digest = String(try await run("/usr/bin/sha256sum", [path]).stdout.prefix(64))
        #expect(digest.count == 64)
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", "--upload", path, "PUT", "\(server.baseURL)/upload"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdoutBytes.count < 4_000, "the report carries the upload: \(result.stdoutBytes.count) bytes")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
            let request = try #require(object["request"] as? [String: Any])
            #expect(request["body"] is NSNull)
            #expect(request["bodyBase64"] is NSNull)
            let file = try #require(request["bodyFile"] as? [String: Any])
            #expect(file["path"] as? String == path)
            #expect(file["bytes"] as? Int == 1_000_000)
            #expect(file["sha256"] as? String == digest)
        }
        let offline = try await tincan(["send", "--offline", "--format", "json", "--upload", path, "PUT", "http://127.0.0.1:9/upload"])
        #expect(offline.status == 0)
        #expect(offline.stdout.contains("\"sha256\":\"\(digest)\""))
        #expect(offline.stdout.contains("[\"Content-Length\",\"1000000\"]"), "offline shows what would be sent")
    }
}

@Suite("Downloads into a folder that does not exist fail before sending")
struct DownloadFolderTests {
    // Nothing listens on port 9: a request that went out would fail with exit 4 instead.
    @Test("send --download into a missing folder exits 2 naming it")
    func sendNamesTheMissingFolder() async throws {
        let directory = try TemporaryDirectory()
        let result = try await tincan(["send", "--download", "nodir/x.bin", "GET", "http://127.0.0.1:9/bytes/10"], in: directory.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("the folder nodir does not exist"))
        #expect(result.stderr.contains("mkdir -p nodir"))
    }

    @Test("a session's download into a missing folder stops the replay before it sends")
    func replayNamesTheMissingFolder() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("d.tincan.yaml", Array("""
            requests:
              - name: Fetch
                url: http://127.0.0.1:9/bytes/10
                download: nodir/x.bin
            """.utf8))
        let result = try await tincan(["replay", file])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("request '#1 Fetch'"))
        #expect(result.stderr.contains("the folder \(directory.path)/nodir does not exist"))
    }
}

@Suite("Replay refuses sessions and options that cannot mean anything")
struct ReplayOptionTests {
    @Test("an empty session file, or one without requests, exits 2 naming it", arguments: ["", "name: Nothing\nrequests: []\n"])
    func emptySessions(_ text: String) async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("empty.tincan.yaml", Array(text.utf8))
        let result = try await tincan(["replay", file])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file): the session has no requests"))
        let exported = try await tincan(["export", file])
        #expect(exported.status == 2)
    }

    @Test("--record with --record-to exits 2 naming both")
    func recordAndRecordTo() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("one.tincan.yaml", Array(oneRequest.utf8))
        let result = try await tincan(["replay", file, "--var", "server=http://127.0.0.1:9", "--record", "--record-to", directory.path + "/other.tincan.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--record and --record-to"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/other.tincan.yaml"), "nothing was replayed")
    }
}

@Suite("Saving through a symbolic link keeps the link")
struct SymlinkSaveCLITests {
    @Test("import -o through a relative link writes the link's target")
    func importThroughARelativeLink() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/real", withIntermediateDirectories: true)
        try directory.write("real/api.tincan.yaml", Array("name: API\nrequests:\n  - url: http://example.com/a\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/api.tincan.yaml", withDestinationPath: "real/api.tincan.yaml")
        let result = try await tincan(["import", "curl", "curl http://example.com/b", "-o", "api.tincan.yaml"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.path + "/api.tincan.yaml") == "real/api.tincan.yaml")
        let saved = String(decoding: FileManager.default.contents(atPath: directory.path + "/real/api.tincan.yaml") ?? Data(), as: UTF8.self)
        #expect(saved.contains("http://example.com/a") && saved.contains("http://example.com/b"))
    }

    @Test("a download through a link completes into the link's target")
    func downloadThroughALink() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/store", withIntermediateDirectories: true)
        try directory.write("store/data.bin", Array("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/data.bin", withDestinationPath: "store/data.bin")
        try await withDemoServer { server in
            let result = try await tincan(["send", "--download", "data.bin", "GET", "\(server.baseURL)/range/26"], in: directory.path)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.path + "/data.bin") == "store/data.bin")
        #expect(FileManager.default.contents(atPath: directory.path + "/store/data.bin") == Data("abcdefghijklmnopqrstuvwxyz".utf8))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/gone.bin", withDestinationPath: "nowhere/gone.bin")
        let dangling = try await tincan(["send", "--download", "gone.bin", "GET", "http://127.0.0.1:9/range/26"], in: directory.path)
        #expect(dangling.status == 2)
        #expect(dangling.stderr.contains("gone.bin: it is a symbolic link to nowhere/gone.bin, which does not exist"))
    }

    @Test("import -o through a dangling link is an error naming it")
    func importThroughADanglingLink() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/gone.tincan.yaml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path + "/missing/gone.tincan.yaml")
        let result = try await tincan(["import", "curl", "curl http://example.com/b", "-o", link])
        #expect(result.status != 0)
        #expect(result.stderr.contains(link))
        #expect(result.stderr.contains("symbolic link to \(directory.path)/missing/gone.tincan.yaml, which does not exist"))
    }
}
