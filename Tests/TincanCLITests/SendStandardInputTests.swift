import Foundation
import TestSupport
import Testing
@testable import tincan
import TincanCore

/// `tincan send` with a body on standard input (issue 18 §7): HTTPie's rule, `@-`, and nothing
/// that waits when CI gives no input.
@Suite("tincan send reads a body from standard input")
struct SendStandardInputTests {
    /// The demo server's echo of the request, from `--format json`'s response body.
    private func echo(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutBytes)) as? [String: Any], sourceLocation: sourceLocation)
        let response = try #require(object["response"] as? [String: Any], sourceLocation: sourceLocation)
        return try #require(response["body"] as? [String: Any], sourceLocation: sourceLocation)
    }

    // MARK: - The body when no body items are given

    @Test("a POST with no body items sends piped standard input as its body, byte for byte")
    func pipedInputIsTheBody() async throws {
        try await withDemoServer { server in
            let body = Array(#"{"tea": "green", "cups": 2}"#.utf8)
            let result = try await tincan(
                ["send", "--format", "json", "POST", "\(server.baseURL)/anything", "Content-Type:application/json", "q==1"],
                standardInput: .pipe(body))
            let echo = try echo(result)
            #expect(echo["data"] as? String == String(decoding: body, as: UTF8.self))
            #expect((echo["json"] as? [String: Any])?["cups"] as? Int == 2)
            #expect((echo["args"] as? [String: String]) == ["q": "1"], "a query item is not a body item")
            #expect((echo["headers"] as? [String: String])?["Content-Length"] == "\(body.count)")
        }
    }

    @Test("a body redirected from a file (< body.json) is sent as it is")
    func redirectedFileIsTheBody() async throws {
        let directory = try TemporaryDirectory()
        let bytes = Array("line one\nline two\n".utf8)
        let path = try directory.write("body.txt", bytes)
        try await withDemoServer { server in
            let result = try await tincan(["send", "--format", "json", "PUT", "\(server.baseURL)/anything", "Content-Type:text/plain"], standardInput: .file(path))
            #expect(try echo(result)["data"] as? String == "line one\nline two\n")
        }
        // Without a header, the serializer types it as it types any raw body: form, as curl --data-binary.
        let offline = try await tincan(["send", "--offline", "PUT", "http://127.0.0.1:9/"], standardInput: .file(path))
        #expect(offline.stdout.contains("Content-Type: application/x-www-form-urlencoded\nContent-Length: 18\n\nline one\nline two\n"))
    }

    @Test("--ignore-stdin sends no body, though standard input has one")
    func ignoreStdinSendsNoBody() async throws {
        try await withDemoServer { server in
            let result = try await tincan(
                ["send", "--format", "json", "--ignore-stdin", "POST", "\(server.baseURL)/anything"],
                standardInput: .pipe(Array("not this".utf8)))
            #expect(try echo(result)["data"] as? String == "")
        }
    }

    @Test("body items win: standard input is not read when an item gives the body")
    func bodyItemsLeaveStandardInputUnread() async throws {
        try await withDemoServer { server in
            let result = try await tincan(
                ["send", "--format", "json", "POST", "\(server.baseURL)/anything", "name=tea"],
                standardInput: .pipe(Array("not this".utf8)))
            let echo = try echo(result)
            #expect((echo["form"] as? [String: String]) == ["name": "tea"])
            #expect(echo["data"] as? String == "")
        }
    }

    @Test("with /dev/null or a closed pipe as standard input, nothing waits and no body is sent", arguments: [InputSource.null, .pipe([])])
    func noInputSendsNoBody(input: InputSource) async throws {
        try await withDemoServer { server in
            let clock = ContinuousClock()
            let start = clock.now
            let result = try await tincan(["send", "--format", "json", "POST", "\(server.baseURL)/anything"], standardInput: input)
            let echo = try echo(result)
            #expect(echo["data"] as? String == "")
            #expect((echo["headers"] as? [String: String])?["Content-Length"] == "0")
            #expect(clock.now - start < .seconds(30), "it did not wait on standard input")
        }
    }

    // MARK: - @- wherever a file is

    @Test("name=@- reads a text parameter from standard input, name:=@- a JSON one")
    func parameterFromStandardInput() async throws {
        try await withDemoServer { server in
            let text = try await tincan(
                ["send", "--format", "json", "--serializer", "json", "POST", "\(server.baseURL)/anything", "note=@-", "n:=1"],
                standardInput: .pipe(Array("from a pipe".utf8)))
            #expect((try echo(text)["json"] as? [String: Any])?["note"] as? String == "from a pipe")

            let json = try await tincan(
                ["send", "--format", "json", "--serializer", "json", "POST", "\(server.baseURL)/anything", "tags:=@-"],
                standardInput: .pipe(Array(#"["a", "b"]"#.utf8)))
            #expect((try echo(json)["json"] as? [String: Any])?["tags"] as? [String] == ["a", "b"])
        }
    }

    @Test("field@- sends standard input as a multipart file named stdin")
    func multipartFileFromStandardInput() async throws {
        try await withDemoServer { server in
            let result = try await tincan(
                ["send", "--format", "json", "POST", "\(server.baseURL)/anything", "doc@-;type=text/plain", "title=x"],
                standardInput: .pipe(Array("piped file".utf8)))
            let echo = try echo(result)
            #expect((echo["files"] as? [String: String]) == ["doc": "piped file"])
            #expect((echo["form"] as? [String: String]) == ["title": "x"])
        }
        let offline = try await tincan(
            ["send", "--offline", "--boundary", "B", "POST", "http://127.0.0.1:9/", "doc@-"],
            standardInput: .pipe(Array("piped file".utf8)))
        #expect(offline.stdout.contains(#"Content-Disposition: form-data; name="doc"; filename="stdin""#))
        #expect(offline.stdout.contains("Content-Type: application/octet-stream"))
    }

    @Test("--upload - and --upload @- send standard input as the body", arguments: ["-", "@-"])
    func uploadFromStandardInput(argument: String) async throws {
        try await withDemoServer { server in
            let result = try await tincan(
                ["send", "--format", "json", "--upload", argument, "PUT", "\(server.baseURL)/anything"],
                standardInput: .pipe(Array("uploaded".utf8)))
            let echo = try echo(result)
            #expect(echo["data"] as? String == "uploaded")
            #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/octet-stream")
        }
    }

    @Test("a replayed session's body file, upload and multipart file of - send standard input, read once for all three")
    func replayReadsStandardInput() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("s.tincan.yaml", Array("""
            base: "{{server}}/"
            requests:
              - name: Body file
                method: POST
                url: anything
                headers: {Content-Type: text/plain}
                body: {file: "-"}
                assert:
                  body:
                    $.data: piped
              - name: Upload
                method: PUT
                url: anything
                upload: "-"
                assert:
                  body:
                    $.data: piped
              - name: Part
                method: POST
                url: anything
                files:
                  - {field: doc, path: "-"}
                assert:
                  body:
                    $.files.doc: piped
            """.utf8))
        let result = try await tincan(["replay", "--demo", file], standardInput: .pipe(Array("piped".utf8)))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")

        let terminal = await ending(of: ["replay", file], standardInput: .none)
        #expect(terminal.status == 2)
        #expect(terminal.standardError == "tincan: error: \(file): a request reads standard input ('-'), which is a terminal; redirect or pipe the body in")
    }

    @Test("standard input within the limit is read whole, in process too")
    func inProcessBytesAreTheBody() throws {
        var draft = RequestDraft(method: "POST", url: "http://127.0.0.1:9/")
        let command = try SendCommand.parse(["POST", "http://127.0.0.1:9/"])
        try StandardInput.$current.withValue(StandardInput(source: .bytes(Array("abc".utf8)))) {
            try command.readStandardInput(into: &draft)
        }
        #expect(draft.body == .bytes(Array("abc".utf8)))
        #expect(try draft.build().body.length == 3)
    }

    // MARK: - Bad input: exit 2, naming what was at fault

    @Test("two readers of standard input exit 2 naming both")
    func twoReadersAreRefused() async {
        let refused = await ending(of: ["send", "POST", "http://127.0.0.1:9/", "a=@-", "f@-"], standardInput: .bytes([1]))
        #expect(refused.status == 2)
        #expect(refused.standardError == "tincan: error: standard input can be read once, but a=@- and f@- all read it")
        let upload = await ending(of: ["send", "--upload", "-", "POST", "http://127.0.0.1:9/", "a:=@-"], standardInput: .bytes([1]))
        #expect(upload.status == 2)
        #expect(upload.standardError == "tincan: error: standard input can be read once, but a:=@- and --upload - all read it")
    }

    @Test("--ignore-stdin with an item that reads standard input exits 2 naming the item")
    func ignoreStdinWithAReaderIsRefused() async {
        let refused = await ending(of: ["send", "--ignore-stdin", "POST", "http://127.0.0.1:9/", "a=@-"], standardInput: .bytes([1]))
        #expect(refused.status == 2)
        #expect(refused.standardError == "tincan: error: --ignore-stdin: 'a=@-' reads standard input")
    }

    @Test("an item that reads standard input from a terminal exits 2 instead of waiting")
    func aTerminalIsNotRead() async {
        let refused = await ending(of: ["send", "POST", "http://127.0.0.1:9/", "a=@-"], standardInput: .none)
        #expect(refused.status == 2)
        #expect(refused.standardError == "tincan: error: 'a=@-' reads standard input, which is a terminal; redirect or pipe the body in")
    }

    @Test("standard input over 64 MiB exits 2 saying the limit")
    func tooLargeAnInputIsRefused() async {
        let bytes = [UInt8](repeating: 0x61, count: StandardInput.limit + 1)
        let refused = await ending(of: ["send", "--offline", "POST", "http://127.0.0.1:9/"], standardInput: .bytes(bytes))
        #expect(refused.status == 2)
        #expect(refused.standardError?.contains("standard input holds more than 64 MiB") == true)
    }

    @Test("standard input over 64 MiB through a real pipe exits 2 too")
    func tooLargeAPipeIsRefused() async throws {
        let bytes = [UInt8](repeating: 0x61, count: StandardInput.limit + 1)
        let result = try await tincan(["send", "--offline", "POST", "http://127.0.0.1:9/"], standardInput: .pipe(bytes))
        #expect(result.status == 2)
        #expect(result.stderr.contains("standard input holds more than 64 MiB"))
    }

    @Test("name:=@- with standard input that is not JSON exits 2 naming the item")
    func notJSONIsRefused() async throws {
        let result = try await tincan(["send", "--offline", "POST", "http://127.0.0.1:9/", "n:=@-"], standardInput: .pipe(Array("{oops".utf8)))
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad request item 'n:=@-': standard input is not valid JSON"))
    }
}
