import Foundation
import TestSupport
import Testing
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
