import Foundation
import Testing
@testable import TincanCore

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func readsAllThreeFormsOfTheSameMoment(text: String) throws {
        let date = try #require(HTTPDate.parse(text))
        #expect(date.timeIntervalSince1970 == 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test(arguments: ["", "yesterday", "Sun, 31 Feb 2026 08:00:00 GMT", "06 Nov 1994 25:00:00"])
    func rejectsWhatIsNotADate(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}

@Suite("The cookie jar")
struct CookieJarTests {
    let url = URLReference(parsing: "http://shop.example.com/cart/items")
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theDefaultPathIsTheRequestsDirectory() throws {
        let cookie = try #require(CookieJar.parse("a=1", for: url, now: now))
        #expect(cookie.path == "/cart")
        #expect(cookie.hostOnly)
        #expect(cookie.domain == "shop.example.com")
        #expect(cookie.isSessionOnly)
    }

    @Test func maxAgeWinsOverExpiresAndZeroDeletes() throws {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=60"], for: url, now: now)
        #expect(jar.cookies(for: url, now: now).map(\.pair) == ["a=1"])
        #expect(jar.cookies(for: url, now: now.addingTimeInterval(61)).isEmpty)
        jar.store(setCookie: ["b=2"], for: url, now: now)
        jar.store(setCookie: ["b=; Max-Age=0"], for: url, now: now)
        #expect(jar.all.map(\.name) == [])
    }

    @Test func aDomainCookieReachesSubdomainsButAForeignDomainIsRefused() {
        let jar = CookieJar()
        jar.store(setCookie: ["wide=1; Domain=.example.com; Path=/", "foreign=1; Domain=other.com"], for: url, now: now)
        #expect(jar.all.map(\.name) == ["wide"])
        #expect(jar.headerValue(for: URLReference(parsing: "http://api.example.com/"), now: now) == "wide=1")
        #expect(jar.headerValue(for: URLReference(parsing: "http://notexample.com/"), now: now) == nil)
    }

    @Test func secureCookiesGoOnlyOverHTTPSAndLongerPathsComeFirst() {
        let jar = CookieJar()
        jar.store(setCookie: ["short=1; Path=/", "long=2; Path=/cart", "safe=3; Path=/; Secure"], for: url, now: now)
        #expect(jar.headerValue(for: url, now: now) == "long=2; short=1")
        #expect(jar.headerValue(for: URLReference(parsing: "https://shop.example.com/cart/x"), now: now) == "long=2; short=1; safe=3")
        #expect(jar.headerValue(for: URLReference(parsing: "http://shop.example.com/cartoon"), now: now) == "short=1")
    }

    @Test func aCookieForAnIPAddressIsHostOnly() {
        #expect(CookieJar.domainMatches("127.0.0.1", "127.0.0.1"))
        #expect(!CookieJar.domainMatches("10.0.0.1", "0.0.1"))
    }
}

@Suite("Authentication")
struct AuthenticationUnitTests {
    @Test func parsesSeveralChallengesInOneField() {
        let challenges = AuthenticationChallenge.parse(#"Digest realm="a, b", qop="auth,auth-int", nonce="xyz", Basic realm="simple", Bearer"#)
        #expect(challenges.map(\.scheme) == ["Digest", "Basic", "Bearer"])
        #expect(challenges[0].parameters == ["realm": "a, b", "qop": "auth,auth-int", "nonce": "xyz"])
        #expect(challenges[1].realm == "simple")
        #expect(Authenticator.preferred(challenges)?.scheme == "Digest")
    }

    /// RFC 7616 §3.9.1.
    @Test(arguments: [("MD5", "8ca523f5e9506fed4657c9700eebdbec"), ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")])
    func digestMatchesTheRFCExample(algorithm: String, expected: String) throws {
        let challenge = AuthenticationChallenge.parse(#"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=\#(algorithm), nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#)[0]
        var request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://www.example.org/dir/index.html"))
        request.body = .none
        let header = try #require(Authenticator.authorization(
            for: challenge, credential: Credential(user: "Mufasa", password: "Circle of Life"), request: request,
            count: 1, clientNonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"))
        let answer = AuthenticationChallenge.parse(header)[0]
        #expect(answer.parameters["response"] == expected)
        #expect(answer.parameters["uri"] == "/dir/index.html")
        #expect(answer.parameters["nc"] == "00000001")
        #expect(answer.parameters["qop"] == "auth")
        #expect(answer.parameters["opaque"] == "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS")
    }

    @Test func sha512_256MatchesTheFIPSExample() {
        #expect(DigestAlgorithm("SHA-512-256")?.hash("abc") == "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")
        #expect(DigestAlgorithm("SHA-512-256")?.hash(String(repeating: "a", count: 200)).count == 64)
    }

    @Test func unknownAlgorithmsAreNotAnswered() {
        #expect(DigestAlgorithm("SHA-1") == nil)
        #expect(Authenticator.preferred(AuthenticationChallenge.parse(#"Digest nonce="n", algorithm=SHA-1"#)) == nil)
    }
}

@Suite("Cache freshness")
struct CacheFreshnessTests {
    let stored = Date(timeIntervalSince1970: 1_800_000_000)

    private func entry(_ headers: HTTPHeaders) -> ResponseCache.Entry {
        let cache = ResponseCache()
        let request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://h/x"))
        cache.store(HTTPResponse(url: request.url, statusCode: 200, headers: headers), data: [1], for: request, now: stored)
        return cache.entry(for: request)!
    }

    @Test func maxAgeDecidesFreshnessAndAgeCountsTheAgeHeader() {
        let fresh = entry(["Cache-Control": "max-age=60", "Age": "50"])
        #expect(fresh.isFresh(now: stored.addingTimeInterval(5)))
        #expect(!fresh.isFresh(now: stored.addingTimeInterval(11)))
    }

    @Test func lastModifiedGivesATenthOfItsAgeAsHeuristicFreshness() {
        let modified = stored.addingTimeInterval(-1000)
        let heuristic = entry(["Last-Modified": HTTPDate.format(modified), "Date": HTTPDate.format(stored)])
        #expect(heuristic.freshnessLifetime == 100)
        #expect(heuristic.validators.map(\.0) == ["If-Modified-Since"])
    }

    @Test func noStoreAndVaryStarAreNeverStored() {
        let cache = ResponseCache()
        let request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://h/x"))
        #expect(!cache.store(HTTPResponse(url: request.url, statusCode: 200, headers: ["Cache-Control": "no-store, max-age=9"]), data: [], for: request))
        #expect(!cache.store(HTTPResponse(url: request.url, statusCode: 200, headers: ["ETag": "\"e\"", "Vary": "*"]), data: [], for: request))
        #expect(!cache.store(HTTPResponse(url: request.url, statusCode: 206, headers: ["ETag": "\"e\""]), data: [], for: request))
    }

    @Test func varyingRequestHeadersMustMatch() {
        let cache = ResponseCache()
        var request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://h/x"))
        request.headers.set(name: "Accept-Language", value: "nb")
        cache.store(HTTPResponse(url: request.url, statusCode: 200, headers: ["ETag": "\"e\"", "Vary": "Accept-Language"]), data: [1], for: request)
        #expect(cache.entry(for: request) != nil)
        request.headers.set(name: "Accept-Language", value: "en")
        #expect(cache.entry(for: request) == nil)
    }
}
