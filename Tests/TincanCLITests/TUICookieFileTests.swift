import Foundation
import Testing
import TestSupport

/// The TUI with a session that keeps a cookie file (issue 18 §6), in tmux, and refusing a
/// malformed one before the screen is taken.
@Suite("The TUI loads and saves the opened session's cookie file")
struct TUICookieFileTests {
    @Test("the cookie file's cookies are sent, and the jar is saved with the new ones when the TUI quits")
    func loadsAndSavesTheJar() async throws {
        let home = try TemporaryDirectory()
        let jar = try home.write("jar.txt", Array("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tseed\t1\n".utf8))
        let file = try home.write("cookies.tincan.yaml", Array("""
            base: "{{server}}/"
            cookies:
              file: jar.txt
            requests:
              - name: Set a cookie
                method: GET
                url: cookies/set
                query:
                  tui: "1"
                assert:
                  body:
                    $.cookies.seed: "1"
            """.utf8))
        let command = "sh -c '\(BuiltProducts.tincan) --no-mouse --demo \(file); echo EXIT=$?; sleep 60'"
        let tui = try await TmuxSession(command: command, width: 120, height: 40,
                                        environment: ["XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "HOME": home.path], keeping: [home])
        try await tui.waitFor("Requests (1)")
        try await tui.send("C-r")
        try await tui.waitFor("checks passed")
        try await tui.quitDiscardingChanges(until: "EXIT=")
        let after = try await tui.waitFor("EXIT=")
        #expect(after.contains("EXIT=0"))
        let saved = try String(contentsOfFile: jar, encoding: .utf8)
        #expect(saved.hasPrefix("# Netscape HTTP Cookie File\n"))
        #expect(saved.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tseed\t1\n"))
        #expect(saved.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\ttui\t1\n"))
        var info = stat()
        #expect(stat(jar, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test("a malformed cookie file is exit 2 naming file and line, before the screen is taken, and is kept")
    func refusesAMalformedJar() async throws {
        let home = try TemporaryDirectory()
        let bytes = Array("# Netscape HTTP Cookie File\nnot a cookie line\n".utf8)
        let jar = try home.write("jar.txt", bytes)
        let file = try home.write("s.tincan.yaml", Array("cookies: {file: jar.txt}\nrequests: []\n".utf8))
        let result = try await tincan([file, "--no-mouse"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cookies: \(jar):2: expected 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value), found 1"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: jar))) == bytes)
    }
}
