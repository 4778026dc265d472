import Testing
import TincanCore
@testable import TincanSessions

@Suite("Session files: the keys of captures and assertions beyond the body")
struct CheckKeysFormatTests {
    static let text = """
        requests:
          - method: POST
            url: /anything
            capture:
              title: {xpath: string(//title)}
              ids: {json: "$.items[*].id", filters: [count]}
              last: {json: "$..name", filters: [last, {regex: "(\\\\w+)"}, url-decode]}
              session: {cookie: sid}
              landed: {url: true}
              hops: {redirects: true}
              next: {location: true}
              took: {duration: true}
              size: {body-size: true}
              sha: {body-sha256: true}
              md5: {body-md5: true}
              code: {status: true, filters: [to-float]}
              parts: {header: X-List, filters: [{split: ","}, {nth: -2}, to-int, base64-decode, first]}
            assert:
              status: 200
              body:
                $.items[?(@.price < 10)].id: {count: 2}
              xpath:
                count(//item): 3
                string(//title): {starts-with: Hello}
              cookies:
                sid: {exists: true}
                theme: dark
                sid[HttpOnly]: true
              url: {ends-with: /get}
              redirects: 2
              location: {not: {exists: true}}
              duration: {less-or-equal: 500}
              body-size: {greater-or-equal: 10}
              body-sha256: {matches: "^[0-9a-f]{64}$"}
              body-md5: {is-empty: false}
              max-duration: 2s
              request:
                method: POST
                url: {filters: [{split: "?"}, first], ends-with: /anything}
                query:
                  q: tea
                headers:
                  Content-Type: {contains: json}
                body:
                  $.name: {is-date: false}

        """

    @Test("every new key reads into its own value")
    func reading() throws {
        let request = try Session.parse(Self.text, path: "s.yaml").requests[0]
        #expect(request.captures["title"] == .xpath("string(//title)"))
        #expect(request.captures["ids"] == .filtered(.body(try BodyPath(parsing: "$.items[*].id")), [.count]))
        #expect(request.captures["last"] == .filtered(.body(try BodyPath(parsing: "$..name")), [.last, .regex("(\\w+)"), .urlDecode]))
        #expect(request.captures["session"] == .response(.cookie("sid")))
        #expect(request.captures["landed"] == .response(.url))
        #expect(request.captures["hops"] == .response(.redirects))
        #expect(request.captures["next"] == .response(.location))
        #expect(request.captures["took"] == .response(.duration))
        #expect(request.captures["size"] == .response(.bodySize))
        #expect(request.captures["sha"] == .response(.bodySHA256))
        #expect(request.captures["md5"] == .response(.bodyMD5))
        #expect(request.captures["code"] == .filtered(.status, [.toFloat]))
        #expect(request.captures["parts"] == .filtered(.header("X-List"), [.split(","), .nth(-2), .toInt, .base64Decode, .first]))
        #expect(request.assertions.contains(.xpath("count(//item)", Predicate([.equals(.integer(3))]))))
        #expect(request.assertions.contains(.response(.cookie("theme"), Predicate([.equals(.string("dark"))]))))
        #expect(request.assertions.contains(.response(.location, Predicate([.not(Predicate([.exists(true)]))]))))
        #expect(request.assertions.contains(.response(.duration, Predicate([.lessOrEqual(500)]))))
        #expect(request.assertions.contains(.request(.query("q", Predicate([.equals(.string("tea"))])))))
        #expect(request.assertions.contains(.request(.url(Predicate([.endsWith("/anything")], filters: [.split("?"), .first])))))
        #expect(request.assertions.count == 20)
        #expect(request.assertions.contains(.response(.cookie("sid[HttpOnly]"), Predicate([.equals(.bool(true))]))))
    }

    @Test("writing then reading gives the same request, and writing that the same bytes")
    func roundTrip() throws {
        let session = try Session.parse(Self.text, path: "s.yaml")
        let written = session.yamlText()
        let reread = try Session.parse(written, path: "s.yaml")
        #expect(reread == session)
        #expect(reread.yamlText() == written)
        #expect(written.contains("cookies:\n"), "\(written)")
        #expect(written.contains("request:\n"), "\(written)")
        #expect(written.contains("landed: {url: true}") || written.contains("landed:\n"), "\(written)")
    }

    @Test("bad values are refused at their line and column, saying what was expected")
    func errors() {
        let cases: [(String, String)] = [
            ("capture:\n      x: {xpath: \"//a[\"}\n", "s.yaml:4:18: bad XPath '//a[': the expression ends too soon at column 5"),
            ("capture:\n      x: {json: $.a, xpath: //a}\n", "s.yaml:4:10: expected exactly one of json:, header:, status:, regex:, xpath:, cookie:, url:, redirects:, location:, duration:, body-size:, body-sha256:, body-md5:, stream-events:, stream-first:, stream-last: in capture 'x' (and filters: if any)"),
            ("capture:\n      x: {url: false}\n", "s.yaml:4:16: expected true: url: true captures the url"),
            ("capture:\n      x: {json: $.a, filters: [twice]}\n", "s.yaml:4:32: 'twice' is not a filter; expected one of: count, nth, first, last, split, to-int, to-float, regex, url-decode, base64-decode"),
            ("capture:\n      x: {json: $.a, filters: [nth]}\n", "s.yaml:4:32: the filter nth needs an index: {nth: …}"),
            ("capture:\n      x: {json: $.a, filters: [{nth: 1.5}]}\n", "s.yaml:4:38: nth: 1.5 is not a whole number"),
            ("capture:\n      x: {json: $.a, filters: [{nth: 3000000000}]}\n", "s.yaml:4:38: nth: 3000000000 is out of range"),
            ("capture:\n      x: {json: $.a, filters: [{count: 1}]}\n", "s.yaml:4:40: the filter count takes no value; write it as a plain name"),
            ("capture:\n      x: {json: $.a, filters: [{regex: \"(\"}]}\n", "s.yaml:4:40: '(' is not a regular expression"),
            ("capture:\n      x: {json: $.a, filters: count}\n", "s.yaml:4:31: expected a list of filters such as [first, to-int]"),
            ("assert:\n      body:\n        $.a[?(@.b <)]: 1\n", "s.yaml:5:9: bad body path '$.a[?(@.b <)]': expected @, a path, or a string, number, true, false or null at column 12"),
            ("assert:\n      body:\n        $.a: {not: {}}\n", "s.yaml:5:20: expected a check: one of equals"),
            ("assert:\n      body:\n        $.a: {filters: [count]}\n", "s.yaml:5:14: expected a check"),
            ("assert:\n      body:\n        $.a: {less-or-equal: .nan}\n", "s.yaml:5:30: less-or-equal: '.nan' is not a number"),
            ("assert:\n      body:\n        $.a: {is-date: maybe}\n", "s.yaml:5:24: expected true or false"),
            ("assert:\n      request:\n        status: 200\n", "s.yaml:5:9: unknown key 'status' in request; expected one of: method, url, query, headers, body"),
            ("assert:\n      request:\n        body:\n          $.a.: 1\n", "s.yaml:6:11: bad body path '$.a.': expected a member name after '.'"),
            ("assert:\n      cookies:\n        sid[Colour]: x\n", "s.yaml:5:9: 'sid[Colour]' is not a cookie: expected NAME or NAME[ATTRIBUTE], the attribute one of Value, Expires"),
            ("capture:\n      x: {cookie: \"[Path]\"}\n", "s.yaml:4:19: '[Path]' is not a cookie"),
            ("assert:\n      cookies: [sid]\n", "s.yaml:4:16: expected a mapping of cookie names (NAME or NAME[Path]) to expected values"),
            ("assert:\n      xpath:\n        \"count(\": 1\n", "s.yaml:5:9: bad XPath 'count(': a function is given the wrong number of arguments"),
        ]
        for (part, expected) in cases {
            let text = "requests:\n  - url: /x\n    " + part
            do {
                _ = try Session.parse(text, path: "s.yaml")
                Issue.record("expected an error containing \(expected)")
            } catch {
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
