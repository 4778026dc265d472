import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// JSON read as JSON, YAML as YAML, and a byte-order mark skipped in every file Tincan reads
/// (issue 38 §1).
@Suite("Collections are read in their own syntax, and a byte-order mark is skipped everywhere")
struct ImportSyntaxTests {
    static let bom = BoundedFile.byteOrderMark

    @Test("A surrogate pair, as Python's json.dumps writes every emoji, is one character in OpenAPI, Postman and Insomnia JSON")
    func surrogatePairsAreRead() throws {
        let openapi = #"{"openapi": "3.0.0", "info": {"title": "Pets \ud83d\udc4d"}, "paths": {"/a": {"get": {"operationId": "a", "parameters": [{"name": "q", "in": "query", "required": true, "example": "\u00e9\ud83d\ude00"}]}}}}"#
        let session = try imported(.openapi, openapi, path: "spec.json").session
        #expect(session.name == "Pets 👍")
        #expect(session.requests[0].query == [QuerySetting(name: "q", value: "é😀")])
        let postman = #"{"info": {"name": "\ud83d\udc4d", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "r", "request": {"method": "GET", "url": "http://h/\ud83d\udc4d"}}]}"#
        let collection = try imported(.postman, postman, path: "c.json").session
        #expect(collection.name == "👍")
        #expect(collection.requests[0].url == "http://h/👍")
        let insomnia = #"{"_type": "export", "__export_format": 4, "resources": [{"_id": "r", "_type": "request", "name": "\ud83d\udc4d", "method": "GET", "url": "http://h/"}]}"#
        #expect(try imported(.insomnia, insomnia, path: "i.json").session.requests[0].name == "👍")
    }

    @Test("JSON numbers keep JSON's meaning: 1e3 is a number, a big integer a double, \"3.0\" text")
    func jsonNumbers() throws {
        let text = #"{"openapi": "3.0.0", "paths": {"/a": {"post": {"operationId": "a", "requestBody": {"content": {"application/json": {"example": {"n": 1e3, "big": 123456789012345678901234, "s": "3.0"}}}}}}}}"#
        let request = try imported(.openapi, text, path: "spec.json").session.requests[0]
        #expect(request.params == .dictionary(["n": .double(1000), "big": .double(1.2345678901234568e23), "s": "3.0"]))
    }

    @Test("Broken JSON is refused at its line and column in JSON's words; a file not named .json that starts with { may be YAML")
    func jsonErrorsAndYAMLFlow() throws {
        #expect(importError { try CollectionFormat.postman.parse("{\n  \"info\": {\"name\": \"x\"}\n  \"item\": []\n}", path: "c.json") }
            == "c.json:3:3: malformed JSON: expected ',' or '}' in the object")
        #expect(importError { try CollectionFormat.postman.parse("{\"info\": \"\\ud83d\"}", path: "c.json") }
            == "c.json:1:17: malformed JSON: a high surrogate must be followed by a low surrogate (\\uDC00-\\uDFFF)")
        // YAML's flow style starts with { too: a .yaml file is read as YAML when it is not JSON.
        let flow = try imported(.openapi, "{openapi: 3.0.0, paths: {/a: {get: {operationId: a}}}}", path: "spec.yaml").session
        #expect(flow.requests.map(\.displayName) == ["a"])
        // A .yaml file that is neither is refused with the JSON error, where such a file most likely went wrong.
        #expect(importError { try CollectionFormat.openapi.parse("{\"openapi\": \"3.0.0\",, \"paths\": {}}", path: "spec.yaml") }
            == "spec.yaml:1:21: malformed JSON: expected a key in double quotes")
    }

    @Test("A collection file with a byte-order mark imports, JSON and YAML alike", arguments: ["spec.json", "spec.yaml"])
    func collectionsSkipTheMark(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let text = name.hasSuffix(".json") ? #"{"openapi": "3.0.0", "paths": {"/a": {"get": {"operationId": "a"}}}}"# : "openapi: 3.0.0\npaths:\n  /a:\n    get: {operationId: a}\n"
        let path = try directory.write(name, Self.bom + Array(text.utf8))
        #expect(try CollectionFormat.openapi.load(path: path).session.requests.map(\.displayName) == ["a"])
        // Given as text, as the TUI and tests do, the mark is skipped too.
        #expect(try CollectionFormat.openapi.parse("\u{FEFF}" + text, path: name).session.requests.count == 1)
    }

    @Test("A session file, and any YAML file Tincan reads (config, theme, keymap), with a byte-order mark reads")
    func sessionsSkipTheMark() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("s.tincan.yaml", Self.bom + Array("requests:\n  - method: GET\n    url: http://h/\n".utf8))
        #expect(try Session.load(path: path).requests.map(\.url) == ["http://h/"])
        #expect(try ConfigFile.load(path: path).root.count == 1)
        // An error after the mark is placed as the file reads without it.
        let broken = try directory.write("b.tincan.yaml", Self.bom + Array("requests: [\n".utf8))
        #expect(importError { try Session.load(path: broken) }.hasPrefix("\(broken):2:1: malformed YAML"))
    }

    @Test("A HAR file with a byte-order mark (Fiddler, some Chrome builds) imports")
    func harSkipsTheMark() throws {
        let har = #"{"log": {"version": "1.2", "creator": {"name": "Fiddler", "version": "5"}, "entries": [{"startedDateTime": "2024-01-01T00:00:00Z", "time": 1, "request": {"method": "GET", "url": "http://h/a", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "", "headersSize": -1, "bodySize": 0}, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}"#
        let imported = try HAR.parse(Self.bom + Array(har.utf8), path: "f.har")
        #expect(imported.session.requests.count == 1)
        let directory = try TemporaryDirectory()
        let path = try directory.write("f.har", Self.bom + Array(har.utf8))
        #expect(try HAR.parse(try BoundedFile.readText(path, limit: 1 << 20), path: path).session.requests.count == 1)
    }

    @Test("A .http file, a cookie file and a Bruno file with a byte-order mark read")
    func otherTextFilesSkipTheMark() throws {
        #expect(try HTTPFile.parse("\u{FEFF}GET http://h/\n", path: "a.http").session.requests.map(\.url) == ["http://h/"])
        let directory = try TemporaryDirectory()
        let cookies = try directory.write("jar.txt", Self.bom + Array("h\tFALSE\t/\tFALSE\t0\tname\tvalue\n".utf8))
        #expect(try CookieFile.load(from: cookies).map(\.name) == ["name"])
        #expect(try CollectionFormat.bruno.parse("\u{FEFF}get {\n  url: http://h/\n}\n", path: "r.bru").session.requests.map(\.url) == ["http://h/"])
    }

    @Test("A parameter read from a file (name=@file, name:=@file) is its text without a byte-order mark")
    func parameterFilesSkipTheMark() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("name.txt", Self.bom + Array("Ada".utf8))
        _ = try directory.write("tags.json", Self.bom + Array("[1, 2]".utf8))
        var draft = RequestDraft(method: "POST", url: "http://h/")
        draft.workingDirectory = directory.path
        draft.serializer = .json
        draft.items = [.parameterFromFile(key: "name", path: "name.txt", isJSON: false), .parameterFromFile(key: "tags", path: "tags.json", isJSON: true)]
        #expect(try draft.mergedParameters() == .dictionary(["name": "Ada", "tags": [1, 2]]))
    }
}
