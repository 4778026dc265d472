import Foundation
import OrderedCollections
import TestSupport
import Testing
import TincanCore
import TincanSessions

let fullSession = """
    name: Everything
    description: Every field the format has.
    base: "{{server}}/v1/"
    defaults:
      serializer: json
      headers:
        Accept: application/json
        X-Removed: null
      properties:
        timeout: 2.5
        cache-policy: reloadRevalidatingCacheData
        cookies: false
        pipelining: true
        cellular: false
        network-service: background
      response:
        serializer: json
        accept-status: 200-299,304
        accept-type: [application/json, text/json]
        remove-nulls: true
      security:
        ca-file: ca.pem
        pins: [a.der, b.pem]
        pin-mode: public-key
    variables:
      server: http://127.0.0.1:8080
      count: 3
      ratio: 0.5
      on: true
      nothing: null
      quoted: "yes"
    environments:
      staging:
        server: https://staging.example
    requests:
      - name: Create
        method: POST
        url: items
        serializer: form
        headers:
          X-Trace: "{{$uuid}}"
          X-Debug:
            value: verbose
            enabled: false
        query:
          page: "2"
        params:
          name: Ada
          tags: [a, b]
          nested:
            deep: [1, 2.5, true, null]
        capture:
          id: $.json.id
          etag:
            header: ETag
          code: status
          word:
            regex: "id-([0-9]+)"
        assert:
          status: 2xx
          headers:
            Content-Type:
              contains: json
          body:
            $.json.name: Ada
            $.json.tags:
              count: 2
              type: array
            $.json.n:
              less-than: 3
              greater-than: 0.5
            $.json.kind:
              one-of: [a, b]
            $.json.gone:
              exists: false
            $.json.word:
              matches: ^w
              not-equals: x
          valid: true
          errors:
            - code: -1011
              domain: io.tincan.error.serialization.response
              message:
                contains: "404"
          max-duration: 500ms
        recorded:
          status: 201
          headers:
            Content-Type: application/json
          body: |-
            {"id": 1,
             "name": "Ada"}
          ignore: [$.id]
      - method: PUT
        url: upload
        upload:
          file: data/file.bin
          rate: 64k
        auth:
          type: digest
          user: ada
          password: "{{$env.PASSWORD}}"
      - method: POST
        url: files
        serializer: multipart
        files:
          - field: avatar
            path: a.png
            type: image/png
        body:
          base64: AAEC
        download: out.bin
        properties:
          timeout: 5
        response:
          accept-status: "200"

    """

@Suite("Session files")
struct SessionFormatTests {
    @Test("a key given twice is refused at its line, plain or quoted, and plain values keep their YAML types")
    func duplicateKeysAndPlainScalarTypes() throws {
        let twice = "requests:\n  - method: GET\n    url: http://h/\n    method: POST\n"
        let error = try #require(throws: ConfigFileError.self) { try Session.parse(twice, path: "s.yaml") }
        #expect(error.reason == .duplicateKeys(["method"]))
        #expect(error.line == 2)  // where the key first appears
        // Keys are text: a plain 1 and a quoted "1" name the same parameter.
        let spelledTwice = "requests:\n  - url: http://h/\n    params:\n      1: a\n      \"1\": b\n"
        #expect(throws: ConfigFileError.self) { try Session.parse(spelledTwice, path: "s.yaml") }

        let typed = """
            requests:
              - url: http://h/
                params:
                  i: 12
                  negative: -7
                  zero: -0
                  octal: 017
                  grouped: 1_000
                  hex: 0x1F
                  f: 1.5
                  b: true
                  n: null
                  tilde: ~
                  quoted: "12"
                  single: 'true'
                  text: twelve
                  1: key
            """
        let params = try Session.parse(typed + "\n", path: "s.yaml").requests[0].params
        #expect(params == ["i": 12, "negative": -7, "zero": 0, "octal": 15, "grouped": 1000, "hex": 31, "f": 1.5, "b": true, "n": .null, "tilde": .null, "quoted": "12", "single": "true", "text": "twelve", "1": "key"])
    }

    @Test func everyFieldOfTheFormatIsRead() throws {
        let session = try Session.parse(fullSession, path: "full.tincan.yaml")
        #expect(session.name == "Everything")
        #expect(session.base == "{{server}}/v1/")
        #expect(session.defaults.serializer == .json)
        #expect(session.defaults.headers == [HeaderSetting(name: "Accept", value: "application/json"), HeaderSetting(name: "X-Removed", value: nil)])
        #expect(session.defaults.properties.timeoutInterval == 2.5)
        #expect(session.defaults.properties.cachePolicy == .reloadRevalidatingCacheData)
        #expect(session.defaults.properties.httpShouldHandleCookies == false)
        #expect(session.defaults.properties.networkServiceType == .background)
        #expect(session.defaults.response.acceptTypes == ["application/json", "text/json"])
        #expect(session.defaults.response.removesNulls == true)
        #expect(session.defaults.security.pins == ["a.der", "b.pem"])
        #expect(session.defaults.security.pinMode == .publicKey)
        #expect(session.variables["count"] == .integer(3))
        #expect(session.variables["ratio"] == .double(0.5))
        #expect(session.variables["on"] == .bool(true))
        #expect(session.variables["nothing"] == .null)
        #expect(session.variables["quoted"] == .string("yes"))
        #expect(session.environments["staging"]?["server"] == .string("https://staging.example"))

        let create = session.requests[0]
        #expect(create.line == 36)
        #expect(create.headers == [HeaderSetting(name: "X-Trace", value: "{{$uuid}}"), HeaderSetting(name: "X-Debug", value: "verbose", isEnabled: false)])
        #expect(create.query.map(\.name) == ["page"])
        #expect(create.params == .dictionary(["name": "Ada", "tags": ["a", "b"], "nested": .dictionary(["deep": [1, 2.5, true, .null]])]))
        #expect(create.captures["id"] == .body(try BodyPath(parsing: "$.json.id")))
        #expect(create.captures["etag"] == .header("ETag"))
        #expect(create.captures["code"] == .status)
        #expect(create.captures["word"] == .regex("id-([0-9]+)"))
        #expect(create.assertions.first == .status("2xx"))
        #expect(create.assertions.contains(.maxDuration(0.5)))
        #expect(create.assertions.contains(.body(try BodyPath(parsing: "$.json.n"), Predicate([.lessThan(3), .greaterThan(0.5)]))))
        #expect(create.recorded?.body == "{\"id\": 1,\n \"name\": \"Ada\"}")
        #expect(session.requests[1].upload == SavedUpload(file: "data/file.bin", rate: "64k"))
        #expect(session.requests[1].auth == SavedAuth(scheme: .digest, user: "ada", password: "{{$env.PASSWORD}}"))
        #expect(session.requests[2].body == .base64([0, 1, 2]))
        #expect(session.requests[2].files == [SavedFile(field: "avatar", path: "a.png", type: "image/png")])
    }

    @Test func aHeaderTurnedOffIsKeptInTheFileButNotSentAndDoesNotHideTheDefault() throws {
        let text = """
            defaults:
              headers:
                Accept: application/json
                X-Off-Default:
                  value: "1"
                  enabled: false
            requests:
              - method: GET
                url: http://127.0.0.1:9/get
                headers:
                  Accept:
                    value: text/plain
                    enabled: false
                  X-Kept: yes-please
                  X-Debug:
                    value: verbose
                    enabled: false

            """
        let session = try Session.parse(text, path: "off.tincan.yaml")
        #expect(session.requests[0].headers.map(\.isEnabled) == [false, true, false])
        let sent = try build(session)
        #expect(sent.headers["Accept"] == "application/json", "the default applies: the request's own Accept is off")
        #expect(sent.headers["X-Kept"] == "yes-please")
        #expect(sent.headers["X-Debug"] == nil)
        #expect(sent.headers["X-Off-Default"] == nil)
        #expect(session.yamlText() == text, "written back as it was read")
    }

    @Test func writingThenReadingGivesTheSameSessionAndTheSameBytes() throws {
        let session = try Session.parse(fullSession, path: "full.tincan.yaml")
        let written = session.yamlText()
        var reread = try Session.parse(written, path: "written.tincan.yaml")
        #expect(reread.yamlText() == written)
        for index in reread.requests.indices { reread.requests[index].line = session.requests[index].line }
        #expect(reread == session)
    }

    @Test("each observed property is written under the core's session key and read back from it")
    func propertiesUseTheCoresSessionKeys() throws {
        var properties = ObservedProperties()
        properties.timeoutInterval = 2.5
        properties.cachePolicy = .returnCacheDataElseLoad
        properties.httpShouldHandleCookies = false
        properties.httpShouldUsePipelining = true
        properties.allowsCellularAccess = false
        properties.networkServiceType = .voice
        var request = SavedRequest(url: "/x")
        request.properties = properties
        let text = Session(requests: [request]).yamlText()
        let written = text.split(separator: "\n").drop { !$0.hasSuffix("properties:") }.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(written.map { String($0.prefix { $0 != ":" }) } == ObservedProperty.listingOrder.map(\.sessionKey))
        #expect(written.first == "timeout: 2.5")
        #expect(try Session.parse(text, path: "p.yaml").requests[0].properties == properties)
    }

    @Test func everyExampleSurvivesARoundTrip() throws {
        let files = try exampleFiles()
        #expect(files.count >= 6)
        for file in files {
            let session = try Session.load(path: file)
            let written = session.yamlText()
            let reread = try Session.parse(written, path: file)
            #expect(reread.yamlText() == written, "\(file)")
            #expect(reread.requests.map(\.displayName) == session.requests.map(\.displayName))
        }
    }

    @Test(arguments: ["yes", "no", "on", "2", "-1.5", "null", "~", "", " padded", "a: b", "#hash", "{{var}}", "[x]", "x #y", "tab\there", "2026-01-01", "0x1F", "bell\u{7}"])
    func stringsThatLookLikeOtherTypesAreQuoted(_ text: String) throws {
        var session = Session(name: text, requests: [SavedRequest(url: "/x")])
        session.variables["v"] = .string(text)
        let reread = try Session.parse(session.yamlText(), path: "q.yaml")
        #expect(reread.name == text)
        #expect(reread.variables["v"] == .string(text))
    }

    @Test func multiLineTextIsWrittenAsALiteralBlock() throws {
        var request = SavedRequest(method: "POST", url: "/post")
        request.body = .text("line one\n  indented\n\nlast\n")
        let text = Session(requests: [request]).yamlText()
        #expect(text.contains("    body: |\n      line one\n        indented\n\n      last\n"))
        #expect(try Session.parse(text, path: "b.yaml").requests[0].body == request.body)
    }

    @Test func malformedYAMLIsReportedWithFileLineAndColumn() {
        #expect(throws: ConfigFileError.self) { try Session.parse("requests:\n  - method: GET\n    url: [unclosed\n", path: "bad.tincan.yaml") }
        do {
            _ = try Session.parse("name: x\nrequests:\n  - method: GET\n    url: \"open\n", path: "bad.tincan.yaml")
            Issue.record("expected an error")
        } catch let error as ConfigFileError {
            #expect(error.file == "bad.tincan.yaml")
            #expect(error.line != nil && error.column != nil)
            #expect(error.description.hasPrefix("bad.tincan.yaml:"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anUnknownKeyIsNamedWithTheAllowedOnes() {
        #expect {
            try Session.parse("name: x\nrequests:\n  - url: /get\n    metod: GET\n", path: "s.yaml")
        } throws: { error in
            (error as? ConfigFileError)?.reason == .unknownKey("metod", context: "a request", expected: SessionSchemaTests.names(SessionKey.Request.self))
                && "\(error)" == "s.yaml:4:5: unknown key 'metod' in a request; expected one of: name, group, variables, method, url, serializer, headers, query, params, body, files, auth, download, upload, properties, response, capture, assert, follow-redirects, max-redirects, retry, retry-interval, delay, repeat, http-version, max-time, retry-policy, websocket, recorded"
        }
        #expect(throws: ConfigFileError(file: "s.yaml", line: 1, column: 1, reason: .unknownKey("request", context: "a session", expected: SessionSchemaTests.names(SessionKey.TopLevel.self)))) {
            try Session.parse("request: []\n", path: "s.yaml")
        }
        #expect(throws: ConfigFileError(file: "s.yaml", line: 3, column: 5, reason: .unknownKey("timeoutInterval", context: "properties", expected: ObservedProperty.listingOrder.map(\.sessionKey)))) {
            try Session.parse("defaults:\n  properties:\n    timeoutInterval: 5\n", path: "s.yaml")
        }
        #expect(throws: ConfigFileError(file: "s.yaml", line: 5, column: 15, reason: .unknownKey("between", context: "a check", expected: SessionSchemaTests.names(SessionKey.Check.self)))) {
            try Session.parse("requests:\n  - url: /x\n    assert:\n      body:\n        $.a: {between: 3}\n", path: "s.yaml")
        }
    }

    @Test("each check key reads as its own check and is written back under the same key", arguments: SessionKey.Check.allCases)
    func eachCheckKeyReadsAsItsOwnCheck(_ key: SessionKey.Check) throws {
        let value = switch key {
        case .equals, .notEquals, .lessThan, .greaterThan: "3"
        case .contains: "a"
        case .matches: "^a"
        case .exists: "true"
        case .type: "string"
        case .count: "2"
        case .oneOf: "[a, b]"
        case .startsWith, .endsWith: "a"
        case .isEmpty, .isDate: "false"
        case .not: "{contains: b}"
        case .lessOrEqual, .greaterOrEqual: "-2.5"
        case .filters: "[count, {nth: -1}, {split: \",\"}], equals: 3"
        }
        let text = "requests:\n  - url: /x\n    assert:\n      body:\n        $.a: {\(key.rawValue): \(value)}\n"
        let request = try Session.parse(text, path: "s.yaml").requests[0]
        guard case .body(_, let predicate)? = request.assertions.first else { Issue.record("no body check"); return }
        let read: SessionKey.Check = switch try #require(predicate.checks.first) {
        case .equals: .equals
        case .notEquals: .notEquals
        case .contains: .contains
        case .matches: .matches
        case .exists: .exists
        case .type: .type
        case .lessThan: .lessThan
        case .greaterThan: .greaterThan
        case .count: .count
        case .oneOf: .oneOf
        case .startsWith: .startsWith
        case .endsWith: .endsWith
        case .isEmpty: .isEmpty
        case .not: .not
        case .lessOrEqual: .lessOrEqual
        case .greaterOrEqual: .greaterOrEqual
        case .isDate: .isDate
        }
        #expect(key == .filters ? read == .equals && !predicate.filters.isEmpty : read == key)
        #expect(try Session.parse(Session(requests: [request]).yamlText(), path: "s.yaml").requests[0] == request, "read back the same")
        let written = Session(requests: [request]).yamlText()
        #expect(written.contains(key == .equals ? "$.a: 3\n" : "$.a:\n          \(key.rawValue):"), "\(written)")
    }

    @Test("a mapping that is not one lists the keys it may hold")
    func aScalarWhereAMappingBelongsListsTheKeys() {
        #expect(throws: ConfigFileError(file: "s.yaml", line: 3, column: 11, reason: .expectedMapping(context: "auth", keys: SessionKey.Auth.allCases.map(\.rawValue)))) {
            try Session.parse("requests:\n  - url: /x\n    auth: ada\n", path: "s.yaml")
        }
        #expect(ConfigFileError(file: "s.yaml", line: 3, column: 11, reason: .expectedMapping(context: "auth", keys: ["type", "user", "password"])).description
            == "s.yaml:3:11: expected a mapping in auth, with keys from: type, user, password")
        #expect(throws: ConfigFileError(file: "s.yaml", line: 4, column: 7, reason: .expectedMapping(context: "properties", keys: ObservedProperty.listingOrder.map(\.sessionKey)))) {
            try Session.parse("requests:\n  - url: /x\n    properties:\n      - timeout\n", path: "s.yaml")
        }
        #expect(throws: ConfigFileError(file: "s.yaml", line: 3, column: 11, message: "expected exactly one of text:, base64:, file: or graphql: in body")) {
            try Session.parse("requests:\n  - url: /x\n    body: {}\n", path: "s.yaml")
        }
    }

    @Test func badValuesSayWhatWasExpected() {
        let cases: [(String, String)] = [
            ("requests:\n  - method: G T\n    url: /x\n", "'G T' is not a method"),
            ("requests:\n  - url: /x\n    assert:\n      status: 99\n", "'99' is not a status code"),
            ("requests:\n  - url: /x\n    properties:\n      timeout: -1\n", "s.yaml:4:16: timeout: -1 is out of range (0.001…2147483 seconds)"),
            ("requests:\n  - url: /x\n    serializer: xml\n", "expected form, json, plist or multipart"),
            ("requests:\n  - method: GET\n", "a request needs url:"),
            ("requests:\n  - url: /x\n    capture:\n      id: json.[\n", "bad body path"),
            ("requests:\n  - url: /x\n    assert:\n      body:\n        $.a: {between: 3}\n", "unknown key 'between' in a check"),
            ("requests:\n  - url: /x\n    assert:\n      max-duration: soon\n", "max-duration: 'soon' is not a number; expected 0…2147483 seconds, such as 2s"),
            ("defaults:\n  properties:\n    cache-policy: always\n", "'always' is not a cache policy; expected one of: useProtocolCachePolicy"),
            ("requests:\n  - url: /x\n    headers:\n      X-Debug: {enabled: false}\n", "s.yaml:4:16: header 'X-Debug' needs a value: {value: TEXT, enabled: false}"),
            ("requests:\n  - url: /x\n    headers:\n      X-Debug: {value: a, on: false}\n", "unknown key 'on' in header 'X-Debug'; expected one of: value, enabled"),
            ("requests:\n  - url: /x\n    headers:\n      X-Debug: {value: a, enabled: maybe}\n", "s.yaml:4:36: expected true or false"),
            ("requests:\n  - url: /x\n    headers:\n      X-Debug: [a]\n", "null to remove a default, or {value: TEXT, enabled: false}"),
            ("defaults:\n  security:\n    pin-mode: key\n", "s.yaml:3:15: 'key' is not a pinning mode; expected certificate or public-key"),
            ("requests:\n  - url: /x\n    params:\n      n: 99999999999999999999\n", "s.yaml:4:10: '99999999999999999999' is too large for an integer"),
            ("requests:\n  - url: /x\n    params:\n      n: !!int \"7\"\n", "s.yaml:4:10: '7' is tagged as an integer but quoted; write it without quotes"),
        ]
        for (text, expected) in cases {
            do {
                _ = try Session.parse(text, path: "s.yaml")
                Issue.record("expected an error containing \(expected)")
            } catch {
                #expect("\(error)".contains(expected), "\(error)")
                #expect("\(error)".hasPrefix("s.yaml:"))
            }
        }
    }
}

@Suite("Saving session files")
struct SessionSavingTests {
    @Test func aSaveWritesAtomicallyAndAnUnchangedFileKeepsItsBytes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/s.tincan.yaml"
        let session = try Session.parse(fullSession, path: path)
        let text = try SessionFile.save(session, to: path)
        #expect(String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self) == text)
        let reloaded = try Session.load(path: path)
        #expect(try SessionFile.save(reloaded, to: path) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["s.tincan.yaml"], "no temporary file is left behind")
    }

    @Test func aFileThatDoesNotParseIsNeverOverwritten() throws {
        let directory = try TemporaryDirectory()
        let broken = "name: half-typed\nrequests:\n  - url: [\n"
        let path = try directory.write("s.tincan.yaml", Array(broken.utf8))
        #expect(throws: SessionFile.SaveError.self) { try SessionFile.save(Session(name: "new", requests: []), to: path, allowDroppingComments: true) }
        #expect(String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self) == broken)
    }

    @Test func savingOverCommentsWarnsAndKeepsTheFileUntilConfirmed() throws {
        let directory = try TemporaryDirectory()
        let original = "# Why this session exists\nname: x # trailing\nrequests:\n  - url: /get\n    body: |\n      # not a comment, body text\n"
        let path = try directory.write("s.tincan.yaml", Array(original.utf8))
        var session = try Session.load(path: path)
        session.name = "y"
        #expect(throws: SessionFile.SaveError.wouldDropComments(path: path, lines: [1, 2])) { try SessionFile.save(session, to: path) }
        #expect(String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self) == original)
        try SessionFile.save(session, to: path, allowDroppingComments: true)
        #expect(try Session.load(path: path).name == "y")
    }

    @Test func commentsAreFoundOutsideQuotesAndBlocksOnly() {
        let text = "a: \"# no\"\nb: 'x # no'\nc: x#no\nd: |\n  # no\n  text\n# yes\ne: 1 # yes\n"
        #expect(SessionFile.commentLines(in: text) == [7, 8])
    }
}

@Suite("Body paths, predicates and variables")
struct PathAndPredicateTests {
    @Test func pathsReachMembersElementsAndQuotedNames() throws {
        let value: ParameterValue = .dictionary(["json": .dictionary(["a.b": 1, "list": [10, 20, 30]])])
        #expect(try BodyPath(parsing: "$.json.list[1]").value(in: value) == 20)
        #expect(try BodyPath(parsing: "json.list[-1]").value(in: value) == 30)
        #expect(try BodyPath(parsing: "$.json[\"a.b\"]").value(in: value) == 1)
        #expect(try BodyPath(parsing: "$").value(in: value) == value)
        #expect(try BodyPath(parsing: "$.json.missing").value(in: value) == nil)
        #expect(throws: BodyPathError.self) { try BodyPath(parsing: "$.json[x]") }
        #expect(throws: BodyPathError.self) { try BodyPath(parsing: "$..") }  // `$..a` is recursive descent now
    }

    @Test func predicatesExplainTheirFailures() {
        #expect(Predicate([.equals(3)]).failure(for: .double(3)) == nil)
        #expect(Predicate([.equals(3)]).failure(for: .string("3")) == nil)
        #expect(Predicate([.equals("a")]).failure(for: "b") == "is \"b\", expected \"a\"")
        #expect(Predicate([.exists(true)]).failure(for: nil) == "is missing")
        #expect(Predicate([.count(2)]).failure(for: [1, 2, 3]) == "has 3 elements, expected 2")
        #expect(Predicate([.type(.integer)]).failure(for: 2.5) == "is a number (2.5), expected integer")
        #expect(Predicate([.matches("^a+$")]).failure(for: "aaa") == nil)
        #expect(Predicate([.lessThan(1)]).failure(for: 2) == "is 2, expected less than 1")
        #expect(Predicate([.contains("b")]).failure(for: ["a", "b"]) == nil)
        #expect(Predicate([.oneOf(["x", "y"])]).failure(for: "z") == "is \"z\", expected one of \"x\", \"y\"")
    }

    @Test func templatesExpandTextAndKeepTheTypeOfASoleReference() throws {
        let template = Template(variables: ["n": 3, "list": ["a"], "host": "h"], environment: ["TOKEN": "t"])
        #expect(try template.expand("http://{{host}}/{{ n }}") == "http://h/3")
        #expect(try template.expand(ParameterValue.string("{{list}}")) == ["a"])
        #expect(try template.expand(ParameterValue.string("n={{n}}")) == "n=3")
        #expect(try template.expand("{{$env.TOKEN}}") == "t")
        #expect(try template.expand("{{$uuid}}").count == 36)
        #expect(throws: MissingVariableError(name: "hots", .undefined(known: ["host", "list", "n"]))) { try template.expand("{{hots}}") }
    }

    @Test func aMissingVariableNamesItAndTheRequestThatUsedIt() throws {
        let session = try Session.parse("base: http://h/\nrequests:\n  - name: first\n    url: a\n  - name: Fetch\n    url: items/{{id}}\n", path: "s.tincan.yaml")
        do {
            _ = try session.resolve(1, template: Template(variables: [:]), directory: "/tmp", file: "s.tincan.yaml")
            Issue.record("expected an error")
        } catch {
            // The location is the reference's own, not the request's first line.
            #expect(error.description.hasPrefix("s.tincan.yaml:6:16: request '#2 Fetch': the variable {{id}} is not defined"))
        }
    }

    @Test func environmentsAndCommandLineVariablesOverrideTheFile() throws {
        let session = try Session.parse("variables:\n  a: file\n  b: file\nenvironments:\n  ci:\n    a: ci\nrequests: []\n", path: "s.yaml")
        let values = try session.variables(environment: "ci", overrides: ["b": "cli"])
        #expect(values["a"] == "ci")
        #expect(values["b"] == "cli")
        #expect(throws: SessionError(.unknownEnvironment("prod", defined: ["ci"]))) { try session.variables(environment: "prod", overrides: [:]) }
    }

    @Test func secretsAreRedacted() {
        #expect(Redaction.headerValue(name: "Authorization", value: "Bearer abc") == "Bearer ••••••")
        #expect(Redaction.headerValue(name: "X-Api-Key", value: "abc") == "••••••")
        #expect(Redaction.headerValue(name: "Accept", value: "a/b") == "a/b")
        #expect(Redaction.url("http://u:pw@h/x?token=1&q=2") == "http://u:••••••@h/x?token=••••••&q=2")
        #expect(Redaction.value(.dictionary(["password": "p", "name": "n"])) == .dictionary(["password": .string(Redaction.mask), "name": "n"]))
    }

    @Test("a URL's secret query fields are found by any case, inside longer names and percent-encoded, and nothing else changes", arguments: [
        ("https://h/x?Access_Token=a&SESSIONID=b&q=c#frag?token=d", "https://h/x?Access_Token=••••••&SESSIONID=••••••&q=c#frag?token=d"),
        ("http://h/?api%5Fkey=1&my%2Dkey=2&key=3&keys=4&monkey=5", "http://h/?api%5Fkey=••••••&my%2Dkey=••••••&key=••••••&keys=4&monkey=5"),
        ("http://user:p%40ss:w@h:8080/?password&passwd=&é=ü", "http://user:••••••@h:8080/?password&passwd=••••••&é=ü"),
        ("/relative/path?private_note=x&tokenless", "/relative/path?private_note=••••••&tokenless"),
        ("http://h/no-query", "http://h/no-query"),
        ("mailto:a@b?cookie=1", "mailto:a@b?cookie=••••••"),
    ])
    func urlQueriesAreRedacted(url: String, expected: String) {
        #expect(Redaction.url(url) == expected)
    }
}

@Suite("The session JSON Schema")
struct SessionSchemaTests {
    let schema: ParameterValue

    init() throws {
        let url = URL(fileURLWithPath: examplesDirectory).deletingLastPathComponent().appendingPathComponent("docs/session.schema.json")
        schema = try JSONParser.parse(bytes: Array(try Data(contentsOf: url)))
    }

    /// Where the schema lists each mapping's keys, and the keys the reader and writer use for it.
    static let mappings: [(path: String, keys: [String])] = [
        ("$.properties", names(SessionKey.TopLevel.self)),
        ("$.properties.defaults.properties", names(SessionKey.Defaults.self)),
        ("$.properties.cookies.properties", names(SessionKey.Cookies.self)),
        ("$[\"$defs\"].properties.properties", ObservedProperty.listingOrder.map(\.sessionKey)),
        ("$[\"$defs\"].response.properties", names(SessionKey.Response.self)),
        ("$.properties.defaults.properties.security.properties", names(SessionKey.Security.self)),
        ("$.properties.defaults.properties.tls.properties", names(SessionKey.TLS.self)),
        ("$.properties.requests.items.properties", names(SessionKey.Request.self)),
        ("$[\"$defs\"].headers.additionalProperties.oneOf[1].properties", names(SessionKey.Header.self)),
        ("$[\"$defs\"][\"query-field\"].oneOf[1].properties", names(SessionKey.QueryField.self)),
        ("$.properties.requests.items.properties.body.oneOf[1].properties", names(SessionKey.Body.self)),
        ("$.properties.requests.items.properties.body.oneOf[1].properties.graphql.properties", names(SessionKey.GraphQL.self)),
        ("$.properties.requests.items.properties.files.items.properties", names(SessionKey.FilePart.self)),
        ("$[\"$defs\"].auth.properties", names(SessionKey.Auth.self)),
        ("$.properties.requests.items.properties.upload.oneOf[1].properties", names(SessionKey.Upload.self)),
        ("$.properties.requests.items.properties.capture.additionalProperties.oneOf[1].properties", names(SessionKey.Capture.self)),
        ("$[\"$defs\"].assert.properties", names(SessionKey.Assert.self)),
        ("$[\"$defs\"].assert.properties.errors.items.properties", names(SessionKey.ExpectedError.self)),
        ("$[\"$defs\"].check.oneOf[1].properties", names(SessionKey.Check.self)),
        ("$[\"$defs\"].filters.items.oneOf[1].properties", names(SessionKey.Filter.self)),
        ("$[\"$defs\"].assert.properties.request.properties", names(SessionKey.RequestAssert.self)),
        ("$[\"$defs\"].assert.properties.received.properties", names(SessionKey.RequestAssert.self)),
        ("$.properties.lesson.properties", names(SessionKey.Lesson.self)),
        ("$.properties.lesson.properties.steps.items.properties", names(SessionKey.LessonStep.self)),
        ("$.properties.lesson.properties.steps.items.properties.goals.items.properties", names(SessionKey.LessonGoal.self) + names(SessionKey.Assert.self)),
        ("$.properties.requests.items.properties.recorded.properties", names(SessionKey.Recorded.self)),
        ("$[\"$defs\"][\"retry-policy\"].properties", names(SessionKey.RetryPolicy.self)),
        ("$.properties.requests.items.properties.websocket.properties", names(SessionKey.WebSocket.self)),
        ("$.properties.requests.items.properties.websocket.properties.messages.items.oneOf[1].properties", names(SessionKey.WebSocketMessage.self)),
    ]

    static func names<Key: RawRepresentable<String> & CaseIterable>(_ keys: Key.Type) -> [String] {
        keys.allCases.map(\.rawValue)
    }

    /// The object's property names at `path` in the schema.
    func keys(_ path: String) throws -> [String] {
        let node = try #require(try BodyPath(parsing: path).value(in: schema)?.dictionaryValue, "\(path)")
        return Array(node.keys)
    }

    @Test("the schema names exactly the keys the reader and writer use, in the order Tincan writes them")
    func theSchemaNamesExactlyTheKeysTheReaderAccepts() throws {
        for (path, keys) in Self.mappings {
            #expect(try self.keys(path) == keys, "\(path)")
        }
    }

    @Test("the schema's pin modes are the ones the reader and writer know")
    func pinModes() throws {
        let path = "$.properties.defaults.properties.security.properties[\"pin-mode\"].enum"
        let values = try #require(try BodyPath(parsing: path).value(in: schema))
        #expect(values == .array(Self.names(SessionKey.PinMode.self).map(ParameterValue.string)))
    }

    @Test("every mapping of the schema is compared with a key enum")
    func everyMappingOfTheSchemaIsCompared() throws {
        var found: Set<[BodyPath.Step]> = []
        func walk(_ node: ParameterValue, _ steps: [BodyPath.Step]) {
            guard case .dictionary(let members) = node else { return }
            if case .dictionary(let properties)? = members["properties"] {
                found.insert(steps + [.key("properties")])
                for (name, property) in properties { walk(property, steps + [.key("properties"), .key(name)]) }
            }
            if case .dictionary(let definitions)? = members["$defs"] {
                for (name, definition) in definitions { walk(definition, steps + [.key("$defs"), .key(name)]) }
            }
            for keyword in ["items", "additionalProperties"] {
                if let child = members[keyword] { walk(child, steps + [.key(keyword)]) }
            }
            if case .array(let choices)? = members["oneOf"] {
                for (index, choice) in choices.enumerated() { walk(choice, steps + [.key("oneOf"), .index(index)]) }
            }
        }
        walk(schema, [])
        let compared = Set(try Self.mappings.map { try BodyPath(parsing: $0.path).steps })
        #expect(found.map(BodyPath.text).sorted() == compared.map(BodyPath.text).sorted())
    }
}
