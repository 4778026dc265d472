import Testing
@testable import TincanCore

@Suite("URL references resolve by RFC 3986")
struct URLResolutionTests {
    static let rfcBase = URLReference(parsing: "http://a/b/c/d;p?q")

    /// RFC 3986 section 5.4.1 (normal) and 5.4.2 (abnormal) examples.
    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
        ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ])
    func resolvesTheRFCExamples(reference: String, expected: String) {
        #expect(URLReference(parsing: reference).resolved(against: Self.rfcBase).string == expected)
    }

    @Test(arguments: [
        ("http://example.com/v1", "foo", "http://example.com/v1/foo"),
        ("http://example.com/v1", "/foo", "http://example.com/foo"),
        ("http://example.com/v1", "foo/", "http://example.com/v1/foo/"),
        ("http://example.com/v1/", "../foo", "http://example.com/foo"),
        ("http://example.com/v1", "//other.org/x", "http://other.org/x"),
        ("http://example.com/v1", "?a=b", "http://example.com/v1/?a=b"),
        ("http://example.com/v1", "https://secure.org/y", "https://secure.org/y"),
        ("http://example.com/v1", "", "http://example.com/v1/"),
        ("http://example.com", "foo", "http://example.com/foo"),
        ("http://example.com", "", "http://example.com"),
        ("http://example.com/v1?key=1", "", "http://example.com/v1/?key=1"),
        ("http://127.0.0.1:8080/api/v2", "users/7", "http://127.0.0.1:8080/api/v2/users/7"),
    ])
    func theSessionManagerResolvesAgainstItsBaseURL(base: String, reference: String, expected: String) throws {
        let manager = try HTTPSessionManager(baseURL: base)
        #expect(try manager.resolve(reference).string == expected)
    }

    @Test(arguments: [("http://example.com/v1", "http://example.com/v1/"), ("http://example.com/v1/", "http://example.com/v1/"), ("http://example.com", "http://example.com"), ("http://example.com/", "http://example.com/")])
    func addsATrailingSlashToANonEmptyBasePath(base: String, expected: String) throws {
        #expect(try HTTPSessionManager(baseURL: base).baseURL?.string == expected)
    }

    @Test("a base URL read before is read the same, a refused one is refused each time, and many bases never fill the memory")
    func baseURLsReadAgain() throws {
        for _ in 0..<3 {
            #expect(try HTTPSessionManager(baseURL: "http://example.com/v1").resolve("x").string == "http://example.com/v1/x")
            #expect(throws: RequestSerializationError.self) { try HTTPSessionManager(baseURL: "ftp://example.com/v1") }
            #expect(throws: RequestSerializationError.self) { try HTTPSessionManager(baseURL: "http://exa mple.com:99999/") }
        }
        // More bases than are kept: each is still read right, before and after the others.
        for round in 0..<2 {
            for index in 0..<200 {
                #expect(try HTTPSessionManager(baseURL: "http://h\(index).example/\(round)").baseURL?.string == "http://h\(index).example/\(round)/")
            }
        }
    }

    @Test(arguments: [("ftp://x/y", "not http or https"), ("http://", "no host"), ("http://x:99999/", "port"), ("relative/path", "no scheme")])
    func refusesURLsThatCannotBeSent(url: String, reason: String) throws {
        let error = try #require(throws: RequestSerializationError.self) { try HTTPSessionManager().resolve(url) }
        #expect(error.description.contains(reason))
    }

    @Test func escapesCharactersAPersonTypesThatCannotStandInAURI() {
        #expect(URLReference.escapingInvalidCharacters("http://x/a b/é?q=1 2#f") == "http://x/a%20b/%C3%A9?q=1%202#f")
        #expect(URLReference.escapingInvalidCharacters("http://x/100%/%41") == "http://x/100%25/%41")
    }

    @Test func splitsTheAuthority() {
        let url = URLReference(parsing: "https://user:pw@[::1]:8443/p?q")
        #expect(url.host == "::1")
        #expect(url.port == 8443)
        #expect(url.userInfo == "user:pw")
        #expect(url.requestTarget == "/p?q")
        #expect(url.hostHeaderValue == "[::1]:8443")
        #expect(URLReference(parsing: "http://h:80").hostHeaderValue == "h")
        #expect(URLReference(parsing: "http://h").requestTarget == "/")
        // The last @ ends the user information; a default port is left out of Host, bracketed or not.
        let odd = URLReference(parsing: "http://a@b:c@[fe80::1]:80/")
        #expect(odd.userInfo == "a@b:c")
        #expect(odd.host == "fe80::1")
        #expect(odd.port == 80)
        #expect(odd.hostHeaderValue == "[fe80::1]")
        let plain = URLReference(parsing: "https://bücher.example:443")
        #expect(plain.host == "bücher.example")
        #expect(plain.hostHeaderValue == "bücher.example")
        #expect(URLReference(parsing: "http://h:8080").hostHeaderValue == "h:8080")
        #expect(URLReference(parsing: "http://h:").port == nil)
        #expect(URLReference(parsing: "http://[::1]").port == nil)
    }
}
