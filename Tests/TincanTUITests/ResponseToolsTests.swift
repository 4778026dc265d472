import Foundation
import Testing
import TerminalUI
import TestSupport
import TincanCore
import TincanSessions
@testable import TincanTUI

/// The response body outside the TUI, the JSON filter, and the cookie jar and cache views
/// (issue 17 §3).
@Suite("Response tools: pager, editor, save, filter, cookies, cache")
struct ResponseToolsTests {
    static let shop = #"{"items": [{"name": "pen", "price": 2}, {"name": "lamp", "price": 30}, {"name": "cup", "price": 7.5}], "currency": "EUR"}"#

    private func sent(_ body: String = shop, contentType: String = "application/json", width: Int = 80, height: Int = 24) -> AppState {
        var state = Fixtures.welcome(width: width, height: height)
        Fixtures.send(&state, contentType: contentType, body: body)
        state.setFocus(.response)
        return state
    }

    private func press(_ keys: [InputEvent], _ state: inout AppState) -> [Effect] {
        Fixtures.press(keys, into: &state)
    }

    private func viewed(_ effects: [Effect]) -> (bytes: [UInt8], fileExtension: String, viewer: ExternalViewer)? {
        for case let .viewExternally(bytes, fileExtension, viewer) in effects { return (bytes, fileExtension, viewer) }
        return nil
    }

    // MARK: - Pager and editor

    @Test("p opens the Pretty view's JSON in the pager: indented, unfolded, the same value as the body")
    func pagerGetsPrettyJSON() throws {
        var state = sent()
        _ = press([.key(.char("-"))], &state)
        let shown = try #require(viewed(press([.key(.char("p"))], &state)))
        #expect(shown.viewer == .pager)
        #expect(shown.fileExtension == "json")
        let text = String(decoding: shown.bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"items\": [\n    {\n      \"name\": \"pen\",\n"))
        #expect(try JSONParser.parse(bytes: shown.bytes) == JSONParser.parse(Self.shop))
    }

    @Test("e opens the body in the editor; the Raw view gives a binary body as its bytes")
    func editorGetsRawBytes() throws {
        let binary: [UInt8] = [0x89, 0x50, 0x00, 0xFF, 0xFE, 0x01, 0x02, 0x80]
        var state = Fixtures.welcome()
        let effects = state.update(.input(.key(.ctrl("r"))))
        guard case let .send(id, request, _)? = effects.first else {
            Issue.record("no send")
            return
        }
        let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "application/octet-stream")]))
        _ = state.update(.task(exchange: id, .completed(TaskResult(request: request, response: response, data: binary, serialization: nil, metrics: TaskMetrics(connect: .zero, firstByte: .zero, total: .zero, requestCount: 1))), at: 0.1))
        state.setFocus(.response)
        state.showResponseView(.raw)
        let shown = try #require(viewed(press([.key(.char("e"))], &state)))
        #expect(shown.viewer == .editor)
        #expect(shown.bytes == binary)
        #expect(shown.fileExtension == "bin")
    }

    @Test("with no response, p says so and asks the runner for nothing")
    func nothingToView() {
        var state = Fixtures.welcome()
        state.setFocus(.response)
        #expect(viewed(press([.key(.char("p"))], &state)) == nil)
        #expect(state.status?.text == "No response body yet.")
    }

    @Test("the runner writes the body to a file, runs $PAGER on it, and removes the file")
    func runnerRunsThePager() throws {
        let folder = try TemporaryDirectory()
        let copy = folder.path + "/received"
        let script = folder.path + "/pager.sh"
        try writeExecutable("#!/bin/sh\ncat \"$1\" > '\(copy)'\necho \"$1\" > '\(copy).path'\n", to: script)
        let outcome = AppRunner.runViewer(.pager, Array("héllo\n".utf8), fileExtension: "txt", environment: ["PAGER": script])
        #expect(try outcome.get() == script)
        #expect(FileManager.default.contents(atPath: copy) == Data("héllo\n".utf8))
        let temporary = try String(contentsOfFile: copy + ".path", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(temporary.hasSuffix(".txt"))
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test("a pager of plain words runs directly; one with shell syntax runs through sh with the file as $1")
    func pagerCommandsRunDirectlyUnlessTheyNeedAShell() {
        #expect(ForegroundProgram.argumentVector("less -R", path: "/tmp/f") == ["less", "-R", "/tmp/f"])
        #expect(ForegroundProgram.argumentVector("  vi  ", path: "/tmp/f") == ["vi", "/tmp/f"])
        #expect(ForegroundProgram.argumentVector("less | cat", path: "/tmp/f") == ["/bin/sh", "-c", "less | cat \"$1\"", "sh", "/tmp/f"])
        #expect(ForegroundProgram.argumentVector("LESS=R less", path: "/tmp/f").first == "/bin/sh")
        #expect(ForegroundProgram.argumentVector("code --wait ~/x", path: "/tmp/f").first == "/bin/sh")
    }

    @Test("a program ended by a signal is reported with the signal")
    func aProgramEndedByASignalIsReported() {
        #expect(ForegroundProgram.run("kill -TERM $$; true", on: "/dev/null") == "kill -TERM $$; true was ended by signal 15")
        #expect(ForegroundProgram.run("no-such-program-here", on: "/dev/null")?.hasPrefix("no-such-program-here: ") == true)
    }

    @Test("a pager that fails is reported with its status, and $EDITOR is used when $VISUAL is empty")
    func runnerReportsAFailingPager() {
        let failed = AppRunner.runViewer(.pager, [0x41], fileExtension: "txt", environment: ["PAGER": "false"])
        guard case let .failure(error) = failed else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message == "false exited with status 1")
        let edited = AppRunner.runViewer(.editor, [0x41], fileExtension: "txt", environment: ["VISUAL": "", "EDITOR": "true"])
        #expect((try? edited.get()) == "true")
        var state = Fixtures.welcome()
        _ = state.update(.viewerFailed(error.message))
        #expect(state.status == StatusMessage("The body was not shown: false exited with status 1", .error))
    }

    // MARK: - Saving

    @Test("s saves the body to the file named, suggesting the URL's last name")
    func savesTheBody() throws {
        let folder = try TemporaryDirectory()
        var state = sent()
        _ = press([.key(.char("s"))], &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("no prompt")
            return
        }
        #expect(prompt.purpose == .saveBody)
        #expect(prompt.dialog.field?.text == "get.json")
        let path = folder.path + "/shop.json"
        _ = press([.key(.ctrl("u"))] + Fixtures.typing(path) + [.key(KeyEvent(.enter))], &state)
        #expect(state.modal == nil)
        let saved = try #require(FileManager.default.contents(atPath: path))
        #expect(try JSONParser.parse(bytes: Array(saved)) == JSONParser.parse(Self.shop))
        #expect(state.status?.kind == .success)
    }

    @Test("an existing file is overwritten only when confirmed")
    func asksBeforeOverwriting() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/out.txt"
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        var state = sent("new body", contentType: "text/plain")
        _ = press([.key(.char("s")), .key(.ctrl("u"))] + Fixtures.typing(path) + [.key(KeyEvent(.enter))], &state)
        guard case let .picker(picker)? = state.modal else {
            Issue.record("expected the overwrite question")
            return
        }
        #expect(picker.purpose == .confirmBodyOverwrite(path: path))
        #expect(picker.options[picker.list.selected] == "Cancel")
        _ = press([.key(KeyEvent(.enter))], &state)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        _ = press([.key(.char("s")), .key(.ctrl("u"))] + Fixtures.typing(path) + [.key(KeyEvent(.enter)), .key(KeyEvent(.up)), .key(KeyEvent(.enter))], &state)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new body")
    }

    @Test("a file that cannot be written keeps the prompt open with the reason under it")
    func writeErrorsAreShown() throws {
        let folder = try TemporaryDirectory()
        var state = sent()
        let path = folder.path + "/missing/out.json"
        _ = press([.key(.char("s")), .key(.ctrl("u"))] + Fixtures.typing(path) + [.key(KeyEvent(.enter))], &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        let error = try #require(prompt.error)
        #expect(error.contains(path))
        _ = press([.key(.ctrl("u"))] + Fixtures.typing(folder.path) + [.key(KeyEvent(.enter))], &state)
        guard case let .prompt(again)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        #expect(again.error == "\(folder.path) is a folder: name a file in it")
    }

    // MARK: - Filter

    @Test("f narrows the outline to what a filter path selects, each value under its path")
    func filterNarrowsTheOutline() throws {
        var state = sent()
        _ = press([.key(KeyEvent(.down)), .key(KeyEvent(.down))], &state)
        _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.items[?(@.price < 10)].name") + [.key(KeyEvent(.enter))], &state)
        #expect(state.modal == nil)
        let document = try #require(state.bodyDocument)
        #expect((0..<document.rowCount).map(document.text) == ["$.items[0].name", "  \"pen\"", "$.items[2].name", "  \"cup\""])
        #expect(state.status?.text.hasPrefix("$.items[?(@.price < 10)].name: 2 values") == true)
        #expect(state.bodyList.selected == 0)
    }

    @Test("a filter selecting containers shows them outlined; a wildcard and .. work as in assertions")
    func filterShowsContainers() throws {
        var state = sent()
        _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$..items[1]") + [.key(KeyEvent(.enter))], &state)
        let document = try #require(state.bodyDocument)
        #expect((0..<document.rowCount).map(document.text) == ["$.items[1]", "  {", "    \"name\": \"lamp\",", "    \"price\": 30", "  }"])
        // y offers to copy a row's path in the body, as on the whole outline (enter takes the first choice).
        let copied = press([.key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(.char("y")), .key(KeyEvent(.enter))], &state)
        guard case .copyToClipboard("$.items[1].name")? = copied.first else {
            Issue.record("copied \(copied)")
            return
        }
        _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.items[*].price") + [.key(KeyEvent(.enter))], &state)
        #expect(state.activeBodyFilter?.matchCount == 3)
    }

    @Test("a bad path shows the parser's error with its column, and the view is left as it was")
    func badFilterPath() {
        var state = sent()
        _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.items[?(@.price <)]") + [.key(KeyEvent(.enter))], &state)
        guard case let .prompt(prompt)? = state.modal else {
            Issue.record("the prompt closed")
            return
        }
        #expect(prompt.error == "bad body path: at column 20, expected\n@, a path, or a string, number, true, false or null")
        #expect(prompt.displayDialog.lines.map(\.plainText).suffix(2) == ["✗ bad body path: at column 20, expected", "  @, a path, or a string, number, true, false or null"])
        // A path wrong where no column is counted says what was expected all the same.
        _ = press([.key(.ctrl("u"))] + Fixtures.typing("$.items[") + [.key(KeyEvent(.enter))], &state)
        guard case let .prompt(other)? = state.modal else { return }
        #expect(other.error?.hasPrefix("bad body path:\nexpected ") == true)
        #expect(state.bodyFilter == nil)
    }

    @Test("clearing the filter gives back the whole outline with the row that was selected")
    func clearingRestores() throws {
        var state = sent()
        _ = press([.key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.down))], &state)
        let before = state.bodyList.selected
        _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.currency") + [.key(KeyEvent(.enter))], &state)
        #expect(state.bodyDocument?.rowCount == 2)
        _ = press([.key(.char("f")), .key(.ctrl("u")), .key(KeyEvent(.enter))], &state)
        #expect(state.bodyFilter == nil)
        #expect(state.bodyList.selected == before)
        #expect(state.bodyDocument?.rowCount == state.exchange?.prettyBody.rowCount)
    }

    @Test("a body large enough that its decoded tree was let go is filtered all the same")
    func filterAfterTheTreeIsReleased() throws {
        let items = (0..<20_000).map { #"{"id": \#($0), "label": "item number \#($0) of the list"}"# }
        var state = sent(#"{"items": ["# + items.joined(separator: ", ") + "]}")
        guard case .none? = state.exchange?.result?.serialization?.body else {
            Issue.record("the tree of a body over \(BodyFormatter.decodedTreeLimit) bytes is kept")
            return
        }
        _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.items[?(@.id == 19999)].label") + [.key(KeyEvent(.enter))], &state)
        let document = try #require(state.bodyDocument)
        #expect((0..<document.rowCount).map(document.text) == ["$.items[19999].label", "  \"item number 19999 of the list\""])
    }

    @Test("a new response ends the filter")
    func newResponseEndsTheFilter() {
        var state = sent()
        _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.currency") + [.key(KeyEvent(.enter))], &state)
        #expect(state.activeBodyFilter != nil)
        Fixtures.send(&state, body: Self.shop)
        #expect(state.activeBodyFilter == nil)
        #expect(state.bodyDocument?.rowCount == state.exchange?.prettyBody.rowCount)
    }

    // MARK: - Cookie jar and cache

    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// Two cookies as a cookie file gives them: one HttpOnly and secure that expires in an hour,
    /// one for a session.
    static var cookies: [Cookie] {
        let file = "#HttpOnly_api.example.com\tFALSE\t/\tTRUE\t\(Int(now.timeIntervalSince1970) + 3_600)\tsession\ts3cr3t-token\n.example.com\tTRUE\t/app\tFALSE\t0\ttheme\tdark\n"
        return (try? CookieFile.cookies(in: file, path: "jar.txt", now: now)) ?? []
    }

    @Test("alt+j asks the runner for the jar, which lists every cookie with its value hidden")
    func cookieJarLists() {
        var state = Fixtures.welcome()
        let effects = press([.key(.alt("j"))], &state)
        guard case .inspectStores(.listCookies)? = effects.first else {
            Issue.record("expected a listing, got \(effects)")
            return
        }
        _ = state.update(.storesListed(.cookies(Self.cookies, at: Self.now)))
        guard case let .picker(picker)? = state.modal else {
            Issue.record("no list")
            return
        }
        #expect(Self.cookies.count == 2)
        #expect(picker.options == [
            "session=•••• (12 chars)  api.example.com/  secure httpOnly  expires in 1h 0m, 2026-09-21T15:13:20Z",
            "theme=•••• (4 chars)  .example.com/app  session cookie",
        ])
        #expect(!picker.options.joined().contains("s3cr3t"))
    }

    @Test("a cookie's value shows once revealed, and deleting one or all goes to the runner")
    func cookieActions() {
        var state = Fixtures.welcome()
        _ = state.update(.storesListed(.cookies(Self.cookies, at: Self.now)))
        _ = press([.key(KeyEvent(.enter)), .key(KeyEvent(.enter))], &state)
        guard case let .picker(list)? = state.modal else {
            Issue.record("no list")
            return
        }
        #expect(list.options[0].hasPrefix("session=s3cr3t-token  "))
        #expect(list.list.selected == 0)
        var effects = press([.key(KeyEvent(.down)), .key(KeyEvent(.enter)), .key(KeyEvent(.down)), .key(KeyEvent(.enter))], &state)
        guard case .inspectStores(.deleteCookie(let deleted))? = effects.first else {
            Issue.record("expected a deletion, got \(effects)")
            return
        }
        #expect(deleted.name == "theme")
        _ = state.update(.storesListed(.cookies([Self.cookies[0]], at: Self.now)))
        effects = press([.key(KeyEvent(.enter)), .key(KeyEvent(.down)), .key(KeyEvent(.down)), .key(KeyEvent(.enter))], &state)
        guard case .inspectStores(.deleteAllCookies)? = effects.first else {
            Issue.record("expected every cookie deleted, got \(effects)")
            return
        }
        _ = state.update(.storesListed(.cookies([], at: Self.now)))
        guard case let .message(dialog)? = state.modal else {
            Issue.record("expected the empty jar's message")
            return
        }
        #expect(dialog.lines.first?.plainText.hasPrefix("The cookie jar is empty") == true)
    }

    @Test("the pool deletes a cookie from every manager's jar and lists what is left")
    func poolDeletesCookies() async throws {
        let pool = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        pool.insertCookies(Self.cookies)
        var insecure = SecuritySettings()
        insecure.insecure = true
        let secured = try pool.manager(for: insecure)
        guard case let .cookies(after, _) = pool.perform(.deleteCookie(Self.cookies[0]), now: Self.now) else {
            Issue.record("expected cookies")
            return
        }
        #expect(after.map(\.name) == ["theme"])
        #expect(!secured.cookieJar.all.contains { $0.name == "session" })
        guard case let .cookies(none, _) = pool.perform(.deleteAllCookies, now: Self.now) else { return }
        #expect(none.isEmpty)
        await pool.invalidateAll()
    }

    @Test("the cache view lists each response's URL, status, age and freshness, and validators; delete one or all")
    func cacheLists() async throws {
        let pool = ManagerPool(URLSessionManager(http: try HTTPSessionManager()))
        let manager = try pool.manager(for: SecuritySettings())
        let fresh = HTTPRequest(method: "GET", url: URLReference(parsing: "http://127.0.0.1:8080/cache/60"))
        let stale = HTTPRequest(method: "GET", url: URLReference(parsing: "http://127.0.0.1:8080/etag/abc"))
        manager.cache.store(HTTPResponse(url: fresh.url, statusCode: 200, headers: HTTPHeaders([("Cache-Control", "max-age=300")])), data: [1], for: fresh, now: Self.now)
        manager.cache.store(HTTPResponse(url: stale.url, statusCode: 200, headers: HTTPHeaders([("ETag", "\"abc\""), ("Last-Modified", "Tue, 15 Nov 1994 12:45:26 GMT"), ("Cache-Control", "no-cache")])), data: [2], for: stale, now: Self.now)
        guard case let .cache(entries, at) = pool.perform(.listCache, now: Self.now.addingTimeInterval(50)) else {
            Issue.record("expected the cache")
            return
        }
        var state = Fixtures.welcome()
        _ = state.update(.storesListed(.cache(entries, at: at)))
        guard case let .picker(picker)? = state.modal else {
            Issue.record("no list")
            return
        }
        #expect(picker.options == [
            "http://127.0.0.1:8080/cache/60  200  fresh, 4m 10s left  no validator  stored 50s ago, 2026-09-21T14:13:20Z",
            "http://127.0.0.1:8080/etag/abc  200  stale (age 50s)  ETag \"abc\"  Last-Modified Tue, 15 Nov 1994 12:45:26 GMT  stored 50s ago, 2026-09-21T14:13:20Z",
        ])
        let effects = press([.key(KeyEvent(.enter)), .key(KeyEvent(.enter))], &state)
        guard case .inspectStores(let command)? = effects.first else {
            Issue.record("expected a deletion")
            return
        }
        guard case let .cache(left, _) = pool.perform(command, now: Self.now) else { return }
        #expect(left.map(\.key) == ["http://127.0.0.1:8080/etag/abc"])
        guard case let .cache(none, _) = pool.perform(.clearCache, now: Self.now) else { return }
        #expect(none.isEmpty)
        await pool.invalidateAll()
    }

    // MARK: - Snapshots

    enum Scene: String, CaseIterable, CustomTestStringConvertible {
        case filteredOutline, badFilter, saveBodyPrompt, cookieJar, cacheList
        var testDescription: String { rawValue }
    }

    @Test("response-tool scenes match their golden files", arguments: Scene.allCases, [(80, 24), (120, 40)])
    func snapshots(_ scene: Scene, size: (Int, Int)) {
        var state = sent(width: size.0, height: size.1)
        switch scene {
        case .filteredOutline:
            _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.items[?(@.price < 10)]") + [.key(KeyEvent(.enter))], &state)
        case .badFilter:
            _ = press([.key(.char("f")), .key(.ctrl("u"))] + Fixtures.typing("$.items[?(@.price <)]") + [.key(KeyEvent(.enter))], &state)
        case .saveBodyPrompt:
            _ = press([.key(.char("s"))], &state)
        case .cookieJar:
            _ = state.update(.storesListed(.cookies(Self.cookies, at: Self.now)))
        case .cacheList:
            let url = URLReference(parsing: "http://127.0.0.1:8080/cache/60")
            let response = HTTPResponse(url: url, statusCode: 200, headers: HTTPHeaders([("Cache-Control", "max-age=300"), ("ETag", "\"v1\"")]))
            let cache = ResponseCache()
            cache.store(response, data: [1], for: HTTPRequest(method: "GET", url: url), now: Self.now)
            let entries = cache.entries.map { CacheEntrySummary(key: $0.key, entry: $0.entry, now: Self.now.addingTimeInterval(20)) }
            _ = state.update(.storesListed(.cache(entries, at: Self.now)))
        }
        let buffer = Renderer.render(&state)
        if let problem = Snapshot.verify(buffer, named: "\(scene.rawValue)-\(size.0)x\(size.1)") {
            Issue.record(Comment(rawValue: problem))
        }
    }
}
