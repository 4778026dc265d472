import Foundation
import TestSupport
import Testing
import TerminalUI
import TincanCore
import TincanSessions
@testable import TincanTUI

@Suite("The TUI's managers share the opened session's cookie file")
struct ManagerPoolCookieTests {
    let url = URLReference(parsing: "http://127.0.0.1:8080/")

    private func loaded() throws -> [Cookie] {
        try CookieFile.cookies(in: "127.0.0.1\tFALSE\t/\tFALSE\t0\tfile\t1\n127.0.0.1\tFALSE\t/\tFALSE\t0\tother\t2\n", path: "jar.txt")
    }

    @Test("the file's cookies go to the default manager and to one made later for a security: block")
    func everyManagerStartsWithTheFile() async throws {
        let pool = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        pool.insertCookies(try loaded())
        #expect(try pool.manager(for: SecuritySettings()).cookieJar.headerValue(for: url) == "file=1; other=2")
        var insecure = SecuritySettings()
        insecure.insecure = true
        #expect(try pool.manager(for: insecure).cookieJar.headerValue(for: url) == "file=1; other=2")
        await pool.invalidateAll()
    }

    @Test("what is saved merges every manager's jar; a cookie one manager deleted or changed is not brought back by another's copy")
    func savedCookiesMergeTheManagers() async throws {
        let pool = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        pool.insertCookies(try loaded())
        var insecure = SecuritySettings()
        insecure.insecure = true
        let secured = try pool.manager(for: insecure)
        let standard = try pool.manager(for: SecuritySettings())
        standard.cookieJar.store(setCookie: ["file=; Max-Age=0", "new=3"], for: url)
        secured.cookieJar.store(setCookie: ["other=changed"], for: url)
        let saved = pool.cookies
        #expect(Set(saved.map(\.pair)) == ["other=changed", "new=3"])
        await pool.invalidateAll()
    }

    @Test("a pool bound to a cookie file saves to it; loading another empties the jars first; a file that does not parse is never written")
    func bindsItsCookieFile() async throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("first.txt", Array("127.0.0.1\tFALSE\t/\tFALSE\t0\tfirst\t1\n".utf8))
        let bad = try directory.write("bad.txt", Array("not a cookie\n".utf8))
        let pool = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        try pool.loadCookies(from: first)
        #expect(pool.cookieFile == first)
        try pool.manager(for: SecuritySettings()).cookieJar.store(setCookie: ["more=2"], for: url)
        try pool.saveCookies()
        #expect(try CookieFile.load(from: first).map(\.pair) == ["first=1", "more=2"])

        let second = directory.path + "/second.txt"
        try pool.loadCookies(from: second)
        #expect(pool.cookies.isEmpty, "a file that does not exist yet is an empty jar")
        try pool.saveCookies()
        #expect(FileManager.default.fileExists(atPath: second))

        #expect(throws: CookieFileError.self) { try pool.loadCookies(from: bad) }
        #expect(pool.cookieFile == nil)
        try pool.saveCookies()
        #expect(try String(contentsOfFile: bad, encoding: .utf8) == "not a cookie\n")
        await pool.invalidateAll()
    }
}

extension ManagerPoolCookieTests {
    @Test("the same session taking a cookie file keeps the cookies it has, the file's laid over them")
    func keepingCookies() async throws {
        let directory = try TemporaryDirectory()
        let jar = try directory.write("jar.txt", Array("127.0.0.1\tFALSE\t/\tFALSE\t0\tfile\t1\n".utf8))
        let pool = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        try pool.manager(for: SecuritySettings()).cookieJar.store(setCookie: ["memory=2"], for: url)
        try pool.loadCookies(from: jar, keepingCookies: true)
        #expect(Set(pool.cookies.map(\.pair)) == ["memory=2", "file=1"])
        try pool.loadCookies(from: nil, keepingCookies: true)
        #expect(pool.cookieFile == nil)
        #expect(Set(pool.cookies.map(\.pair)) == ["memory=2", "file=1"], "no file: the cookies stay in memory")
        await pool.invalidateAll()
    }
}

@Suite("The Props tab sets the session's cookie file")
struct CookieFilePropertyTests {
    private func opened(_ directory: TemporaryDirectory) throws -> AppState {
        let path = try directory.write("s.tincan.yaml", Array("requests:\n  - url: http://127.0.0.1:9/\n".utf8))
        var state = AppState(width: 120, height: 40)
        state.open(Workspace(session: try Session.load(path: path), path: path))
        return state
    }

    @Test("a row shows the cookie file or in memory; an answer sets cookies: {file: …}, empty or reset clears it")
    func rowPromptAndReset() throws {
        let directory = try TemporaryDirectory()
        var state = try opened(directory)
        #expect(PropertyRow.cookieFile.value(in: state) == "in memory")
        #expect(!PropertyRow.cookieFile.isChanged(in: state))
        state.changeProperty(.cookieFile)
        guard case .modal(.prompt(let prompt)) = state.mode else {
            Issue.record("no prompt: \(state.mode)")
            return
        }
        #expect(prompt.purpose == .cookieFile)
        // The runner reads the file (a missing one is an empty jar) before the session names it.
        Fixtures.press([.key(.ctrl("u"))] + Fixtures.typing("jar.txt") + [.key(KeyEvent(.enter))], into: &state)
        #expect(state.modal == nil)
        #expect(state.workspace.session.cookieFile == "jar.txt")
        #expect(PropertyRow.cookieFile.value(in: state) == "jar.txt")
        #expect(PropertyRow.cookieFile.isChanged(in: state))
        #expect(state.editedSession.yamlText().contains("cookies:\n  file: jar.txt\n"), "saving writes the key")
        #expect(state.answerCookieFile("  ") == nil)
        #expect(state.workspace.session.cookieFile == nil)
        state.workspace.session.cookieFile = "jar.txt"
        state.resetProperty(.cookieFile)
        #expect(state.workspace.session.cookieFile == nil)
    }

    @Test("a cookie file that does not parse is refused with its line, and an unsaved session has none")
    func refusals() throws {
        let directory = try TemporaryDirectory()
        try directory.write("bad.txt", Array("nope\n".utf8))
        var state = try opened(directory)
        state.changeProperty(.cookieFile)
        Fixtures.press([.key(.ctrl("u"))] + Fixtures.typing("bad.txt") + [.key(KeyEvent(.enter))], into: &state)
        guard case .modal(.prompt(let prompt)) = state.mode else {
            Issue.record("the prompt closed: \(state.mode)")
            return
        }
        #expect(prompt.error == "\(directory.path)/bad.txt:1: expected 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value), found 1")
        #expect(prompt.dialog.field?.text == "bad.txt")
        #expect(state.workspace.session.cookieFile == nil)
        var untitled = AppState(width: 120, height: 40)
        #expect(untitled.answerCookieFile("jar.txt") == "a cookie file is kept beside a session file; save the session first (f6)")
    }
}
