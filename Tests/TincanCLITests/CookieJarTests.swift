import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanCore
import TincanDemoServer

/// `tincan send --cookie-jar FILE` (issue 18 §6), against the demo server's /cookies routes and
/// the real curl binary, both on loopback.
@Suite("tincan send keeps cookies across runs in curl's cookie file")
struct CookieJarTests {
    static let curl = "/usr/bin/curl"

    private func cookiesEcho(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: String] {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any], sourceLocation: sourceLocation)
        let body = try #require((object["response"] as? [String: Any])?["body"] as? [String: Any], sourceLocation: sourceLocation)
        return try #require(body["cookies"] as? [String: String], sourceLocation: sourceLocation)
    }

    @Test("a cookie set in one run is written to the jar with mode 0600 and sent by the next run")
    func keepsCookiesBetweenRuns() async throws {
        let directory = try TemporaryDirectory()
        let jar = directory.path + "/jar.txt"
        try await withDemoServer { server in
            let first = try await tincan(["send", "--format", "json", "--cookie-jar", jar, "GET", "\(server.baseURL)/cookies/set?tea=green"])
            #expect(try cookiesEcho(first) == ["tea": "green"])
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(text.hasPrefix("# Netscape HTTP Cookie File\n"))
            #expect(text.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\ttea\tgreen\n"), "a session cookie is kept with expiry 0")
            var info = stat()
            #expect(stat(jar, &info) == 0 && info.st_mode & 0o777 == 0o600)

            let second = try await tincan(["send", "--format", "json", "--cookie-jar", jar, "GET", "\(server.baseURL)/cookies"])
            #expect(try cookiesEcho(second) == ["tea": "green"])
            let deleted = try await tincan(["send", "--format", "json", "--cookie-jar", jar, "GET", "\(server.baseURL)/cookies/delete?tea"])
            #expect(try cookiesEcho(deleted) == [:])
            #expect(!(try String(contentsOfFile: jar, encoding: .utf8)).contains("tea"))
        }
    }

    @Test("curl -c writes a jar tincan reads, and curl -b reads the jar tincan writes, HttpOnly cookies included")
    func sharesTheJarWithCurl() async throws {
        let directory = try TemporaryDirectory()
        let jar = directory.path + "/shared.txt"
        try await withDemoServer { server in
            let byCurl = try await run(Self.curl, ["-s", "-o", "/dev/null", "-c", jar, "\(server.baseURL)/cookies/set?fromCurl=1"])
            #expect(byCurl.status == 0, "\(byCurl.stderr)")
            let read = try await tincan(["send", "--format", "json", "--cookie-jar", jar, "GET", "\(server.baseURL)/cookies/set?fromTincan=2"])
            #expect(try cookiesEcho(read) == ["fromCurl": "1", "fromTincan": "2"])

            // An HttpOnly cookie as curl marks it: tincan keeps the mark, curl still reads it.
            var text = try String(contentsOfFile: jar, encoding: .utf8)
            text += "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\thidden\t3\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: jar))
            let again = try await tincan(["send", "--format", "json", "--cookie-jar", jar, "GET", "\(server.baseURL)/cookies"])
            #expect(try cookiesEcho(again) == ["fromCurl": "1", "fromTincan": "2", "hidden": "3"])
            #expect(try String(contentsOfFile: jar, encoding: .utf8).contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\thidden\t3\n"))

            let byCurlAgain = try await run(Self.curl, ["-s", "-b", jar, "\(server.baseURL)/cookies"])
            #expect(byCurlAgain.status == 0)
            let echoed = try #require(try JSONSerialization.jsonObject(with: Data(byCurlAgain.stdoutBytes)) as? [String: Any])
            #expect(echoed["cookies"] as? [String: String] == ["fromCurl": "1", "fromTincan": "2", "hidden": "3"])
        }
    }

    @Test("a jar that is a symbolic link stays one, and the file it names is replaced")
    func followsSymbolicLinks() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/real", withIntermediateDirectories: true)
        try directory.write("real/cookies.txt", Array(CookieFile.header.utf8) + [0x0A])
        let link = directory.path + "/jar.txt"
        #expect(symlink("real/cookies.txt", link) == 0)
        try await withDemoServer { server in
            let result = try await tincan(["send", "--cookie-jar", link, "GET", "\(server.baseURL)/cookies/set?a=1"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        var info = stat()
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try String(contentsOfFile: directory.path + "/real/cookies.txt", encoding: .utf8).contains("\ta\t1\n"))
    }

    @Test("a jar that is a link to nothing is exit 2 naming it, before anything is sent")
    func danglingLinkIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/jar.txt"
        #expect(symlink("missing/cookies.txt", link) == 0)
        let refused = await ending(of: ["send", "--cookie-jar", link, "GET", "http://127.0.0.1:9/"])
        #expect(refused.status == 2)
        #expect(refused.standardError == "tincan: error: --cookie-jar: cannot write to \(link): it is a symbolic link to \(directory.path)/missing/cookies.txt, which does not exist")
    }

    @Test("a malformed jar is exit 2 naming FILE:LINE and what was expected, nothing is sent, and the file is left as it was")
    func malformedJarIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let bytes = Array("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\ta\t1\n127.0.0.1\tFALSE\t/\tmaybe\t0\tb\t2\n".utf8)
        let jar = try directory.write("jar.txt", bytes)
        try await withDemoServer { server in
            let result = try await tincan(["send", "--cookie-jar", jar, "GET", "\(server.baseURL)/cookies/set?c=3"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("tincan: error: --cookie-jar \(jar):3: expected TRUE or FALSE in the secure field, found 'maybe'"))
            #expect(result.stdout.isEmpty, "nothing was sent")
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: jar))) == bytes)
    }

    @Test("a jar in a folder that does not exist, or a jar that is a folder, is exit 2 before anything is sent")
    func unusableJarIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let missing = await ending(of: ["send", "--cookie-jar", directory.path + "/nope/jar.txt", "GET", "http://127.0.0.1:9/"])
        #expect(missing.status == 2)
        #expect(missing.standardError == "tincan: error: --cookie-jar \(directory.path)/nope/jar.txt: the folder \(directory.path)/nope does not exist; expected a file in an existing folder")
        let folder = await ending(of: ["send", "--cookie-jar", directory.path, "GET", "http://127.0.0.1:9/"])
        #expect(folder.status == 2)
        #expect(folder.standardError == "tincan: error: --cookie-jar \(directory.path): cannot be read: it is a folder; expected a cookie file")
    }
}
