import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanCore
import TincanSessions

/// Runs `tincan send --offline …` with a fixed locale, so default headers are the same everywhere.
private func send(_ arguments: [String], in directory: String? = nil) async throws -> ProcessResult {
    try await run(BuiltProducts.tincan, ["send", "--offline"] + arguments, environment: ["LANG": "en_US.UTF-8", "LANGUAGE": "", "LC_ALL": ""], currentDirectory: directory)
}

private func json(_ result: ProcessResult) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any])
}

private let defaultHeaders = [
    ["User-Agent", RequestSettings.userAgent], ["Accept", "*/*"], ["Accept-Encoding", "gzip, deflate"], ["Accept-Language", "en-US;q=1"],
]

@Suite("tincan send --offline prints the request it would send")
struct SendOfflineTests {
    @Test func jsonFormatIsExactlyTheDocumentedObject() async throws {
        let result = try await send(["--format", "json", "--base", "http://example.com/v1", "GET", "foo", "key=value", "key1=value&"])
        #expect(result.status == 0)
        let object = try json(result)
        #expect(Set(object.keys) == ["method", "url", "headers", "body", "bodyBase64"])
        #expect(object["method"] as? String == "GET")
        #expect(object["url"] as? String == "http://example.com/v1/foo?key=value&key1=value%26")
        #expect(object["headers"] as? [[String]] == [["Host", "example.com"]] + defaultHeaders)
        #expect(object["body"] is NSNull)
        #expect(object["bodyBase64"] is NSNull)
    }

    @Test func textFormatIsTheWireForm() async throws {
        let result = try await send(["POST", "http://127.0.0.1:8080/post", "b=2", "a=x y", "-H", "X-Trace: 1"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            POST /post HTTP/1.1
            Host: 127.0.0.1:8080
            User-Agent: \(RequestSettings.userAgent)
            Accept: */*
            Accept-Encoding: gzip, deflate
            Accept-Language: en-US;q=1
            Content-Type: application/x-www-form-urlencoded
            X-Trace: 1
            Content-Length: 11

            a=x%20y&b=2

            """)
    }

    @Test func paramsJSONKeepsItsExactNestedStructure() async throws {
        let result = try await send(["--format", "json", "--serializer", "json", "--params-json", #"{"z":[1,{"k":null}],"a":true}"#, "PUT", "http://h/x"])
        let object = try json(result)
        #expect(object["body"] as? String == #"{"z":[1,{"k":null}],"a":true}"#)
        #expect((object["headers"] as? [[String]])?.contains(["Content-Type", "application/json"]) == true)
        #expect((object["headers"] as? [[String]])?.last == ["Content-Length", "29"])
    }

    @Test func aPostWithNoParametersSendsAnEmptyFormBody() async throws {
        let object = try json(try await send(["--format", "json", "POST", "http://h/"]))
        #expect(object["body"] as? String == "")
        #expect((object["headers"] as? [[String]])?.suffix(2) == [["Content-Type", "application/x-www-form-urlencoded"], ["Content-Length", "0"]])
    }

    @Test func perRequestHeadersReplaceDefaultsAndItemsCanRemoveThem() async throws {
        let object = try json(try await send(["--format", "json", "GET", "http://h/", "-H", "accept: application/json", "User-Agent:"]))
        let headers = try #require(object["headers"] as? [[String]])
        #expect(headers.filter { $0[0].lowercased() == "accept" } == [["accept", "application/json"]])
        #expect(!headers.contains { $0[0] == "User-Agent" })
    }

    @Test func repeatedHeaderOptionsApplyInOrderSoTheLastWins() async throws {
        let object = try json(try await send(["--format", "json", "GET", "http://h/", "-H", "X-A: 1", "-H", "X-B: 2", "-H", "X-A: 3"]))
        let custom = (object["headers"] as? [[String]])?.filter { $0[0].hasPrefix("X-") }
        #expect(custom == [["X-A", "3"], ["X-B", "2"]])
    }

    @Test func userBecomesBasicAuthorization() async throws {
        let object = try json(try await send(["--format", "json", "--user", "ann:secret", "GET", "http://h/"]))
        #expect((object["headers"] as? [[String]])?.contains(["Authorization", "Basic YW5uOnNlY3JldA=="]) == true)
    }

    @Test func queryItemsGoInTheURLEvenForPost() async throws {
        let object = try json(try await send(["--format", "json", "--serializer", "plist", "POST", "http://h/p?x=1", "page==2", "n:=3"]))
        #expect(object["url"] as? String == "http://h/p?x=1&page=2")
        #expect((object["body"] as? String)?.contains("<key>n</key>\n\t<integer>3</integer>") == true)
    }

    @Test func binaryMultipartBodiesAreBase64InJSONAndSummarisedInText() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("pic.png", [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let jsonResult = try await send(["--format", "json", "--boundary", "XYZ", "POST", "http://h/up", "photo@pic.png", "t=1"], in: directory.path)
        #expect(jsonResult.status == 0)
        let object = try json(jsonResult)
        #expect(object["body"] is NSNull)
        let base64 = try #require(object["bodyBase64"] as? String)
        let body = try #require(Data(base64Encoded: base64))
        let expected = "--XYZ\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\n1\r\n--XYZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"pic.png\"\r\nContent-Type: image/png\r\n\r\n"
        #expect(body.starts(with: Data(expected.utf8)))
        #expect(body.suffix(13) == Data([0x00, 0xFF] + Array("\r\n--XYZ--\r\n".utf8)))
        #expect((object["headers"] as? [[String]])?.last == ["Content-Length", String(body.count)])

        let text = try await send(["--boundary", "XYZ", "POST", "http://h/up", "photo@pic.png"], in: directory.path)
        #expect(text.stdout.contains("Content-Type: multipart/form-data; boundary=XYZ"))
        #expect(text.stdout.contains("<file \(directory.path)/pic.png: 6 bytes>"))
        #expect(text.stdout.contains("<multipart body: 1 part, "))
    }

    @Test func textBodiesSplitAcrossReadChunksStayIntactInJSON() async throws {
        let directory = try TemporaryDirectory()
        let text = String(repeating: "añ👍🏽中\"\\\n", count: 20_000)
        try directory.write("notes.txt", Array(text.utf8))
        let object = try json(try await send(["--format", "json", "--boundary", "B", "POST", "http://h/", "f@notes.txt"], in: directory.path))
        let body = try #require(object["body"] as? String)
        #expect(body.contains(text))
    }
}

@Suite("tincan send explains bad input and exits 2")
struct SendBadInputTests {
    @Test(arguments: [
        (["GET", "http://h/", "--params-json", "{\"a\":}"], "--params-json is not valid JSON: line 1, column 6"),
        (["GET", "http://h/", "novalue"], "bad request item 'novalue': expected name=value"),
        (["GET", "http://h/", "n:=[1,"], "bad request item 'n:=[1,'"),
        (["--serializer", "xml", "GET", "http://h/"], "The value 'xml' is invalid for '--serializer <KIND>'. Please provide one of 'form', 'json', 'plist' or 'multipart'."),
        (["GET", "ftp://h/"], "The URL 'ftp://h/' cannot be used: the scheme 'ftp' is not http or https"),
        (["GET", "http://h:99999/"], "the port 99999 is out of range (0…65535)"),
        (["GET", "http://h/", "-H", "NoColon"], "-H 'NoColon' is not a header; expected 'Name: value'"),
        (["--format", "yaml", "GET", "http://h/"], "The value 'yaml' is invalid for '--format <FORMAT>'. Please provide one of 'text', 'json' or 'markdown'."),
        (["--auth-type", "ntlm", "GET", "http://h/"], "The value 'ntlm' is invalid for '--auth-type <TYPE>'. Please provide one of 'basic', 'digest' or 'oauth2'."),
        (["--pin-mode", "spki", "GET", "http://h/"], "The value 'spki' is invalid for '--pin-mode <MODE>'. Please provide one of 'certificate' and 'public-key'."),
        (["--response-serializer", "yaml", "GET", "http://h/"], "The value 'yaml' is invalid for '--response-serializer <KIND>'."),
        (["GET H", "http://h/"], "METHOD 'GET H' is not a method"),
        (["--serializer", "json", "POST", "http://h/", "--params-json", "\"text\""], "not valid JSON: the top level is a string"),
        (["GET", "http://h/", "f@missing.bin"], "multipart body cannot be sent with GET"),
        (["POST", "http://h/", "f@/nonexistent/file.bin"], "File not reachable: '/nonexistent/file.bin'"),
        (["--timeout=-1", "GET", "http://h/"], "The value '-1' is invalid for '--timeout <SECONDS>': -1 is out of range (0.001…2147483 seconds)"),
        (["--upload", "/nonexistent/up.bin", "PUT", "http://h/"], "--upload: File not reachable: '/nonexistent/up.bin'"),
        (["--upload", "/tmp", "PUT", "http://h/"], "--upload: '/tmp' is not a regular file."),
        (["GET"], "a URL is missing after the method GET: tincan send [METHOD] URL [ITEM...]"),
        ([], "a URL is missing: tincan send [METHOD] URL [ITEM...]"),
        // HTTPie's `--download URL` (a flag there): the URL went to --download.
        (["--download", "http://h/file.bin"], "a URL is missing: --download (-o) takes the FILE to save to, and took 'http://h/file.bin' as that file; write tincan send URL --download FILE"),
        (["-o", "localhost:8080/x"], "took 'localhost:8080/x' as that file"),
        (["-o", "out.bin"], "a URL is missing: tincan send [METHOD] URL [ITEM...]"),
        // curl's -d and -X, and HTTPie's -d (download).
        (["-d", "a=1", "http://h/"], "-d is not an option of tincan send: give the body as items (name=value, name:=JSON, name=@file) or --raw TEXT"),
        (["-d", "http://h/"], "to save the body to a file, --download FILE"),
        (["-X", "POST", "http://h/"], "-X is not an option of tincan send: the method is the first word, as HTTPie takes it (tincan send POST URL)"),
        (["--json", "--form", "http://h/"], "--form"),
        (["--serializer", "plist", "-j", "http://h/"], "--serializer plist and --json ask for different serializers; give one"),
        (["-p", "xyz", "http://h/"], "The value 'xyz' is invalid for '-p <HBhbm>'"),
        (["--no-follow", "--max-redirects", "3", "http://h/"], "--no-follow follows no redirect and --max-redirects 3 follows some; give one"),
        (["--graphql-variables", "{}", "http://h/"], "--graphql-variables belongs to a GraphQL operation; it needs --graphql QUERY"),
        (["--operation-name", "Q", "http://h/"], "--operation-name belongs to a GraphQL operation; it needs --graphql QUERY"),
        (["--graphql", "{ a }", "--graphql-variables", "[1]", "http://h/"], "--graphql-variables: GraphQL variables must be an object (name: value), not an array"),
        (["--graphql", "{ a }", "--graphql-variables", "{", "http://h/"], "--graphql-variables is not valid JSON"),
        (["--graphql", "{ a }", "--upload", "/tmp/x", "http://h/"], "--graphql is the body; it does not go with --upload"),
    ])
    func namesTheBadArgumentAndWhatWasExpected(arguments: [String], message: String) async throws {
        let ending = await ending(of: ["send", "--offline"] + arguments)
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains(message) == true, "\(ending.standardError ?? "")")
        #expect(ending.standardOutput == nil)
    }

    @Test("Each kind of option takes only its values, and names them", arguments: [
        (["replay", "s.tincan.yaml", "--report", "xml"], "Please provide one of 'text', 'json' or 'junit'."),
        (["export", "s.tincan.yaml", "--format", "xml"], "The value 'xml' is invalid for '--format <format>'. Please provide one of the following:\n  - curl\n  - http\n  - har\n  - postman\n  - bruno\n  - python\n  - javascript\n  - go\n  - httpie\n  - swift\n  - alamofire"),
    ])
    func sessionCommandKinds(arguments: [String], message: String) async throws {
        let ending = await ending(of: arguments)
        #expect(ending.status == 2)
        #expect(ending.standardError?.contains(message) == true, "\(ending.standardError ?? "")")
    }

    @Test("The binary ends as the command says: exit 2, the message on standard error, nothing on standard output")
    func theBinaryEndsAsTheCommandSays() async throws {
        let result = try await send(["--serializer", "xml", "GET", "http://h/"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("The value 'xml' is invalid for '--serializer <KIND>'"))
        #expect(result.stdout.isEmpty)
        // Asking for a password needs a terminal; the spawned process has none.
        let user = try await send(["--user", "ann", "GET", "http://h/"])
        #expect(user.status == 2)
        #expect(user.stderr.contains("--auth 'ann' has no password"))
    }

    @Test func helpAndVersionExitZero() async throws {
        let help = try await run(BuiltProducts.tincan, ["send", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("name:=json"))
        let version = try await run(BuiltProducts.tincan, ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == TincanCommand.versionText + "\n")
        // The binary answers --version before the argument parser runs; the parser's own answer
        // (reached in process) is the same text.
        let parsed = await ending(of: ["--version"])
        #expect(parsed == TincanCommand.Ending(status: 0, standardOutput: TincanCommand.versionText))
    }

    @Test func theHelpListsEveryWordOfAnOptionThatTakesOneOfAFewWords() async throws {
        // OptionWord gives the parser these lists; they are the raw values, in case order.
        #expect(SessionKey.PinMode.allValueStrings == SessionKey.PinMode.allCases.map(\.rawValue))
        #expect(TLSMinimum.allValueStrings == TLSMinimum.allCases.map(\.rawValue))
        #expect(ExportFormat.allValueStrings.contains("python"))
        let help = try await run(BuiltProducts.tincan, ["send", "--help"], environment: ["COLUMNS": "200"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("(values: certificate, public-key; default: certificate)"))
        #expect(text.contains("(values: " + AuthType.allCases.map(\.rawValue).joined(separator: ", ") + "; default: basic)"))
        #expect(text.contains("(values: " + OAuth2Grant.allCases.map(\.rawValue).joined(separator: ", ") + ")"))
    }

    @Test func sendParsedDirectlyStillHandsCompletionScriptsToTheRoot() async throws {
        // `send` has `tincan` as its super-command, so its own parse does not look for the
        // root's completion flag; the root still answers it, before and after `send`.
        for arguments in [["--generate-completion-script", "bash"], ["send", "--generate-completion-script", "bash"]] {
            let result = try await run(BuiltProducts.tincan, arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("#!/bin/bash"))
            #expect(result.stdout.contains("__tincan_cursor_index_in_current_word"))
        }
    }

    @Test func versionNamesTheCommitTheBinaryWasBuiltFrom() async throws {
        let version = try await run(BuiltProducts.tincan, ["--version"])
        // This file is Tests/TincanCLITests/SendOfflineTests.swift in the package's checkout.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let head = try await run("/usr/bin/git", ["-C", package.path, "rev-parse", "--short=12", "HEAD"])
        try #require(head.status == 0, "the tests run from a git checkout")
        let commit = head.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(commit.count == 12)
        #expect(version.stdout.hasPrefix("\(Tincan.version) (commit \(commit)"))
        #expect(version.stdout.hasSuffix(")\n"))
    }
}
