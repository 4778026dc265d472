import Foundation
import Synchronization
import Testing
@testable import TincanCore

/// A date that tests move forward by hand.
private final class FakeDate: Sendable {
    private let seconds = Mutex(1_800_000_000.0)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(_ interval: Double) { seconds.withLock { $0 += interval } }
    var source: @Sendable () -> Date { { self.now } }
}

private func request(_ url: String, _ headers: HTTPHeaders = HTTPHeaders(), method: String = "GET") -> HTTPRequest {
    var request = HTTPRequest(method: method, url: URLReference(parsing: url))
    request.headers = headers
    return request
}

private func response(_ status: Int, _ url: String, _ headers: HTTPHeaders) -> HTTPResponse {
    HTTPResponse(url: URLReference(parsing: url), statusCode: status, headers: headers)
}

/// Each part of the request pipeline on its own, with no transport and no clock but the test's.
@Suite("The parts of the request pipeline")
struct PipelinePartsTests {
    // MARK: Cookies

    @Test("the cookie handler adds the jar's cookies after the request's own, and stores a response's for the URL asked")
    func cookiesAreAddedAfterTheRequestsOwnAndStored() {
        let date = FakeDate()
        let cookies = CookieHandler(jar: CookieJar(), isEnabled: true, date: date.source)
        cookies.store(from: response(200, "http://a.test/x", ["Set-Cookie": "id=1; Max-Age=60"]), for: URLReference(parsing: "http://a.test/x"))
        var outgoing = request("http://a.test/y", ["Cookie": "mine=2"])
        cookies.attach(to: &outgoing)
        #expect(outgoing.headers["Cookie"] == "mine=2; id=1")

        var elsewhere = request("http://b.test/")
        cookies.attach(to: &elsewhere)
        #expect(elsewhere.headers["Cookie"] == nil)
    }

    @Test("the cookie handler measures expiry on the date it is given")
    func cookieExpiryFollowsTheGivenDate() {
        let date = FakeDate()
        let cookies = CookieHandler(jar: CookieJar(), isEnabled: true, date: date.source)
        cookies.store(from: response(200, "http://a.test/", ["Set-Cookie": "id=1; Max-Age=60"]), for: URLReference(parsing: "http://a.test/"))
        date.advance(61)
        var outgoing = request("http://a.test/")
        cookies.attach(to: &outgoing)
        #expect(outgoing.headers["Cookie"] == nil)
    }

    @Test("a request that does not handle cookies neither sends nor stores any")
    func cookiesOffDoesNothing() {
        let jar = CookieJar()
        let cookies = CookieHandler(jar: jar, isEnabled: false, date: FakeDate().source)
        cookies.store(from: response(200, "http://a.test/", ["Set-Cookie": "id=1"]), for: URLReference(parsing: "http://a.test/"))
        #expect(jar.cookies(for: URLReference(parsing: "http://a.test/")).isEmpty)
    }

    // MARK: The cache

    private static func cached(_ cache: ResponseCache, _ headers: HTTPHeaders, date: FakeDate) {
        let stored = cache.store(response(200, "http://a.test/r", headers), data: Array("body".utf8), for: request("http://a.test/r"), now: date.now)
        #expect(stored)
    }

    @Test("a fresh entry answers the request; once stale, the request revalidates it with its validators")
    func freshAnswersStaleRevalidates() throws {
        let date = FakeDate()
        let store = ResponseCache()
        Self.cached(store, ["Cache-Control": "max-age=10", "ETag": "\"v1\""], date: date)
        let cache = CacheHandler(cache: store, policy: .useProtocolCachePolicy, isEnabled: true, date: date.source)

        date.advance(4)
        var first = request("http://a.test/r")
        guard case .answer(let entry, let age) = cache.lookup(&first, original: first) else {
            Issue.record("a fresh entry did not answer")
            return
        }
        #expect(entry.data == Array("body".utf8))
        #expect(age == 4)
        #expect(first.headers["If-None-Match"] == nil)

        date.advance(10)
        var second = request("http://a.test/r")
        guard case .revalidate = cache.lookup(&second, original: second) else {
            Issue.record("a stale entry was not revalidated")
            return
        }
        #expect(second.headers["If-None-Match"] == "\"v1\"")
    }

    @Test("a request with its own conditional header, or a download, goes to the server as it is")
    func ownConditionalsAndDownloadsSkipTheCache() {
        let date = FakeDate()
        let store = ResponseCache()
        Self.cached(store, ["Cache-Control": "max-age=10", "ETag": "\"v1\""], date: date)
        let cache = CacheHandler(cache: store, policy: .useProtocolCachePolicy, isEnabled: true, date: date.source)
        var conditional = request("http://a.test/r", ["If-None-Match": "\"mine\""])
        guard case .load = cache.lookup(&conditional, original: conditional) else {
            Issue.record("the cache answered a request with its own If-None-Match")
            return
        }
        #expect(conditional.headers["If-None-Match"] == "\"mine\"")

        let download = CacheHandler(cache: store, policy: .useProtocolCachePolicy, isEnabled: false, date: date.source)
        var plain = request("http://a.test/r")
        guard case .load = download.lookup(&plain, original: plain) else {
            Issue.record("the cache answered a download")
            return
        }
        #expect(!download.store(response(200, "http://a.test/r", ["Cache-Control": "max-age=10"]), data: [], for: plain))
    }

    @Test("return-cache-data-dont-load with nothing cached is an error, and with an entry answers however old it is")
    func dontLoadNeverGoesToTheServer() {
        let date = FakeDate()
        let store = ResponseCache()
        let cache = CacheHandler(cache: store, policy: .returnCacheDataDontLoad, isEnabled: true, date: date.source)
        var missing = request("http://a.test/r")
        guard case .notCached = cache.lookup(&missing, original: missing) else {
            Issue.record("an empty cache did not refuse")
            return
        }
        Self.cached(store, ["Cache-Control": "max-age=1"], date: date)
        date.advance(3_600)
        var old = request("http://a.test/r")
        guard case .answer(_, let age) = cache.lookup(&old, original: old) else {
            Issue.record("a stale entry did not answer under return-cache-data-dont-load")
            return
        }
        #expect(age == 3_600)
    }

    @Test("a 304 refreshes the entry's headers and age on the handler's date")
    func notModifiedRefreshes() throws {
        let date = FakeDate()
        let store = ResponseCache()
        Self.cached(store, ["Cache-Control": "max-age=10", "ETag": "\"v1\"", "X-Version": "1"], date: date)
        let cache = CacheHandler(cache: store, policy: .useProtocolCachePolicy, isEnabled: true, date: date.source)
        date.advance(20)
        let entry = try #require(store.entry(for: request("http://a.test/r")))
        let refreshed = cache.refresh(entry, with: response(304, "http://a.test/r", ["X-Version": "2", "Cache-Control": "max-age=10"]), for: request("http://a.test/r"))
        #expect(refreshed.response.headers["X-Version"] == "2")
        #expect(refreshed.data == Array("body".utf8))
        var again = request("http://a.test/r")
        guard case .answer(_, let age) = cache.lookup(&again, original: again) else {
            Issue.record("the refreshed entry was not fresh")
            return
        }
        #expect(age == 0)
    }

    // MARK: Redirects

    @Test("303 turns any method but HEAD into a GET without a body; 307 keeps method and body")
    func redirectMethods() throws {
        let redirects = RedirectHandler(limit: 5)
        var post = request("http://a.test/form", ["Content-Type": "text/plain", "Content-Length": "2"], method: "POST")
        post.body = .bytes(Array("hi".utf8))
        let seeOther = try #require(redirects.next(from: post, response: response(303, "http://a.test/form", ["Location": "/done"]), after: 0))
        #expect(seeOther.request.method == "GET")
        #expect(seeOther.request.url.string == "http://a.test/done")
        #expect(seeOther.request.headers["Content-Type"] == nil)
        if case .none = seeOther.request.body {} else { Issue.record("the 303's GET kept a body") }

        let temporary = try #require(redirects.next(from: post, response: response(307, "http://a.test/form", ["Location": "/again"]), after: 0))
        #expect(temporary.request.method == "POST")
        #expect(temporary.request.headers["Content-Type"] == "text/plain")
    }

    @Test("a redirect to another origin drops Authorization and Cookie; one to the same origin keeps them")
    func credentialsStayWithTheirOrigin() throws {
        let redirects = RedirectHandler(limit: 5)
        let asked = request("http://a.test/", ["Authorization": "Bearer t", "Cookie": "id=1"])
        let away = try #require(redirects.next(from: asked, response: response(302, "http://a.test/", ["Location": "http://a.test:8080/"]), after: 0))
        #expect(away.request.headers["Authorization"] == nil)
        #expect(away.request.headers["Cookie"] == nil)
        let home = try #require(redirects.next(from: asked, response: response(302, "http://a.test/", ["Location": "/b"]), after: 0))
        #expect(home.request.headers["Authorization"] == "Bearer t")
    }

    @Test("the limit, a missing Location and a non-HTTP target each leave the response as the answer")
    func redirectsThatAreNotFollowed() {
        let redirects = RedirectHandler(limit: 2)
        let asked = request("http://a.test/")
        #expect(redirects.follows(response(302, "http://a.test/", ["Location": "/b"]), after: 1))
        #expect(!redirects.follows(response(302, "http://a.test/", ["Location": "/b"]), after: 2))
        #expect(!redirects.follows(response(302, "http://a.test/", ["Location": ""]), after: 0))
        #expect(!redirects.follows(response(200, "http://a.test/", ["Location": "/b"]), after: 0))
        #expect(redirects.next(from: asked, response: response(302, "http://a.test/", ["Location": "file:///etc/passwd"]), after: 0) == nil)
    }

    // MARK: Downloads

    @Test("a resumed download asks for the bytes after its partial file, with its validator in If-Range")
    func resumeAsksForTheRest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tincan-resume-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = DownloadFile(path: folder + "/out.bin")
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: file.partialPath))
        try Data("\"etag-1\"\n".utf8).write(to: URL(fileURLWithPath: file.validatorPath))

        let resume = DownloadResume(file, resuming: true)
        var outgoing = request("http://a.test/big")
        resume.adapt(&outgoing)
        #expect(outgoing.headers["Range"] == "bytes=100-")
        #expect(outgoing.headers["If-Range"] == "\"etag-1\"")

        var fresh = request("http://a.test/big")
        DownloadResume(file, resuming: false).adapt(&fresh)
        #expect(fresh.headers["Range"] == nil)
    }

    @Test("a download shorter than its Content-Length keeps the partial file; a whole one replaces the destination")
    func shortDownloadsAreKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tincan-complete-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = DownloadFile(path: folder + "/out.bin")
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: file.partialPath))
        let resume = DownloadResume(file, resuming: false)
        let head = response(200, "http://a.test/big", ["Content-Length": "20"])

        #expect(throws: TransportError.self) { try resume.complete(head, written: 10, decoded: false) }
        #expect(FileManager.default.fileExists(atPath: file.partialPath))
        #expect(!FileManager.default.fileExists(atPath: file.path))

        try resume.complete(head, written: 10, decoded: true)
        #expect(FileManager.default.contents(atPath: file.path)?.count == 10)
        #expect(!FileManager.default.fileExists(atPath: file.partialPath))
    }

    // MARK: The idle timeout

    @Test("the idle timeout fires once no byte has moved for the whole timeout, and waits for the rest otherwise")
    func idleTimeoutCountsFromTheLastByte() {
        #expect(IdleTimeout.nextCheck(now: .seconds(1), lastActivity: .zero, timeout: .seconds(1), paused: false, resumedAt: nil) == nil)
        #expect(IdleTimeout.nextCheck(now: .seconds(1), lastActivity: .milliseconds(400), timeout: .seconds(1), paused: false, resumedAt: nil) == .milliseconds(1_400))
    }

    @Test("a slow-motion stop is not idleness, and the idle clock starts again when the stop is let through")
    func aStopHoldsTheIdleClock() {
        // Held for a long time: look again a timeout later.
        #expect(IdleTimeout.nextCheck(now: .seconds(30), lastActivity: .zero, timeout: .seconds(1), paused: true, resumedAt: nil) == .seconds(31))
        // Let through half a second ago, after 30 s at the stop: half a second is left.
        #expect(IdleTimeout.nextCheck(now: .milliseconds(30_500), lastActivity: .zero, timeout: .seconds(1), paused: false, resumedAt: .seconds(30)) == .seconds(31))
        // And a whole timeout after the step, with nothing moving, it fires.
        #expect(IdleTimeout.nextCheck(now: .seconds(31), lastActivity: .zero, timeout: .seconds(1), paused: false, resumedAt: .seconds(30)) == nil)
    }
}

