import Testing
import TincanCore
@testable import TincanSessions

/// One assertion or capture as one line in the session's words: what the TUI's Checks tab reads
/// and writes. Lines read back to the same checks, and bad lines get the session reader's words.
@Suite("Check lines")
struct CheckLineTests {
    /// Assertions as a session file holds them, one of each kind.
    static let file = """
        requests:
          - url: x
            assert:
              status: 2xx
              headers:
                Content-Type: {contains: json}
              body:
                $.json.name: Ada
                $.items[*].id: [1, 2]
                $["odd key"]: {filters: [count], greater-than: 2}
                $.tags: {type: array, count: 2}
                $.n: {not: 3}
              valid: true
              errors:
                - code: -1011
                  message: {contains: "404"}
              max-duration: 500ms
              xpath:
                count(//item): 3
                //a[@id = 'x y']: {exists: true}
              cookies:
                session[HttpOnly]: true
              redirects: 0
              url: {ends-with: /done}
              body-sha256: {matches: "^[0-9a-f]{64}$"}
              request:
                method: POST
                query: {dry-run: "1"}
                headers: {Content-Type: {starts-with: application/json}}
                body:
                  $.name: "{{user}}"
            capture:
              id: $.json.id
              etag: {header: ETag}
              code: status
              tags: {json: $.json.tags, filters: [count]}
              landed: {url: true}
        """

    @Test("Every assertion of a file reads back from its line as the same assertion")
    func assertionLinesRoundTrip() throws {
        let request = try Session.parse(Self.file, path: "s.tincan.yaml").requests[0]
        #expect(request.assertions.count == 20)
        for assertion in request.assertions {
            let line = CheckLine.text(of: assertion)
            #expect(try CheckLine.assertion(parsing: line) == assertion, "\(line)")
        }
    }

    @Test("Every capture of a file reads back from its line as the same capture")
    func captureLinesRoundTrip() throws {
        let request = try Session.parse(Self.file, path: "s.tincan.yaml").requests[0]
        for (name, source) in request.captures {
            let line = CheckLine.text(capture: name, source)
            let read = try CheckLine.capture(parsing: line)
            #expect(read.name == name && read.source == source, "\(line)")
        }
    }

    @Test("Lines are written in the session's words")
    func linesReadAsTheFileDoes() throws {
        let request = try Session.parse(Self.file, path: "s.tincan.yaml").requests[0]
        let lines = request.assertions.map(CheckLine.text(of:))
        #expect(lines.contains("status 2xx"))
        #expect(lines.contains("headers Content-Type contains json"))
        #expect(lines.contains("body $.json.name equals Ada"))
        #expect(lines.contains("body $.items[*].id equals [1, 2]"))
        #expect(lines.contains("body $[\"odd key\"] {filters: [count], greater-than: 2}"))
        #expect(lines.contains("xpath \"//a[@id = 'x y']\" exists true") || lines.contains("xpath //a[@id = 'x y'] exists true"))
        #expect(lines.contains("cookies session[HttpOnly] equals true"))
        #expect(lines.contains("request headers Content-Type starts-with application/json"))
        #expect(lines.contains("max-duration 500ms"))
        #expect(request.captures.map { CheckLine.text(capture: $0.key, $0.value) } == [
            "id: $.json.id", "etag: {header: ETag}", "code: status", "tags: {json: $.json.tags, filters: [count]}", "landed: {url: true}",
        ])
    }

    @Test("A plain value's type is kept: a quoted number stays text")
    func valuesKeepTheirYAMLType() throws {
        let number = try CheckLine.assertion(parsing: "body $.n equals 3")
        let text = try CheckLine.assertion(parsing: "body $.n equals \"3\"")
        let path = try BodyPath(parsing: "$.n")
        #expect(number == .body(path, Predicate([.equals(.integer(3))])))
        #expect(text == .body(path, Predicate([.equals(.string("3"))])))
        #expect(CheckLine.text(of: text) == "body $.n equals \"3\"")
    }

    @Test("An argument with a space outside brackets is quoted, and reads back")
    func spacedArgumentsAreQuoted() throws {
        let assertion = Assertion.xpath("//a | //b", Predicate([.exists(true)]))
        let line = CheckLine.text(of: assertion)
        #expect(line == "xpath \"//a | //b\" exists true")
        #expect(try CheckLine.assertion(parsing: line) == assertion)
    }

    /// The message the session reader gives for `check` written under `assert: body: $.a:`.
    private func readerMessage(_ check: String) -> String? {
        let text = "requests:\n  - url: x\n    assert:\n      body:\n        $.a: \(check)\n"
        do {
            _ = try Session.parse(text, path: "s.tincan.yaml")
            return nil
        } catch let error as ConfigFileError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test("A bad check gets the reader's own words, at its column of the line", arguments: [
        ("body $.a equal 3", "{equal: 3}", 10),
        ("body $.a count many", "{count: many}", 16),
        ("body $.a count -1", "{count: -1}", 16),
        ("body $.a type text", "{type: text}", 15),
        ("body $.a matches \"(\"", "{matches: \"(\"}", 18),
        ("body $.a {filters: [nope], equals: 1}", "{filters: [nope], equals: 1}", 21),
    ])
    func badChecksGetTheReadersWords(_ line: String, _ check: String, _ column: Int) throws {
        let expected = try #require(readerMessage(check))
        #expect(throws: CheckLineError(column: column, message: expected)) { try CheckLine.assertion(parsing: line) }
    }

    @Test("A bad query or argument says what was expected, where")
    func badQueriesSayWhatWasExpected() {
        #expect(throws: CheckLineError.self) { try CheckLine.assertion(parsing: "") }
        do {
            _ = try CheckLine.assertion(parsing: "bodies $.a equals 1")
            Issue.record("bodies was read")
        } catch {
            #expect(error.column == 1)
            #expect(error.message.hasPrefix("'bodies' is not an assertion; expected one of: status, headers, body"))
        }
        do {
            _ = try CheckLine.assertion(parsing: "body $.a[ equals 1")
            Issue.record("a bad path was read")
        } catch {
            #expect(error.column == 6)
            #expect(error.message.contains("$.a[ equals 1") || error.message.contains("bad body path"))
        }
        do {
            _ = try CheckLine.assertion(parsing: "status 99x")
            Issue.record("status 99x was read")
        } catch {
            #expect(error.column == 8)
        }
        do {
            _ = try CheckLine.assertion(parsing: "body $.a")
            Issue.record("a query without a check was read")
        } catch {
            #expect(error.message.hasPrefix("expected a check: one of equals"))
        }
    }

    @Test("A bad capture gets the reader's words at its column")
    func badCapturesGetTheReadersWords() {
        do {
            _ = try CheckLine.capture(parsing: "id: {header: ETag, json: $.id}")
            Issue.record("two sources were read")
        } catch {
            #expect(error.message.hasPrefix("expected exactly one of json:, header:"))
            #expect(error.column == 5)
        }
        #expect(throws: CheckLineError.self) { try CheckLine.capture(parsing: "a: $.a\nb: $.b") }
    }

    @Test("The equals line offered for a response value reads back to that value")
    func equalsLineForAResponseValue() throws {
        for value: ParameterValue in [.string("London"), .integer(42), .double(99.5), .bool(true), .null, .string("2"), .array([.string("a"), .integer(1)])] {
            let line = CheckLine.equalsText(path: "$.address.city", value: value)
            #expect(try CheckLine.assertion(parsing: line) == .body(try BodyPath(parsing: "$.address.city"), Predicate([.equals(value)])), "\(line)")
        }
    }
}
