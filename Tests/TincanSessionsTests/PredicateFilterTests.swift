import Testing
import TincanCore
@testable import TincanSessions

@Suite("Checks and filters")
struct PredicateFilterTests {
    private func failure(_ checks: [Predicate.Check], _ actual: ParameterValue?, filters: [ValueFilter] = []) -> String? {
        Predicate(checks, filters: filters).failure(for: actual)
    }

    @Test("starts-with and ends-with pass on text that has the part, and say what they found")
    func prefixes() {
        #expect(failure([.startsWith("app")], .string("application/json")) == nil)
        #expect(failure([.endsWith("json")], .string("application/json")) == nil)
        #expect(failure([.startsWith("text")], .string("application/json")) == "is \"application/json\", expected it to start with \"text\"")
        #expect(failure([.endsWith("xml")], .string("application/json")) == "is \"application/json\", expected it to end with \"xml\"")
        #expect(failure([.startsWith("1")], .integer(12)) == "is a number (12), expected text starting with \"1\"")
        #expect(failure([.startsWith("a")], nil) == "is missing")
    }

    @Test("is-empty tells empty text, arrays and objects from full ones")
    func emptiness() {
        #expect(failure([.isEmpty(true)], .string("")) == nil)
        #expect(failure([.isEmpty(true)], .array([])) == nil)
        #expect(failure([.isEmpty(true)], .dictionary([:])) == nil)
        #expect(failure([.isEmpty(false)], .array([.null])) == nil)
        #expect(failure([.isEmpty(true)], .array([.integer(1)])) == "is [1], expected it to be empty")
        #expect(failure([.isEmpty(false)], .string("")) == "is \"\", expected it not to be empty")
        #expect(failure([.isEmpty(true)], .integer(0)) == "is a number (0), which is neither text nor a collection, expected an empty one")
    }

    @Test("less-or-equal and greater-or-equal include their bound")
    func inclusiveBounds() {
        #expect(failure([.lessOrEqual(3)], .integer(3)) == nil)
        #expect(failure([.greaterOrEqual(3)], .double(3.0)) == nil)
        #expect(failure([.lessOrEqual(3)], .string("2.5")) == nil, "header text reads as a number")
        #expect(failure([.lessOrEqual(3)], .integer(4)) == "is 4, expected at most 3")
        #expect(failure([.greaterOrEqual(3)], .double(2.5)) == "is 2.5, expected at least 3")
        #expect(failure([.greaterOrEqual(3)], .string("x")) == "is \"x\", expected a number at least 3")
    }

    @Test("is-date accepts ISO 8601 dates and date-times with their fields in range")
    func dates() {
        for date in ["2026-11-26", "2024-02-29", "2026-11-26T08:45:00Z", "2026-11-26T08:45:00.123+01:00", "2026-11-26T08:45", "2026-11-26T23:59:60-05:30"] {
            #expect(failure([.isDate(true)], .string(date)) == nil, "\(date)")
        }
        for text in ["2026-13-01", "2025-02-29", "2026-11-31", "2026-11-26T24:00", "26-11-2026", "2026-11-26T08:45:00+1", "2026-11-26 08:45", "today", "2026-11-26T08:45Zx"] {
            #expect(failure([.isDate(true)], .string(text)) == "is \(Predicate.show(.string(text))), expected an ISO 8601 date or date-time", "\(text)")
            #expect(failure([.isDate(false)], .string(text)) == nil)
        }
        #expect(failure([.isDate(true)], .integer(20261126)) == "is 20261126, expected an ISO 8601 date or date-time")
        #expect(failure([.isDate(false)], .string("2026-11-26")) == "is \"2026-11-26\", expected anything but an ISO 8601 date")
    }

    @Test("not passes when the check it wraps fails, and names it when it holds")
    func negation() {
        #expect(failure([.not(Predicate([.contains("error")]))], .string("all fine")) == nil)
        #expect(failure([.not(Predicate([.contains("fine")]))], .string("all fine")) == "is \"all fine\", expected it not to satisfy {contains: fine}")
        #expect(failure([.not(Predicate([.equals(.integer(3))]))], .integer(3)) == "is 3, expected it not to satisfy 3")
        #expect(failure([.not(Predicate([.exists(true)]))], nil) == nil)
        #expect(failure([.not(Predicate([.not(Predicate([.equals(.integer(3))]))]))], .integer(3)) == nil, "not of not")
    }

    @Test("a multi-valued path's list: count counts it, exists asks whether it selected anything")
    func nodeLists() {
        let empty = ParameterValue.array([])
        #expect(Predicate([.exists(true)]).failure(for: empty, isNodeList: true) { $0 } == "matches nothing")
        #expect(Predicate([.exists(false)]).failure(for: empty, isNodeList: true) { $0 } == nil)
        #expect(Predicate([.count(0)]).failure(for: empty, isNodeList: true) { $0 } == nil)
        #expect(Predicate([.exists(false)]).failure(for: .array([.integer(1)]), isNodeList: true) { $0 } == "exists ([1])")
        #expect(Predicate([.exists(true)]).failure(for: empty) { $0 } == nil, "an empty array from a plain path exists")
    }

    @Test("filters apply in order before the checks")
    func filtersBeforeChecks() {
        let list = ParameterValue.array([.string("a,b,c"), .string("42")])
        #expect(failure([.equals(.integer(2))], list, filters: [.count]) == nil)
        #expect(failure([.count(3)], list, filters: [.first, .split(",")]) == nil)
        #expect(failure([.greaterThan(40)], list, filters: [.last, .toInt]) == nil)
        #expect(failure([.equals(.integer(43))], list, filters: [.nth(-1), .toInt]) == "is 42, expected 43")
        #expect(failure([.exists(true)], list, filters: [.nth(5)]) == "filter nth 5: [\"a,b,c\",\"42\"] has 2 elements, so no such element")
    }

    @Test("each filter turns its value, or says why it cannot")
    func eachFilter() {
        func apply(_ filter: ValueFilter, _ value: ParameterValue) -> String {
            switch ValueFilter.apply([filter], to: value) {
            case .success(let result): JSONWriter.string(result)
            case .failure(let failure): failure.description
            }
        }
        #expect(apply(.count, .dictionary(["a": 1, "b": 2])) == "2")
        #expect(apply(.count, .string("abc")) == "filter count: \"abc\" is a string, expected an array or an object")
        #expect(apply(.first, .array([])) == "filter first: [] has 0 elements, so no such element")
        #expect(apply(.last, .array([1, 2])) == "2")
        #expect(apply(.nth(1), .string("x")) == "filter nth 1: \"x\" is a string, expected an array")
        #expect(apply(.split(", "), .string("a, b")) == "[\"a\",\"b\"]")
        #expect(apply(.split(","), .integer(1)) == "filter split \",\": 1 is a number, expected text")
        #expect(apply(.toInt, .string(" 17 ")) == "17")
        #expect(apply(.toInt, .double(3.0)) == "3")
        #expect(apply(.toInt, .double(3.5)) == "filter to-int: 3.5 is a number, expected a whole number")
        #expect(apply(.toInt, .string("99999999999999999999")).hasPrefix("filter to-int: \"99999999999999999999\" is a string, expected text of a whole number"))
        #expect(apply(.toFloat, .string("2.5")) == "2.5")
        #expect(apply(.toFloat, .string("inf")) == "filter to-float: \"inf\" is a string, expected text of a finite number")
        #expect(apply(.toFloat, .bool(true)) == "filter to-float: true is a boolean, expected a number or text")
        #expect(apply(.regex("id=(\\d+)"), .string("x id=42 y")) == "\"42\"")
        #expect(apply(.regex("z+"), .string("xyzzy")) == "\"zz\"")
        #expect(apply(.regex("q"), .string("abc")) == "filter regex /q/: \"abc\" does not match")
        #expect(apply(.urlDecode, .string("a%20b%2Fc+d")) == "\"a b/c+d\"")
        #expect(apply(.urlDecode, .string("%zz")) == "filter url-decode: \"%zz\" is a string, expected text whose %XX escapes are UTF-8")
        #expect(apply(.base64Decode, .string("aGVsbG8=")) == "\"hello\"")
        #expect(apply(.base64Decode, .string("/w==")) == "filter base64-decode: \"/w==\" is a string, expected base64 of UTF-8 text")
        #expect(apply(.base64Decode, .string("***")) == "filter base64-decode: \"***\" is a string, expected base64 text")
    }

    @Test("body sizes and digests: the RFC test vectors")
    func digests() {
        let abc = Array("abc".utf8)
        #expect(TaskResult.bodyFact(.bodySHA256, of: abc) == .string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(TaskResult.bodyFact(.bodyMD5, of: abc) == .string("900150983cd24fb0d6963f7d28e17f72"))
        #expect(TaskResult.bodyFact(.bodyMD5, of: []) == .string("d41d8cd98f00b204e9800998ecf8427e"))
        #expect(TaskResult.bodyFact(.bodySize, of: abc) == .integer(3))
    }

    @Test("a cookie's attributes: NAME[Attribute], as Hurl names them")
    func cookieAttributes() {
        let field = "sid=abc; Path=/app; Max-Age=60; secure; SameSite=Lax; Expires=Wed, 21 Oct 2026 07:28:00 GMT"
        func attribute(_ text: String) -> ParameterValue?? {
            guard case .success(let (name, attribute)) = CookieAttribute.split(text) else { return nil }
            #expect(name == "sid")
            return .some(attribute.value(in: field))
        }
        #expect(attribute("sid") == .some(.string("abc")))
        #expect(attribute("sid[Value]") == .some(.string("abc")))
        #expect(attribute("sid[Path]") == .some(.string("/app")))
        #expect(attribute("sid[max-age]") == .some(.integer(60)), "attribute names are case-insensitive")
        #expect(attribute("sid[Secure]") == .some(.bool(true)))
        #expect(attribute("sid[HttpOnly]") == .some(.bool(false)))
        #expect(attribute("sid[SameSite]") == .some(.string("Lax")))
        #expect(attribute("sid[Expires]") == .some(.string("Wed, 21 Oct 2026 07:28:00 GMT")))
        #expect(attribute("sid[Domain]") == .some(nil))
        for bad in ["sid[Colour]", "[Path]", "sid[Path", "", "a]b"] {
            guard case .failure(let error) = CookieAttribute.split(bad) else {
                Issue.record("\(bad) was read")
                continue
            }
            #expect(error.description == "'\(bad)' is not a cookie: expected NAME or NAME[ATTRIBUTE], the attribute one of Value, Expires, Max-Age, Domain, Path, Secure, HttpOnly, SameSite")
        }
    }

    @Test("a Set-Cookie field's name and value")
    func cookiePairs() {
        #expect(CookieJar.nameAndValue(ofSetCookie: "sid=abc; Path=/; HttpOnly").map { "\($0.name)=\($0.value)" } == "sid=abc")
        #expect(CookieJar.nameAndValue(ofSetCookie: " a = b=c ").map { "\($0.name)=\($0.value)" } == "a=b=c")
        #expect(CookieJar.nameAndValue(ofSetCookie: "=x") == nil)
        #expect(CookieJar.nameAndValue(ofSetCookie: "novalue") == nil)
    }
}
