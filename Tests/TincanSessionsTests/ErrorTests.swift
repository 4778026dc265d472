import Foundation
import TestSupport
import Testing
import TincanCore
@testable import TincanSessions

/// The error's text, or a note that nothing was thrown.
private func text(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "(no error)"
    } catch {
        return "\(error)"
    }
}

private let curlReads = "--request, --header, --data, --data-ascii, --data-binary, --data-raw, --data-urlencode, --json, --form, --form-string, --user, --digest, --basic, --url, --user-agent, --referer, --cookie, --upload-file, --output, --max-time, --speed-time, --speed-limit, --connect-timeout, --cacert, --insecure, --limit-rate, --head, --get, --location, --max-redirs, --compressed, --http2, --http1.0, --http1.1, --tr-encoding, --retry, --retry-delay, --retry-max-time, --proxy, --noproxy, --cert, --key"

/// The error `range` gives for `text`.
private func rangeError(_ range: NumericRange, _ text: String) -> NumericRangeError {
    do {
        _ = try range.value(parsing: text)
        fatalError("\(range.name) takes \(text)")
    } catch {
        return error
    }
}

/// The error a nested parameter name gives.
private func nameError(_ name: String) -> RequestItemError {
    do {
        _ = try ParameterPath(parsing: name)
        fatalError("\(name) parses")
    } catch {
        return error
    }
}

/// What `body` threw, if it was an `E`.
private func thrown<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do {
        try body()
        return nil
    } catch {
        return error as? E
    }
}

/// Every import and export error: its case, its place, and its message word for word (users
/// and scripts read them).
@Suite("Interchange errors")
struct InterchangeErrorTests {
    @Test(arguments: [
        ("curl 'open", InterchangeError(.unclosedQuote(.single)), "a single quote is not closed"),
        ("curl \"open", InterchangeError(.unclosedQuote(.double)), "a double quote is not closed"),
        ("curl $'open", InterchangeError(.unclosedQuote(.ansiC)), "a $'…' quote is not closed"),
    ])
    func shellWords(_ command: String, _ expected: InterchangeError, _ message: String) {
        #expect(thrown(InterchangeError.self) { _ = try ShellWords.split(command) } == expected)
        #expect(expected.description == message)
    }

    @Test(arguments: [
        ("curl", InterchangeError(.emptyCommand), "expected a curl command such as curl -X POST https://example.com -d a=1"),
        ("curl -X", InterchangeError(.missingValue(option: "-X")), "-X needs a value"),
        ("curl http://h/ --data", InterchangeError(.missingValue(option: "--data")), "--data needs a value"),
        ("curl http://a/ http://b/", InterchangeError(.twoURLs("http://a/", "http://b/")), "two URLs ('http://a/' and 'http://b/'); Tincan imports one request at a time"),
        ("curl http://a/ --url http://b/", InterchangeError(.twoURLs("http://a/", "http://b/")), "two URLs ('http://a/' and 'http://b/'); Tincan imports one request at a time"),
        ("curl --socks5 p http://h/", InterchangeError(.unsupportedOption("--socks5")),
         "the curl option --socks5 cannot be imported; Tincan reads \(curlReads), and options that only change curl's output"),
        ("curl -sZ http://h/", InterchangeError(.unsupportedOption("-Z")),
         "the curl option -Z cannot be imported; Tincan reads \(curlReads), and options that only change curl's output"),
        ("curl -H nocolon http://h/", InterchangeError(.notAHeader("nocolon")), "-H 'nocolon' is not a header; expected 'Name: value'"),
        ("curl -H 'Bad Name: v' http://h/", InterchangeError(.invalidHeaderName("Bad Name"), at: "-H 'Bad Name: v'"), "-H 'Bad Name: v': 'Bad Name' is not a valid header name"),
        ("curl -d @- http://h/", InterchangeError(.dataFromStandardInput(option: "--data")),
         "--data @- reads standard input, which cannot be imported; save the data to a file and give @FILE"),
        ("curl --data-binary @- http://h/", InterchangeError(.dataFromStandardInput(option: "--data-binary")),
         "--data-binary @- reads standard input, which cannot be imported; save the data to a file and give @FILE"),
        ("curl -b cookies.txt http://h/", InterchangeError(.cookieFile("cookies.txt")),
         "-b 'cookies.txt' reads cookies from a file, which cannot be imported; give them as -b 'name=value'"),
        ("curl -T - http://h/", InterchangeError(.uploadFromStandardInput("-")),
         "-T - reads standard input, which cannot be imported; save the data to a file and give -T FILE"),
        ("curl -F novalue http://h/", InterchangeError(.notAFormField(option: "-F", text: "novalue")), "-F 'novalue' is not a form field; expected name=value or name=@file"),
        ("curl --form-string novalue http://h/", InterchangeError(.notAFormField(option: "--form-string", text: "novalue")),
         "--form-string 'novalue' is not a form field; expected name=value or name=@file"),
        ("curl -F 'a=<nonexistent/x' http://h/", InterchangeError(.formFieldFileUnreadable(name: "a", path: "nonexistent/x")),
         "-F 'a=<nonexistent/x': the file cannot be read as text, and a form field's value is text; send it as a file part with -F 'a=@nonexistent/x'"),
        ("curl -m soon http://h/", InterchangeError(.invalidNumber(rangeError(NumericRange.deadline.named("-m"), "soon"))),
         "-m: 'soon' is not a number; expected 0.001…2147483 seconds, such as 30 or 2.5"),
        ("curl -X POST", InterchangeError(.noURL), "the curl command has no URL"),
        ("curl -F a=1 -d b=2 http://h/", InterchangeError(.formWithData), "-F and -d cannot go together: a body is either a form or data"),
        ("curl -T f -d a http://h/", InterchangeError(.uploadWithBody), "-T sends a file as the body, so it cannot go with -d or -F"),
        ("curl -X 'G T' http://h/", InterchangeError(.invalidMethod("G T")), "-X 'G T' is not a method"),
        ("curl -d a -d @nonexistent/x http://h/", InterchangeError(.joinedFileUnreadable(path: "nonexistent/x", directory: "/tmp")),
         "@nonexistent/x cannot be read (from /tmp), and its data is joined with other data, so it must be read now"),
        ("curl -T f --limit-rate fast http://h/", InterchangeError(.invalidRate("fast")), "--limit-rate 'fast' is not a rate; expected bytes per second such as 64k"),
        ("curl -F a=1 -F a=2 http://h/", InterchangeError(.repeatedField("a"), at: "-F 'a=…'"),
         "-F 'a=…': the field a is given twice; a parameter holds one value per name (write a[] for a list)"),
        ("curl -F 'a[=1' http://h/", InterchangeError(.invalidFieldName(nameError("a[")), at: "-F 'a[=…'"),
         "-F 'a[=…': bad request item 'a[': expected ']' to close '[' in the parameter name"),
    ])
    func curlImport(_ command: String, _ expected: InterchangeError, _ message: String) {
        #expect(thrown(InterchangeError.self) { _ = try CurlCommand.parse(command, workingDirectory: "/tmp") } == expected)
        #expect(expected.description == message)
    }

    @Test(arguments: [
        ("", InterchangeError(.noRequests, at: "x.http"), "x.http: no requests found; expected a line such as 'GET https://example.com'"),
        ("GET http://h/\nnot a header\n", InterchangeError(.expectedHeader(found: "not a header"), at: "x.http:2"),
         "x.http:2: expected a header 'Name: value' or a blank line before the body, found 'not a header'"),
        ("GET http://h/\nBad Name: v\n", InterchangeError(.invalidHeaderName("Bad Name"), at: "x.http:2"), "x.http:2: 'Bad Name' is not a valid header name"),
        ("@novalue\n", InterchangeError(.expectedVariable, at: "x.http:1"), "x.http:1: expected a variable '@name = value'"),
        ("@ = v\n", InterchangeError(.expectedVariableName, at: "x.http:1"), "x.http:1: expected a variable name after '@'"),
        ("not a request line\n", InterchangeError(.expectedRequestLine(found: "not a request line"), at: "x.http:1"),
         "x.http:1: expected a request line 'METHOD URL', found 'not a request line'"),
        ("# @timeout soon\nGET http://h/\n", InterchangeError(.invalidTimeout("soon"), at: "x.http:1"),
         "x.http:1: @timeout soon is not a timeout; expected seconds, or a number with ms, s or m"),
        ("# @timeout 0 ms\nGET http://h/\n", InterchangeError(.invalidTimeout("0 ms"), at: "x.http:1"),
         "x.http:1: @timeout 0 ms is not a timeout; expected seconds, or a number with ms, s or m"),
        ("POST http://h/\nContent-Type: multipart/form-data\n\n--b\n", InterchangeError(.noBoundary, at: "x.http:4"),
         "x.http:4: the multipart body's Content-Type names no boundary; expected 'multipart/form-data; boundary=…'"),
        ("POST http://h/\nContent-Type: multipart/form-data; boundary=b\n\ntext\n--b\n", InterchangeError(.expectedFirstBoundary("b"), at: "x.http:4"),
         "x.http:4: expected the first boundary line '--b' of the multipart body"),
        ("POST http://h/\nContent-Type: multipart/form-data; boundary=b\n\n--b\nnot header\n", InterchangeError(.expectedPartHeader(found: "not header"), at: "x.http:5"),
         "x.http:5: expected a part header 'Name: value' or a blank line, found 'not header'"),
        ("POST http://h/\nContent-Type: multipart/form-data; boundary=b\n\n--b\nContent-Disposition: form-data; name=\"a\"\n\n1\n--b\nContent-Disposition: form-data; name=\"a\"\n\n2\n--b--\n",
         InterchangeError(.repeatedField("a"), at: "x.http:8"),
         "x.http:8: the field a is given twice; a parameter holds one value per name (write a[] for a list)"),
    ])
    func httpFileImport(_ file: String, _ expected: InterchangeError, _ message: String) {
        #expect(thrown(InterchangeError.self) { _ = try HTTPFile.parse(file, path: "x.http", directory: "/tmp") } == expected)
        #expect(expected.description == message)
    }

    @Test func httpFileExport() throws {
        func built(_ yaml: String) throws -> HTTPRequest {
            try Session.parse(yaml, path: "s.yaml").resolve(0, template: Template(variables: [:]), directory: "/tmp").draft.build()
        }
        let binary = try built("requests:\n  - method: POST\n    url: http://h/\n    body:\n      base64: AP8=\n")
        let binaryError = thrown(InterchangeError.self) { _ = try HTTPFile.export([("bin", binary, nil)]) }
        #expect(binaryError == InterchangeError(.binaryBody(request: "bin")))
        #expect(binaryError?.description == "request 'bin' has a binary body, which .http files cannot hold; save it to a file and use body: {file: PATH}")
        let syntax = try built("requests:\n  - method: POST\n    url: http://h/\n    body: \"a\\n< not a file\"\n")
        let syntaxError = thrown(InterchangeError.self) { _ = try HTTPFile.export([("lt", syntax, nil)]) }
        #expect(syntaxError == InterchangeError(.bodyLineIsSyntax("< not a file"), at: "request 'lt'"))
        #expect(syntaxError?.description
            == "request 'lt': the body line '< not a file' would be read as .http syntax, not text; save the body to a file and use body: {file: PATH}")
        #expect(InterchangeError(.binaryFormPart, at: "request 'f'").description
            == "request 'f': a form part holds bytes that are not text, which .http files cannot hold; send it as a file part")
        #expect(InterchangeError(.streamFormPart, at: "request 'f'").description
            == "request 'f': a form part is a stream, which .http files cannot hold; send it as a file part")
    }
}

/// Every error of sessions, replay and history: its case, and its message word for word.
@Suite("Session errors")
struct SessionErrorTests {
    @Test func environments() throws {
        let session = try Session.parse("environments:\n  ci:\n    a: 1\n  dev:\n    a: 2\nrequests: []\n", path: "s.yaml")
        #expect(text { _ = try session.variables(environment: "prod", overrides: [:]) } == "there is no environment 'prod'; expected one of: ci, dev")
        #expect(text { _ = try Session().variables(environment: "prod", overrides: [:]) } == "there is no environment 'prod'; the session defines none")
        #expect(thrown(SessionError.self) { _ = try session.variables(environment: "prod", overrides: [:]) } == SessionError(.unknownEnvironment("prod", defined: ["ci", "dev"])))
    }

    @Test func aDownloadIntoAMissingFolderStopsTheReplay() async throws {
        let session = try Session.parse("requests:\n  - url: http://127.0.0.1:9/x\n    download: /nonexistent/out.bin\n", path: "s.yaml")
        var thrown: (any Error)?
        do {
            _ = try await Replayer(session: session, path: "/tmp/s.yaml").run()
        } catch {
            thrown = error
        }
        let folder = DownloadDestinationError(path: "/nonexistent/out.bin", folder: "/nonexistent", reason: .missing)
        #expect(thrown as? SessionError == SessionError(.downloadFolder(request: "#1 GET http://127.0.0.1:9/x", line: 2, folder)))
        #expect(thrown.map { "\($0)" } == "request '#1 GET http://127.0.0.1:9/x' (line 2): \(folder)")
    }

    @Test func variables() throws {
        #expect(text { _ = try Template(variables: ["host": "h"]).expand("{{hots}}") }
            == "the variable {{hots}} is not defined (defined: host); give it with --var hots=VALUE, in variables:, or capture it in an earlier request")
        #expect(text { _ = try Template(variables: [:]).expand("{{x}}") }
            == "the variable {{x}} is not defined (no variables are defined); give it with --var x=VALUE, in variables:, or capture it in an earlier request")
        #expect(text { _ = try Template(variables: ["a": "{{b}}", "b": "{{a}}"]).expand("{{a}}") } == "{{a}}: the variables refer to one another in a cycle: a → b → a")
        #expect(text { _ = try Template(variables: [:], environment: [:]).expand("{{$env.TOKEN}}") } == "{{$env.TOKEN}}: the environment variable TOKEN is not set")
        var doubling: [String: ParameterValue] = ["v40": "x"]
        for level in 0..<40 { doubling["v\(level)"] = .string("{{v\(level + 1)}}{{v\(level + 1)}}") }
        #expect(text { _ = try Template(variables: doubling).expand("{{v0}}") }
            == "{{v0}}: expanding it follows more than 100000 references; do its variables refer to one another many times over?")
        #expect(thrown(MissingVariableError.self) { _ = try Template(variables: ["host": "h"]).expand("{{hots}}") } == MissingVariableError(name: "hots", .undefined(known: ["host"])))
        #expect(thrown(MissingVariableError.self) { _ = try Template(variables: ["a": "{{b}}", "b": "{{a}}"]).expand("{{a}}") } == MissingVariableError(name: "a", .cycle(["a", "b", "a"])))
        #expect(thrown(MissingVariableError.self) { _ = try Template(variables: [:], environment: [:]).expand("{{$env.TOKEN}}") }
            == MissingVariableError(name: "$env.TOKEN", .environmentVariableNotSet("TOKEN")))
        #expect(thrown(MissingVariableError.self) { _ = try Template(variables: doubling).expand("{{v0}}") } == MissingVariableError(name: "v0", .tooManyReferences))
    }

    @Test func resolution() throws {
        // The reader checks a rate as written, so only a rate that is a variable fails here.
        var request = SavedRequest(method: "PUT", url: "http://h/")
        request.upload = SavedUpload(file: "a.bin", rate: "{{rate}}")
        request.line = 2
        let session = Session(requests: [request])
        #expect(text { _ = try session.resolve(0, template: Template(variables: ["rate": "fast"]), directory: "/tmp", file: "s.yaml") }
            == "s.yaml:2: request '#1 PUT http://h/': upload rate: 'fast' is not a number; expected 1…1000000000000 bytes per second, such as 50000, 64k or 1.5M")
        #expect(text { _ = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp") }
            == "request '#1 PUT http://h/': the variable {{rate}} is not defined (no variables are defined); give it with --var rate=VALUE, in variables:, or capture it in an earlier request")
        #expect(thrown(RequestResolutionError.self) { _ = try session.resolve(0, template: Template(variables: ["rate": "fast"]), directory: "/tmp", file: "s.yaml") }
            == RequestResolutionError(request: "#1 PUT http://h/", file: "s.yaml", line: 2,
                                      reason: .invalidUploadRate(rangeError(NumericRange.uploadRate.named("upload rate"), "fast"))))
        #expect(thrown(RequestResolutionError.self) { _ = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp") }?.reason
            == .missingVariable(MissingVariableError(name: "rate", .undefined(known: []))))
    }

    @Test(arguments: [
        ("$.a.", BodyPathError.Reason.expectedMemberName, "bad body path '$.a.': expected a member name after '.'"),
        ("$[\"a", .unclosedQuotedName("\""), "bad body path '$[\"a': expected \"] to close the quoted member name"),
        ("$[x]", .expectedIndex, "bad body path '$[x]': expected an index such as [0] or [-1], or a quoted name such as [\"a.b\"]"),
        ("$a", .unexpected("a"), "bad body path '$a': expected '.' or '[' at 'a'"),
    ])
    func bodyPaths(_ path: String, _ reason: BodyPathError.Reason, _ expected: String) {
        #expect(thrown(BodyPathError.self) { _ = try BodyPath(parsing: path) } == BodyPathError(path: path, reason: reason))
        #expect(text { _ = try BodyPath(parsing: path) } == expected)
    }

    @Test func historyLineErrorsHaveCases() {
        func error(_ line: String) -> HistoryLineError? { thrown(HistoryLineError.self) { _ = try HistoryEntry(jsonLine: line) } }
        if case .notJSON? = error("not json") {} else { Issue.record("not JSON") }
        #expect(error("[1]") == .notAnObject)
        #expect(error(#"{"time": 1, "method": 2, "url": "u"}"#) == .notAString(key: "method"))
        #expect(error(#"{"method": "GET", "url": "u"}"#) == .missingTime)
        if case .invalidStatus(let range)? = error(#"{"time": 1, "status": 1e300, "method": "GET", "url": "u"}"#) {
            #expect(range.reason == .outOfRange)
        } else {
            Issue.record("status")
        }
        #expect(error(#"{"time": 1, "url": "u"}"#) == .missingMethodOrURL)
        #expect(error(#"{"time": 1, "method": "GET", "url": "u", "serializer": "xml"}"#) == .unknownSerializer("xml"))
        #expect(error(#"{"time": 1, "method": "GET", "url": "u", "headers": 3}"#) == .notPairs(key: "headers"))
    }

    @Test(arguments: [
        ("not json", "not JSON: line 1, column 1: expected a value (object, array, string, number, true, false or null)"),
        ("[1]", "expected a JSON object"),
        (#"{"time": 1, "method": 2, "url": "u"}"#, "'method' must be a string"),
        (#"{"method": "GET", "url": "u"}"#, "'time' (seconds since 1970) is missing"),
        (#"{"time": 1, "status": 1e300, "method": "GET", "url": "u"}"#, "status: 1e+300 is out of range (100…599)"),
        (#"{"time": 1, "url": "u"}"#, "'method' and 'url' are required"),
        (#"{"time": 1, "method": "GET", "url": "u", "serializer": "xml"}"#, "'serializer' is 'xml', expected one of form, json, plist, multipart"),
        (#"{"time": 1, "method": "GET", "url": "u", "headers": 3}"#, "'headers' must be a list of [name, value] pairs"),
        (#"{"time": 1, "method": "GET", "url": "u", "query": [[1, "a"]]}"#, "'query' must be a list of [name, value] pairs"),
        (#"{"time": 1, "method": "GET", "url": "u", "files": [["a", 1]]}"#, "'files' must be a list of [name, value] pairs"),
    ])
    func historyLines(_ line: String, _ expected: String) {
        #expect(text { _ = try HistoryEntry(jsonLine: line) } == expected)
    }

    @Test func historyLinesThatAreNotReadAreReportedWithTheirPlace() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("history.jsonl", Array("[1]\n".utf8))
        #expect(HistoryStore(path: path).load().problems == ["\(path):1: expected a JSON object; the line was skipped"])
    }

    @Test func aHistoryFileThatCannotBeWrittenIsNamed() {
        let message = text { try HistoryStore.appendLine("x", to: "/dev/null/tincan/history.jsonl") }
        guard case .directoryNotCreated? = thrown(HistoryWriteError.self, { try HistoryStore.appendLine("x", to: "/dev/null/tincan/history.jsonl") })?.reason else {
            Issue.record("expected the folder to be refused")
            return
        }
        #expect(HistoryWriteError(path: "h", reason: .shortWrite).description == "h: the history entry was not written: a short write")
        #expect(HistoryWriteError(path: "h", reason: .cannotOpen("Permission denied")).description == "h: the history entry was not written: Permission denied")
        #expect(message.hasPrefix("/dev/null/tincan/history.jsonl: the history entry was not written: its directory could not be created: "), "\(message)")
    }
}

@Suite("Capture failures")
struct CaptureFailureTests {
    private func failures(_ body: String?, _ captures: [(String, CaptureSource)]) -> [String] {
        let request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://127.0.0.1:9/x"))
        let response = body.map { _ in HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "text/plain")])) }
        let result = TaskResult(request: request, response: response, data: Array((body ?? "").utf8))
        var saved = SavedRequest(url: "/x")
        for (name, source) in captures { saved.captures[name] = source }
        return ResponseEvaluation(saved, result: result, template: Template(variables: [:])).checks
            .filter { $0.name.hasPrefix("capture ") }.map { "\($0.name): \($0.failure ?? "passed")" }
    }

    @Test func everyReasonACaptureFindsNothing() throws {
        #expect(failures(nil, [("s", .status)]) == ["capture s: no response"])
        #expect(failures("plain text", [
            ("h", .header("ETag")),
            ("b", .body(try BodyPath(parsing: "$.id"))),
            ("r", .regex("(")),
            ("n", .regex("nomatch")),
            ("e", .regex("(z)?plain")),
        ]) == [
            "capture h: the response has no ETag header",
            "capture b: the body is not JSON or a property list, so $.id has no value",
            "capture r: '(' is not a regular expression",
            "capture n: /nomatch/ does not match the body",
            "capture e: /(z)?plain/ matched nothing",
        ])
        #expect(failures(#"{"a": 1}"#, [("b", .body(try BodyPath(parsing: "$.id")))]) == ["capture b: $.id is not in the body"])
    }

    @Test func eachReasonIsACase() throws {
        let request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://127.0.0.1:9/x"))
        let response = HTTPResponse(url: request.url, statusCode: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]))
        let text = ResponseChecker(result: TaskResult(request: request, response: response, data: Array("plain".utf8)), template: Template(variables: [:]))
        let json = ResponseChecker(result: TaskResult(request: request, response: response, data: Array(#"{"a": 1}"#.utf8)), template: Template(variables: [:]))
        let none = ResponseChecker(result: TaskResult(request: request), template: Template(variables: [:]))
        let id = try BodyPath(parsing: "$.id")
        func failure(_ checker: ResponseChecker, _ source: CaptureSource) -> CaptureFailure? {
            if case .failure(let failure) = checker.capture(source) { return failure }
            return nil
        }
        #expect(failure(none, .status) == .noResponse)
        #expect(failure(text, .header("ETag")) == .noHeader("ETag"))
        #expect(failure(text, .body(id)) == .bodyNotStructured(id))
        #expect(failure(json, .body(id)) == .notInBody(id))
        #expect(failure(text, .regex("(")) == .invalidPattern("("))
        #expect(failure(text, .regex("x")) == .noMatch("x"))
        #expect(failure(text, .regex("(z)?plain")) == .emptyMatch("(z)?plain"))
        #expect(failure(json, .body(try BodyPath(parsing: "$.a"))) == nil)
    }
}
