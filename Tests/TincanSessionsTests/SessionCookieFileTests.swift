import Foundation
import TestSupport
import Testing
import TincanCore
import TincanDemoServer
import TincanSessions

@Suite("A session keeps its cookies in a file (cookies: {file: …})")
struct SessionCookieFileTests {
    @Test("cookies: {file: …} is read, written back under the same key, and resolved from the session's folder")
    func readsAndWritesTheKey() throws {
        let text = """
            cookies:
              file: state/jar.txt
            requests:
              - method: GET
                url: http://127.0.0.1:9/
            """
        let session = try Session.parse(text, path: "/work/s.tincan.yaml")
        #expect(session.cookieFile == "state/jar.txt")
        #expect(session.cookieFilePath(in: "/work") == "/work/state/jar.txt")
        #expect(session.yamlText().contains("cookies:\n  file: state/jar.txt\n"))
        #expect(try Session.parse(session.yamlText(), path: "/work/s.tincan.yaml") == session)
        #expect(Session().cookieFilePath(in: "/work") == nil)
    }

    @Test("an unknown key under cookies: is refused with the keys expected")
    func unknownKeyIsRefused() {
        #expect(throws: ConfigFileError(file: "s.yaml", line: 2, column: 3, reason: .unknownKey("path", context: "cookies", expected: ["file"]))) {
            try Session.parse("cookies:\n  path: jar.txt\nrequests: []\n", path: "s.yaml")
        }
    }

    @Test("a replay reads the cookie file before the first request and saves it, mode 0600, after the last")
    func replayKeepsCookiesAcrossRuns() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/s.tincan.yaml"
        let setting = try Session.parse("""
            base: "{{server}}/"
            cookies:
              file: jar.txt
            requests:
              - method: GET
                url: cookies/set
                query:
                  kept: "yes"
            """, path: path)
        let reading = try Session.parse("""
            base: "{{server}}/"
            cookies:
              file: jar.txt
            requests:
              - method: GET
                url: cookies
                assert:
                  body:
                    $.cookies.kept: "yes"
            """, path: path)
        try await withDemoServer { server in
            let first = try await replay(setting, path: path, on: server)
            #expect(first.report.passed)
            let jar = directory.path + "/jar.txt"
            #expect(try String(contentsOfFile: jar, encoding: .utf8).contains("\tkept\tyes\n"))
            var info = stat()
            #expect(stat(jar, &info) == 0 && info.st_mode & 0o777 == 0o600)
            let second = try await replay(reading, path: path, on: server)
            #expect(second.report.passed, "\(second.report.outcomes.map(\.checks))")
        }
    }

    @Test("a malformed cookie file stops the replay before anything is sent, naming file and line, and is left as it was")
    func malformedFileStopsTheReplay() async throws {
        let directory = try TemporaryDirectory()
        let bytes = Array("127.0.0.1\tFALSE\t/\tFALSE\t0\n".utf8)
        let jar = try directory.write("jar.txt", bytes)
        let path = directory.path + "/s.tincan.yaml"
        let session = try Session.parse("""
            base: "{{server}}/"
            cookies: {file: jar.txt}
            requests:
              - method: GET
                url: cookies/set
                query: {a: "1"}
            """, path: path)
        _ = try await withDemoServer { server in
            await #expect(throws: SessionError(.cookieFile(CookieFileError(place: .init(path: jar, line: 1), reason: .fieldCount(5))))) {
                _ = try await replay(session, path: path, on: server)
            }
        }
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: jar))) == bytes)
        #expect(SessionError(.cookieFile(CookieFileError(place: .init(path: "j", line: 1), reason: .fieldCount(5)))).description
            == "cookies: j:1: expected 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value), found 5")
    }
}
