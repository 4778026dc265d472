import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// The parts of a built request a round trip must keep.
struct WireShape: Equatable, CustomStringConvertible {
    var method: String
    var url: String
    var headers: [String]
    var body: [UInt8]

    init(_ request: HTTPRequest) throws {
        method = request.method
        url = request.url.string
        headers = request.headers.map { "\($0.name): \($0.value)" }
        if case .multipart(let form) = request.body {
            // The boundary is random per build; compare the parts instead.
            body = Array(String(decoding: try request.body.collect(), as: UTF8.self).replacingOccurrences(of: form.boundary, with: "BOUNDARY").utf8)
            headers = headers.map { $0.replacingOccurrences(of: form.boundary, with: "BOUNDARY") }
        } else {
            body = try request.body.collect()
        }
    }

    var description: String { "\(method) \(url)\n\(headers.joined(separator: "\n"))\n\n\(String(decoding: body, as: UTF8.self))" }
}

/// Builds request `index` of `session`.
func build(_ session: Session, _ index: Int = 0, directory: String = "/tmp") throws -> HTTPRequest {
    try session.resolve(index, template: Template(variables: [:]), directory: directory).draft.build(boundary: "Boundary+FIXED")
}

@Suite("curl import and export")
struct CurlTests {
    @Test func shellWordsFollowPOSIXQuoting() throws {
        #expect(try ShellWords.split(#"curl -H 'A: b c' "x\"y" a\ b $'l1\nl2\x21' \"# + "\n  --next") == ["curl", "-H", "A: b c", "x\"y", "a b", "l1\nl2!", "--next"])
        #expect(throws: InterchangeError.self) { try ShellWords.split("curl 'open") }
    }

    @Test func aTypicalCommandBecomesARequest() throws {
        let request = try CurlCommand.parse("""
            curl 'https://api.example.com/items?x=1' -X PATCH -H 'Authorization: Bearer t' \\
              -H 'Content-Type: application/json' --data-raw '{"a":1}' --compressed -sS -m 5
            """)
        #expect(request.method == "PATCH")
        #expect(request.url == "https://api.example.com/items?x=1")
        #expect(request.headers == [HeaderSetting(name: "Authorization", value: "Bearer t"), HeaderSetting(name: "Content-Type", value: "application/json")])
        #expect(request.body == .text(#"{"a":1}"#))
        #expect(request.properties.timeoutInterval == 5)
    }

    @Test func curlDefaultsAreKept() throws {
        let form = try CurlCommand.parse("curl example.com/post -d a=1 -d b=2")
        #expect(form.method == "POST")
        #expect(form.url == "http://example.com/post")
        #expect(form.body == .text("a=1&b=2"))
        #expect(form.headers == [HeaderSetting(name: "Content-Type", value: "application/x-www-form-urlencoded")])
        let get = try CurlCommand.parse("curl -G https://h/search --data-urlencode 'q=tin can'")
        #expect(get.method == "GET")
        #expect(get.url == "https://h/search?q=tin%20can")
        #expect(try CurlCommand.parse("curl -I https://h/").method == "HEAD")
        let json = try CurlCommand.parse("curl --json '{\"a\":1}' https://h/")
        #expect(json.headers.map(\.name) == ["Content-Type", "Accept"])
        let multipart = try CurlCommand.parse("curl -F 'name=Ada' -F 'avatar=@a.png;type=image/png' https://h/upload")
        #expect(multipart.serializer == .multipart)
        #expect(multipart.files == [SavedFile(field: "avatar", path: "a.png", type: "image/png")])
        #expect(multipart.params == .dictionary(["name": "Ada"]))
        let auth = try CurlCommand.parse("curl --digest -u ada:pw https://h/")
        #expect(auth.auth == SavedAuth(scheme: .digest, user: "ada", password: "pw"))
    }

    @Test func aRepeatedPlainFormFieldIsRefusedWithTheReason() {
        #expect(throws: InterchangeError("-F 'a=…' is given twice; a parameter holds one value per name (write a[]= for a list)")) {
            try CurlCommand.parse("curl -F a=1 -F a=2 https://h/")
        }
    }

    @Test func unsupportedOptionsAreNamed() {
        #expect(throws: InterchangeError("the curl option --proxy cannot be imported; Tincan imports -X, -H, -d, --data-*, --json, -F, -u, --digest, -b, -A, -e, -G, -I, -T, -m and -o")) {
            try CurlCommand.parse("curl --proxy http://p:1 https://h/")
        }
        #expect(throws: InterchangeError.self) { try CurlCommand.parse("curl -X POST") }
    }

    /// Sessions whose requests cover the serializers, methods, headers and bodies.
    static let roundTripSessions = [
        "base: http://127.0.0.1:9/v1/\nrequests:\n  - method: POST\n    url: items\n    serializer: json\n    headers:\n      X-Trace: a b\n    params:\n      name: Ada\n      tags: [a, \"it's\"]\n",
        "requests:\n  - method: GET\n    url: http://127.0.0.1:9/search\n    params:\n      q: tin can\n      page: 2\n",
        "requests:\n  - method: PUT\n    url: http://127.0.0.1:9/form\n    params:\n      a: \"1&2\"\n      b: ü\n",
        "requests:\n  - method: POST\n    url: http://127.0.0.1:9/raw\n    headers:\n      Content-Type: text/plain\n    body: |-\n      line 'one'\n      line two\n",
        "requests:\n  - method: DELETE\n    url: http://127.0.0.1:9/items/1\n    auth:\n      user: ada\n      password: p:w\n",
        "requests:\n  - method: HEAD\n    url: http://127.0.0.1:9/head\n",
        "requests:\n  - method: POST\n    url: http://127.0.0.1:9/bin\n    body:\n      base64: AP8KJw==\n",
        "requests:\n  - method: POST\n    url: http://127.0.0.1:9/plist\n    serializer: plist\n    params:\n      a: [1, 2]\n",
    ]

    @Test(arguments: roundTripSessions)
    func exportThenImportKeepsMethodURLHeadersAndBody(_ text: String) throws {
        let session = try Session.parse(text, path: "s.yaml")
        let original = try build(session)
        let command = CurlCommand.export(original)
        let imported = try CurlCommand.parse(command)
        let rebuilt = try build(Session(requests: [imported]))
        #expect(try WireShape(rebuilt) == WireShape(original), "\(command)")
    }

    @Test func multipartFormsRoundTripThroughDashF() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a.txt", Array("file body".utf8))
        let session = try Session.parse("requests:\n  - method: POST\n    url: http://127.0.0.1:9/up\n    serializer: multipart\n    params:\n      name: Ada\n      tags: [a, b]\n      user:\n        role: admin\n    files:\n      - field: doc\n        path: a.txt\n        type: text/plain\n", path: "s.yaml")
        let original = try build(session, directory: directory.path)
        let command = CurlCommand.export(original)
        #expect(command.contains("--form-string name=Ada"))
        #expect(command.contains("--form-string 'tags[]=a' \\\n  --form-string 'tags[]=b'"), "both list elements are exported")
        #expect(command.contains("-F 'doc=@\(directory.path)/a.txt;type=text/plain'"))
        let rebuilt = try build(Session(requests: [try CurlCommand.parse(command)]), directory: directory.path)
        #expect(try WireShape(rebuilt) == WireShape(original))
    }
}

@Suite(".http import and export")
struct HTTPFileTests {
    static let sample = """
        @host = http://127.0.0.1:9
        @token = {{$processEnv API_TOKEN}}

        ### List items
        GET {{host}}/items
            ?page=2
            &sort=name
        Accept: application/json

        ###
        # @name create
        POST {{host}}/items HTTP/1.1
        Content-Type: application/json
        Authorization: Bearer {{token}}

        {
          "name": "Ada"
        }

        > {%
            client.global.set("id", response.body.id);
        %}

        ### Upload
        PUT {{host}}/file
        Content-Type: text/plain

        < ./data.txt
        """

    @Test func requestsVariablesNamesAndBodiesAreImported() throws {
        let imported = try HTTPFile.parse(Self.sample, path: "api.http")
        let session = imported.session
        #expect(session.variables["host"] == "http://127.0.0.1:9")
        #expect(session.variables["token"] == "{{$env.API_TOKEN}}")
        #expect(session.requests.map(\.name) == ["List items", "create", "Upload"])
        #expect(session.requests[0].url == "{{host}}/items?page=2&sort=name")
        #expect(session.requests[1].method == "POST")
        #expect(session.requests[1].body == .text("{\n  \"name\": \"Ada\"\n}"))
        #expect(session.requests[1].line == 12)
        #expect(session.requests[2].body == .file("./data.txt"))
        #expect(imported.warnings == ["api.http:20: skipped a response handler; use capture: and assert: in the session instead"])
    }

    @Test func aBadLineIsNamed() {
        #expect(throws: InterchangeError("bad.http:3: expected a header 'Name: value' or a blank line before the body, found 'not a header'")) {
            try HTTPFile.parse("GET http://h/\nAccept: */*\nnot a header\n", path: "bad.http")
        }
    }

    @Test(arguments: CurlTests.roundTripSessions.filter { !$0.contains("base64") })
    func exportThenImportKeepsMethodURLHeadersAndBody(_ text: String) throws {
        let original = try build(try Session.parse(text, path: "s.yaml"))
        let exported = try HTTPFile.export([("r", original)])
        let imported = try HTTPFile.parse(exported, path: "r.http").session
        var expected = try WireShape(original)
        // .http files end a body at the last line with text: a final newline is not kept,
        // as in VS Code REST Client and JetBrains (docs/session-format.md says so).
        if expected.body.last == 0x0A { expected.body.removeLast() }
        #expect(try WireShape(build(imported)) == expected, "\(exported)")
    }

    @Test func binaryBodiesAreRefusedWithTheReason() throws {
        let original = try build(try Session.parse("requests:\n  - method: POST\n    url: http://h/\n    body:\n      base64: AP8=\n", path: "s.yaml"))
        #expect(throws: InterchangeError.self) { try HTTPFile.export([("bin", original)]) }
    }
}
