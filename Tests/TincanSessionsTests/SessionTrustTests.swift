import Foundation
import TestSupport
import Testing
import TincanCore
@testable import TincanSessions

/// Numbers a session file might hold that a field must refuse unless its range holds them, in YAML's spellings.
private let hostileYAMLNumbers = [".inf", "-.inf", ".nan", "inf", "nan", "1e308", "-0", "99999999999999999999", "-5", "1e17", "1e300"]

/// The error a range gives for `text`, or nil when it holds it.
private func expectedError(_ range: NumericRange, _ text: String) -> String? {
    if text == "nan" || text == ".nan" {
        return "\(range.name): '\(text)' is not a number; expected \(range.expected)" + (range.examples.isEmpty ? "" : ", such as \(range.examples)")
    }
    let value = NumericRange.decimal(Substring(text)) ?? .nan
    if (text.hasPrefix("-") && range.minimum >= 0) || !(range.minimum...range.maximum).contains(value) {
        return "\(range.name): \(text) is out of range (\(range.expected))"
    }
    return nil
}

@Suite("Numbers in session files are checked, with file:line:column")
struct SessionNumberTests {
    /// Each numeric field: a session with `VALUE` where the number goes, the column VALUE starts
    /// at on line 4, and the range that checks it.
    static let fields: [(name: String, yaml: String, column: Int, range: NumericRange)] = [
        ("timeout", "requests:\n  - url: /x\n    properties:\n      timeout: VALUE\n", 16, .timeout),
        ("upload rate", "requests:\n  - url: /x\n    upload:\n      {file: a, rate: VALUE}\n", 23, .uploadRate),
        ("max-duration", "requests:\n  - url: /x\n    assert:\n      max-duration: VALUE\n", 21, .maxDuration),
        ("recorded status", "requests:\n  - url: /x\n    recorded:\n      status: VALUE\n", 15, .statusCode),
        ("error code", "requests:\n  - url: /x\n    assert:\n      errors: [{code: VALUE}]\n", 23, .errorCode),
        ("count", "requests:\n  - url: /x\n    assert:\n      body: {$.a: {count: VALUE}}\n", 27, .count),
        ("less-than", "requests:\n  - url: /x\n    assert:\n      body: {$.a: {less-than: VALUE}}\n", 31, NumericRange.comparison.named("less-than")),
        ("greater-than", "requests:\n  - url: /x\n    assert:\n      body: {$.a: {greater-than: VALUE}}\n", 34, NumericRange.comparison.named("greater-than")),
        ("max-body", "requests:\n  - url: /x\n    response:\n      max-body: VALUE\n", 17, .bodySize),
    ]

    @Test("Every numeric field of a session refuses hostile numbers at their line and column")
    func everyNumericFieldRefusesHostileNumbers() {
        for field in Self.fields {
            for text in hostileYAMLNumbers {
                let yaml = field.yaml.replacingOccurrences(of: "VALUE", with: text)
                let expected = expectedError(field.range, text)
                do {
                    _ = try Session.parse(yaml, path: "s.yaml")
                    #expect(expected == nil, "\(field.name) took \(text)")
                } catch {
                    #expect(expected.map { "s.yaml:4:\(field.column): \($0)" } == "\(error)", "\(field.name) \(text)")
                }
            }
        }
    }

    @Test("A curl import's -m goes through the same range")
    func curlMaxTimeIsChecked() {
        for text in ["1e17", "nan", "-1"] {
            #expect {
                try CurlCommand.parse("curl -m \(text) http://h/")
            } throws: { error in
                guard case .invalidNumber(let refused) = (error as? InterchangeError)?.reason else { return false }
                return refused.field == "-m" && refused.text == text
            }
        }
    }
}

@Suite("YAML aliases are bounded")
struct YAMLAliasTests {
    /// Nine levels of nine aliases each: a billion nodes in under a kilobyte.
    static let billionLaughs = """
        variables:
          a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
          b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
          c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
          d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
          e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
          f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
          g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
          h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
          i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
        requests:
          - url: /x
            params: *i

        """

    @Test("A billion laughs stops at the alias that passes the limit, with its line and column")
    func billionLaughsIsRefusedAtTheAlias() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("laughs.tincan.yaml", Array(Self.billionLaughs.utf8))
        // b to e's lists produce 74,718 nodes through aliases; f's first *e (66,430 more) passes 100,000.
        #expect(throws: ConfigFileError(file: path, line: 7, column: 10, reason: .tooManyAliasNodes(anchor: "e"))) {
            try Session.load(path: path)
        }
        #expect(ConfigFileError(file: path, line: 7, column: 10, reason: .tooManyAliasNodes(anchor: "e")).description
            == "\(path):7:10: the alias *e takes the nodes that aliases produce past 100000 (aliases inside aliased values multiply); write the values out or use fewer aliases")
    }

    @Test("Aliases under the limit still read")
    func smallAliasesRead() throws {
        let session = try Session.parse("variables:\n  a: &a [1, 2]\n  b: *a\nrequests: []\n", path: "s.yaml")
        #expect(session.variables["b"] == [1, 2])
    }
}

@Suite("Every error in a session file has file:line:column")
struct SessionLocationTests {
    @Test("A file that is not UTF-8 names the line and column of the first bad byte")
    func notUTF8IsLocated() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.tincan.yaml", Array("name: x\nrequests:\n  - url: /é".utf8) + [0xFF, 0x0A])
        #expect(throws: ConfigFileError(file: path, line: 3, column: 12, reason: .notUTF8(byte: 0xFF, offset: 30))) {
            try Session.load(path: path)
        }
        #expect(ConfigFileError(file: path, line: 3, column: 12, reason: .notUTF8(byte: 0xFF, offset: 30)).message
            == "is not UTF-8 text: the byte 0xFF at byte offset 30 does not start or continue a character")
        let overlong = try directory.write("overlong.yaml", Array("a: ".utf8) + [0xC0, 0xAF])
        #expect(throws: ConfigFileError(file: overlong, line: 1, column: 4, reason: .notUTF8(byte: 0xC0, offset: 3))) {
            try Session.load(path: overlong)
        }
        #expect(ConfigFileError(file: "f", line: nil, column: nil, reason: .notUTF8(byte: 0x0A, offset: 0)).message.hasPrefix("is not UTF-8 text: the byte 0x0A at"))
    }

    @Test("An undefined variable is reported at its {{name}} in the request, in a header or in params")
    func anUndefinedVariableIsLocatedAtItsReference() throws {
        let text = """
            base: http://h/
            requests:
              - url: /a
                headers:
                  Authorization: "Bearer {{ token }}"
                params:
                  id: "{{id}}"

            """
        let session = try Session.parse(text, path: "s.yaml")
        #expect(throws: Never.self) { try session.resolve(0, template: Template(variables: ["id": 1, "token": "t"]), directory: "/tmp", file: "s.yaml") }
        do {
            _ = try session.resolve(0, template: Template(variables: ["id": 1]), directory: "/tmp", file: "s.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("s.yaml:5:30: request '#1 GET /a': the variable {{token}} is not defined"), "\(error)")
        }
        do {
            _ = try session.resolve(0, template: Template(variables: ["token": "t"]), directory: "/tmp", file: "s.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("s.yaml:7:12: request '#1 GET /a': the variable {{id}} is not defined"), "\(error)")
        }
    }

    @Test("A variable missing inside another variable's value is reported where that value refers to it")
    func aMissingNestedVariableIsLocatedInVariables() throws {
        let session = try Session.parse("variables:\n  url: \"{{host}}/v1\"\nrequests:\n  - url: \"{{url}}/x\"\n", path: "s.yaml")
        do {
            _ = try session.resolve(0, template: Template(variables: try session.variables(environment: nil, overrides: [:])), directory: "/tmp", file: "s.yaml")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".hasPrefix("s.yaml:2:9: request '#1 GET {{url}}/x': the variable {{host}} is not defined"), "\(error)")
        }
    }
}

@Suite("Variables that use other variables resolve fully")
struct NestedVariableTests {
    static let session = """
        variables:
          host: http://prod.example
          api: "{{host}}/v1"
          auth: "Bearer {{$env.TINCAN_TEST_TOKEN}}"
          items: ["{{api}}/items", "{{n}}"]
          n: 3
        environments:
          staging:
            host: http://staging.example
        requests:
          - url: "{{api}}/users"
            headers:
              Authorization: "{{auth}}"
            params:
              links: "{{items}}"

        """

    func resolve(environment: String? = nil, overrides: [String: String] = [:]) throws -> RequestDraft {
        let session = try Session.parse(Self.session, path: "s.yaml")
        let template = Template(variables: try session.variables(environment: environment, overrides: overrides), environment: ["TINCAN_TEST_TOKEN": "secret"])
        return try session.resolve(0, template: template, directory: "/tmp", file: "s.yaml").draft
    }

    @Test("A variable made of other variables, and $env inside variables:, expand when used")
    func nestedVariablesAndEnvExpand() throws {
        let draft = try resolve()
        #expect(draft.url == "http://prod.example/v1/users")
        #expect(draft.items.contains(.header(name: "Authorization", value: "Bearer secret")))
        #expect(draft.parameters == .dictionary(["links": ["http://prod.example/v1/items", 3]]))
    }

    @Test("An environment and --var replace a variable that others are made of")
    func layersApplyBeneathNestedVariables() throws {
        #expect(try resolve(environment: "staging").url == "http://staging.example/v1/users")
        #expect(try resolve(environment: "staging", overrides: ["host": "http://cli"]).url == "http://cli/v1/users")
        #expect(try resolve(overrides: ["api": "{{host}}/v2"]).url == "http://prod.example/v2/users")
    }

    @Test("A cycle is an error that names it")
    func aCycleIsNamed() throws {
        let template = Template(variables: ["a": "{{b}}/x", "b": "y{{c}}", "c": "{{a}}"])
        #expect(throws: MissingVariableError(name: "a", .cycle(["a", "b", "c", "a"]))) {
            try template.expand("go {{a}}")
        }
        #expect(throws: MissingVariableError.self) { try Template(variables: ["self": "{{self}}"]).expand(ParameterValue.string("{{self}}")) }
        let session = try Session.parse("variables:\n  a: \"{{b}}\"\n  b: \"{{a}}\"\nrequests:\n  - url: \"{{a}}\"\n", path: "s.yaml")
        do {
            _ = try session.resolve(0, template: Template(variables: try session.variables(environment: nil, overrides: [:])), directory: "/tmp", file: "s.yaml")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("a cycle: a → b → a"), "\(error)")
            #expect("\(error)".hasPrefix("s.yaml:5:11:"), "\(error)")
        }
    }

    @Test("Variables that double at each step stop at the expansion limit")
    func doublingVariablesAreBounded() {
        var variables: [String: ParameterValue] = ["v0": "x"]
        for level in 1...40 { variables["v\(level)"] = .string("{{v\(level - 1)}}{{v\(level - 1)}}") }
        #expect(throws: MissingVariableError.self) { try Template(variables: variables).expand("{{v40}}") }
    }

    @Test("{{'{{'}} writes a literal {{, and captured values are never expanded")
    func literalBracesAndCapturesStayAsTheyAre() throws {
        var template = Template(variables: ["name": "Ada", "greeting": "{{'{{'}}name}} is {{name}}"])
        #expect(try template.expand("{{'{{'}}name}}") == "{{name}}")
        #expect(try template.expand("{{greeting}}") == "{{name}} is Ada")
        template.captured["token"] = "{{name}}"
        #expect(try template.expand("{{token}}") == "{{name}}")
    }
}

@Suite("A session sets the response-body limit itself")
struct SessionBodyLimitTests {
    private static let yaml = """
        base: "{{server}}"
        defaults:
          response:
            max-body: 2k
        requests:
          - name: small
            url: /bytes/1500
          - name: large
            url: /bytes/5000
          - name: lifted
            url: /bytes/5000
            response:
              max-body: 0
        """

    @Test("max-body is read, written back as written, and laid over the defaults")
    func maxBodyRoundTrips() throws {
        let session = try Session.parse(Self.yaml, path: "s.yaml")
        #expect(session.defaults.response.maxBody == "2k")
        #expect(session.requests[2].response.maxBody == "0")
        #expect(session.defaults.response.merged(with: session.requests[2].response).maxBody == "0")
        let written = session.yamlText()
        #expect(written.contains("max-body: 2k"), "\(written)")
        let reread = try Session.parse(written, path: "t.yaml")
        #expect(reread.defaults.response.maxBody == "2k")
        #expect(reread.requests.map(\.response.maxBody) == [nil, nil, "0"])
    }

    @Test("a replay keeps each request within its session's limit, and a request can lift it")
    func replayHonoursTheLimit() async throws {
        try await withDemoServer { server in
            let session = try Session.parse(Self.yaml, path: "s.yaml")
            let (report, _) = try await replay(session, on: server) { $0.maximumBodyBytes = 1 << 30 }
            #expect(report.outcomes.map(\.state) == [.passed, .failed, .passed], "\(report.outcomes.map { $0.error ?? "" })")
            #expect(report.outcomes[1].error?.contains("max-body") == true, "\(report.outcomes[1].error ?? "")")
        }
    }
}

@Suite("An alias as a key is refused before it is composed")
struct AliasKeyTests {
    /// Nine levels of nine aliases each: 9⁹ nodes behind the last anchor.
    private static func laughs(_ last: String) -> String {
        var lines = ["variables:", #"  a: &a ["x","x","x","x","x","x","x","x","x"]"#]
        var previous = "a"
        for name in "bcdefghi".map(String.init) {
            lines.append("  \(name): &\(name) [\(Array(repeating: "*" + previous, count: 9).joined(separator: ","))]")
            previous = name
        }
        return lines.joined(separator: "\n") + "\n" + last + "requests:\n  - url: /x\n"
    }

    @Test("an alias of aliases as an explicit or implicit key is refused at once, at its place", arguments: [
        ("  k:\n    ? *i\n    : 1\n", 12, 7),
        ("  k:\n    *i : 1\n", 12, 5),
        ("  k: {*i : 1}\n", 11, 7),
        ("  k: {[*i]: 1}\n", 11, 8),
        ("  k:\n    ? [x, {y: *i}]\n    : 1\n", 12, 15),
    ])
    func aliasKeysAreRefused(last: String, line: Int, column: Int) throws {
        let clock = ContinuousClock()
        let started = clock.now
        #expect {
            _ = try Session.parse(Self.laughs(last), path: "s.yaml")
        } throws: { error in
            (error as? ConfigFileError)?.reason == .aliasInKey("i")
                && "\(error)" == "s.yaml:\(line):\(column): the alias *i is used in a key; keys are text, so write the key out"
        }
        #expect(clock.now - started < .seconds(5))
    }

    @Test("a file with CRLF line ends is read as YAML reads it: a comment ends at the line break")
    func crlfLinesAreLines() throws {
        let text = Self.laughs("  k:\n    *i : 1\n").replacingOccurrences(of: "\n", with: "\r\n")
        #expect(AliasKeyScan.firstAliasKey(in: "# note\r\n" + text)?.name == "i")
    }

    @Test("a quote inside plain text and a block scalar under a sequence item do not hide a key")
    func plainQuotesAndBlockScalarsDoNotHideKeys() {
        #expect(AliasKeyScan.firstAliasKey(in: "a: &x [1]\nnote: rock 'n roll\n*x : 1\n")?.location == SourceLocation(line: 3, column: 1))
        #expect(AliasKeyScan.firstAliasKey(in: "a: &x [1]\nl:\n- body: |\n    text\n  *x : 1\n")?.location == SourceLocation(line: 5, column: 3))
    }

    @Test("aliases as values, and look-alikes in quotes, comments and block text, are not keys")
    func lookAlikesAreNotKeys() {
        let text = """
            a: &x 1
            b: *x
            c: "*x: y"
            d: '*x: it''s'
            e: [*x, *x]
            f: |
              *x: inside a block scalar
            # *x: a comment
            g: Ada's *x
            h: 'see *x: y'
            i: {"k": "v *x: y"}
            j: rock 'n roll *x
            """
        #expect(AliasKeyScan.firstAliasKey(in: text) == nil)
    }
}

@Suite("Deeply nested YAML")
struct FlowDepthTests {
    @Test("flow collections nested past YAML's 1000 levels are refused at once, at the bracket that passes the limit")
    func deepFlowNestingIsRefusedAtOnce() throws {
        let depth = 100_000
        let text = "requests:\n  - url: get\n    assert:\n      body:\n        $.a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try Session.parse(text, path: "deep.tincan.yaml")
            Issue.record("a value nested \(depth) levels deep was read")
        } catch {
            #expect("\(error)".hasPrefix("deep.tincan.yaml:5:1014: "), "\(error)")
            #expect("\(error)".contains("nested deeper than 1000 levels"), "\(error)")
        }
        // libyaml's scanner took 16 s to refuse it; the check before it takes a single pass.
        #expect(clock.now - start < .seconds(5))
    }

    @Test("brackets in quoted scalars and comments do not count, and nesting within the limit reads")
    func quotedBracketsDoNotCount() throws {
        let brackets = String(repeating: "[", count: 1500)
        let session = try Session.parse("""
            # \(brackets)
            name: '\(brackets)'
            description: "\(brackets) \\" \(brackets)"
            requests:
              - url: get
                params:
                  a: \(String(repeating: "[", count: 50))1\(String(repeating: "]", count: 50))
            """, path: "ok.tincan.yaml")
        #expect(session.name == brackets)
        #expect(session.requests.count == 1)
    }
}
