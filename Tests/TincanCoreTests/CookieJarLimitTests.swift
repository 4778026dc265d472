import Foundation
import Testing
@testable import TincanCore

/// RFC 6265 §5.3 step 5 (no cookie for a public suffix), through the system's list, and the
/// jar's limits (browsers' and curl's), which keep what is stored and sent bounded.
@Suite("The cookie jar refuses public suffixes and stays within its limits")
struct CookieJarLimitTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the system's public suffix list (Debian's publicsuffix package) is there and read")
    func systemListIsThere() {
        let list = PublicSuffixList.system
        #expect(list.isAvailable, "\(list.problem ?? "")")
        #expect(list.isPublicSuffix("com") && list.isPublicSuffix("co.uk") && list.isPublicSuffix("github.io"))
        #expect(!list.isPublicSuffix("example.com") && !list.isPublicSuffix("example.co.uk"))
        #expect(list.registrableDomain("www.shop.example.co.uk") == "example.co.uk")
        #expect(list.registrableDomain("co.uk") == nil)
        #expect(list.registrableDomain("127.0.0.1") == nil)
    }

    @Test("a cookie for a public suffix is refused, for ICANN's suffixes and for private ones", arguments: [
        ("https://shop.example.com/", "wide=1; Domain=com"),
        ("https://a.example.co.uk/", "wide=1; Domain=.co.uk"),
        ("https://someone.github.io/", "wide=1; Domain=github.io"),
        ("https://deep.a.b.example.com/", "wide=1; Domain=COM"),
    ])
    func publicSuffixDomainsAreRefused(url: String, setCookie: String) {
        let jar = CookieJar()
        #expect(jar.store(setCookie: [setCookie], for: URLReference(parsing: url), now: now).isEmpty)
        #expect(jar.all.isEmpty)
        #expect(jar.headerValue(for: URLReference(parsing: "https://victim.com/"), now: now) == nil)
    }

    @Test("a registrable domain is accepted and reaches its subdomains only; a public suffix that is the host itself gets a host-only cookie")
    func registrableDomainsAreKept() {
        let jar = CookieJar()
        jar.store(setCookie: ["site=1; Domain=example.co.uk"], for: URLReference(parsing: "https://www.example.co.uk/"), now: now)
        #expect(jar.headerValue(for: URLReference(parsing: "https://api.example.co.uk/"), now: now) == "site=1")
        #expect(jar.headerValue(for: URLReference(parsing: "https://other.co.uk/"), now: now) == nil)
        jar.store(setCookie: ["own=1; Domain=github.io"], for: URLReference(parsing: "https://github.io/"), now: now)
        let own = jar.all.first { $0.name == "own" }
        #expect(own?.hostOnly == true && own?.domain == "github.io")
        #expect(jar.headerValue(for: URLReference(parsing: "https://someone.github.io/"), now: now) == nil)
    }

    @Test("the list's wildcards and exceptions decide, the longest rule first")
    func wildcardsAndExceptions() {
        let list = PublicSuffixList(rules: "// comment\ncom\n*.ck\n!www.ck\njp\n*.kawasaki.jp\n!city.kawasaki.jp\n")
        #expect(list.isPublicSuffix("anything.ck") && !list.isPublicSuffix("www.ck"))
        #expect(list.registrableDomain("a.b.anything.ck") == "b.anything.ck")
        #expect(list.registrableDomain("www.ck") == "www.ck")
        #expect(list.registrableDomain("www.city.kawasaki.jp") == "city.kawasaki.jp")
        #expect(list.isPublicSuffix("example") && list.registrableDomain("host.example") == "host.example")
    }

    @Test("a list that is a device or a folder is refused with the reason, not read without end")
    func listFileIsBounded() {
        let device = PublicSuffixList(path: "/dev/zero")
        #expect(!device.isAvailable)
        #expect(device.problem?.hasPrefix("/dev/zero holds more than") == true)
        let folder = PublicSuffixList(path: "/tmp")
        #expect(!folder.isAvailable)
        #expect(folder.problem == "/tmp is a folder, not a file")
    }

    @Test("without the list, a Domain attribute never widens a cookie: it is kept for the host that set it, and the jar says so")
    func missingListKeepsCookiesHostOnly() {
        let missing = PublicSuffixList(path: "/nonexistent/public_suffix_list.dat")
        #expect(!missing.isAvailable)
        #expect(missing.problem == "/nonexistent/public_suffix_list.dat is missing")
        let jar = CookieJar(publicSuffixes: { missing })
        jar.store(setCookie: ["wide=1; Domain=example.com", "com=1; Domain=com", "plain=1"], for: URLReference(parsing: "https://www.example.com/"), now: now)
        #expect(jar.narrowedForMissingList == 2)
        #expect(jar.all.allSatisfy { $0.hostOnly && $0.domain == "www.example.com" })
        #expect(jar.headerValue(for: URLReference(parsing: "https://www.example.com/"), now: now) == "wide=1; com=1; plain=1")
        #expect(jar.headerValue(for: URLReference(parsing: "https://api.example.com/"), now: now) == nil)
        #expect(jar.headerValue(for: URLReference(parsing: "https://victim.com/"), now: now) == nil)
    }

    @Test("one response of 1,000 cookies leaves at most 180 for the site, and the Cookie header holds at most 150 cookies in 8,190 bytes")
    func perSiteAndHeaderLimits() {
        let jar = CookieJar()
        let url = URLReference(parsing: "https://shop.example.com/")
        let values = (0..<1000).map { "cookie\($0)=\(String(repeating: "v", count: 40))" }
        jar.store(setCookie: values, for: url, now: now)
        #expect(jar.all.count <= 180)
        // The oldest went first: the newest is kept.
        #expect(jar.all.contains { $0.name == "cookie999" })
        #expect(!jar.all.contains { $0.name == "cookie0" })
        let header = jar.headerValue(for: url, now: now) ?? ""
        #expect(header.utf8.count <= 8190)
        #expect(header.split(separator: ";").count <= 150)
        #expect(header.hasPrefix("cookie"))
    }

    @Test("40 redirect hops of 1,000 Set-Cookie each keep the jar and the header bounded")
    func manyHopsStayBounded() {
        let jar = CookieJar()
        for hop in 0..<40 {
            let url = URLReference(parsing: "https://hop\(hop).example.com/")
            jar.store(setCookie: (0..<1000).map { "c\(hop)_\($0)=1; Domain=example.com" }, for: url, now: now)
        }
        #expect(jar.all.count <= 180)
        let header = jar.headerValue(for: URLReference(parsing: "https://hop39.example.com/"), now: now) ?? ""
        #expect(header.utf8.count <= 8190)
    }

    @Test("cookies over many sites stay under the total, the oldest going first")
    func totalLimit() {
        let jar = CookieJar()
        for site in 0..<25 {
            let url = URLReference(parsing: "https://site\(site).example/")
            jar.store(setCookie: (0..<170).map { "c\($0)=1" }, for: url, now: now.addingTimeInterval(Double(site)))
        }
        #expect(jar.all.count <= 3300)
        #expect(jar.all.count >= 3000)
        #expect(jar.headerValue(for: URLReference(parsing: "https://site24.example/"), now: now)?.isEmpty == false)
        #expect(jar.headerValue(for: URLReference(parsing: "https://site0.example/"), now: now) == nil)
    }

    @Test("a cookie whose name and value pass 4,096 bytes is ignored")
    func oversizedCookieIsIgnored() {
        let jar = CookieJar()
        let url = URLReference(parsing: "https://example.com/")
        jar.store(setCookie: ["big=" + String(repeating: "x", count: 4094), "fits=" + String(repeating: "x", count: 4091)], for: url, now: now)
        #expect(jar.all.map(\.name) == ["fits"])
    }
}
