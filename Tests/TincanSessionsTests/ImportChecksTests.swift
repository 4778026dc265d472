import Foundation
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// What every import checks before it writes (issue 38 §1, §2): the file reads back, and a
/// request that cannot be sent as written is named.
@Suite("An import writes only what reads back, and names what cannot be sent")
struct ImportChecksTests {
    static func postman(_ items: String) -> String {
        #"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["# + items + "]}"
    }

    @Test("A header present twice, once on and once off, is written once: the one sent")
    func headerOnAndOff() throws {
        let text = Self.postman(#"{"name": "r", "request": {"method": "POST", "url": "http://h/", "header": [{"key": "Content-Type", "value": "text/plain", "disabled": true}, {"key": "Content-Type", "value": "application/json"}]}}"#)
        let result = try imported(.postman, text, path: "c.json")
        #expect(result.session.requests[0].headers == [HeaderSetting(name: "Content-Type", value: "application/json")])
        #expect(result.notCarried.contains("request 'r': the header Content-Type: text/plain, turned off, is not carried over: the request sends Content-Type already, and a session names a header once"))
    }

    @Test("A header sent twice is sent once with both values, as HTTP joins them (cookies with ;); two turned off keep the first")
    func headersJoined() throws {
        let text = Self.postman(#"""
            {"name": "r", "request": {"method": "GET", "url": "http://h/", "header": [
              {"key": "Accept", "value": "a/b"}, {"key": "accept", "value": "c/d"},
              {"key": "Cookie", "value": "a=1"}, {"key": "Cookie", "value": "b=2"},
              {"key": "X-Off", "value": "1", "disabled": true}, {"key": "X-Off", "value": "2", "disabled": true}]}}
            """#)
        let result = try imported(.postman, text, path: "c.json")
        #expect(result.session.requests[0].headers == [
            HeaderSetting(name: "Accept", value: "a/b, c/d"), HeaderSetting(name: "Cookie", value: "a=1; b=2"), HeaderSetting(name: "X-Off", value: "1", isEnabled: false),
        ])
        #expect(result.notCarried.contains("request 'r': the header Accept is given 2 times; it is sent once as 'a/b, c/d', as HTTP joins a repeated field"))
    }

    @Test("A query field given twice, or turned off, reads back as a list and as {value, enabled: false}")
    func queryFieldsReadBack() throws {
        let text = "requests:\n  - url: http://h/\n    query:\n      id: [\"1\", {value: \"2\", enabled: false}, \"3\"]\n      q: tea\n"
        let session = try Session.parse(text, path: "s.yaml")
        #expect(session.requests[0].query == [QuerySetting(name: "id", value: "1"), QuerySetting(name: "id", value: "2", isEnabled: false), QuerySetting(name: "id", value: "3"), QuerySetting(name: "q", value: "tea")])
        #expect(session.yamlText() == "requests:\n  - method: GET\n    url: http://h/\n    query:\n      id:\n        - \"1\"\n        - value: \"2\"\n          enabled: false\n        - \"3\"\n      q: tea\n")
        let url = try session.resolve(0, template: Template(variables: [:]), directory: "/tmp").draft.build().url.string
        #expect(url == "http://h/?id=1&id=3&q=tea")
        #expect(importError { try Session.parse("requests:\n  - url: http://h/\n    query:\n      id: {enabled: false}\n", path: "s.yaml") }
            == "s.yaml:4:11: query field 'id' needs a value: {value: TEXT, enabled: false}")
    }

    @Test("A request's own variables lie over the session's and the environment's, and --var over them")
    func requestVariables() throws {
        let session = try Session.parse("""
            variables: {v: file}
            environments: {e: {v: env}}
            requests:
              - url: "http://h/{{v}}"
                variables: {v: request}
              - url: "http://h/{{v}}"
            """, path: "s.yaml")
        func url(_ index: Int, environment: String?, overrides: [String: String]) throws -> String {
            try session.resolve(index, template: session.template(environment: environment, overrides: overrides), directory: "/tmp").draft.url
        }
        #expect(try url(0, environment: "e", overrides: [:]) == "http://h/request")
        #expect(try url(1, environment: "e", overrides: [:]) == "http://h/env")
        #expect(try url(0, environment: "e", overrides: ["v": "cli"]) == "http://h/cli")
    }

    @Test("Checks of one target are joined; one that cannot join is named, so assert: names each once")
    func checksOnce() throws {
        let bru = "get {\n  url: http://h/\n}\n\nassert {\n  res.body.a: eq 1\n  res.body.a: isNumber\n  res.body.a: eq 2\n  res.status: eq 200\n  res.status: in 200,201\n}\n"
        let result = try CollectionFormat.bruno.parse(bru, path: "r.bru")
        let assertions = result.session.requests[0].assertions
        #expect(assertions == [.body(try BodyPath(parsing: "$.a"), Predicate([.equals(1), .type(.number)])), .status("200")])
        #expect(result.notCarried.contains("request 'r': the check body $.a equals 2 is not carried over: the request checks body $.a that way already, and a session names each check once"))
        #expect(try Session.parse(result.session.yamlText(), path: "s.yaml").requests == result.session.requests)
    }

    @Test("A GET with a form-data body and a form file that is not there are imported as written, each named")
    func unsendableRequestsAreNamed() throws {
        let text = Self.postman(#"""
            {"name": "get form", "request": {"method": "GET", "url": "http://h/", "body": {"mode": "formdata", "formdata": [{"key": "a", "value": "1", "type": "text"}]}}},
            {"name": "missing", "request": {"method": "POST", "url": "http://h/", "body": {"mode": "formdata", "formdata": [{"key": "f", "type": "file", "src": "nowhere.png"}]}}},
            {"name": "fine", "request": {"method": "GET", "url": "http://h/"}}
            """#)
        let directory = try TemporaryDirectory()
        let path = try directory.write("c.json", Array(text.utf8))
        let result = try CollectionFormat.postman.load(path: path)
        #expect(result.session.requests.map(\.serializer) == [.multipart, .multipart, nil])
        #expect(result.notCarried.contains("request 'get form': cannot be sent as written (A multipart body cannot be sent with GET; use POST, PUT or PATCH.); it is imported as it is, and replay and export report it"), "\(result.notCarried)")
        #expect(result.notCarried.contains { $0.hasPrefix("request 'missing': cannot be sent as written (File not reachable: '\(directory.path)/nowhere.png'") }, "\(result.notCarried)")
        #expect(!result.notCarried.contains { $0.contains("'fine'") })
    }

    @Test("A collection that reads the sender's environment variables says so, naming the request or variable and each variable read")
    func environmentReadsAreNamed() throws {
        // Given a Postman collection and a .http file that send environment variables
        let postman = try CollectionFormat.postman.parse(Self.postman(#"""
            {"name": "exfil", "request": {"method": "GET", "url": "http://h/?k={{$env.AWS_SECRET_ACCESS_KEY}}", "header": [{"key": "X-Home", "value": "{{$env.HOME}}"}]}},
            {"name": "plain", "request": {"method": "GET", "url": "http://h/"}}
            """#), path: "/srv/c.json")
        #expect(postman.notCarried.contains("request 'exfil': reads the environment variables AWS_SECRET_ACCESS_KEY, HOME of whoever sends it, and sends their values where the request goes; check that you mean it to"), "\(postman.notCarried)")
        #expect(!postman.notCarried.contains { $0.contains("'plain'") })
        let http = try HTTPFile.parse("@token = {{$processEnv API_TOKEN}}\n\nGET http://h/\nAuthorization: Bearer {{token}}\n", path: "/srv/a.http")
        #expect(http.warnings.contains("variables: token: reads the environment variable API_TOKEN of whoever sends it, and sends its value where the request goes; check that you mean it to"), "\(http.warnings)")
    }

    @Test("A request the collection gives no URL (a Postman url: null, an Insomnia url: '') is imported, named")
    func aRequestWithoutAURLIsNamed() throws {
        // As 3laa-NA/Web's 'API Test' and Cobelt/shokkoth-graphql's requests
        let postman = try CollectionFormat.postman.parse(Self.postman(#"""
            {"name": "API Test", "request": {"method": "GET", "url": null}},
            {"name": "fine", "request": {"method": "GET", "url": "http://h/"}}
            """#), path: "/srv/c.json")
        #expect(postman.session.requests.map(\.url) == ["", "http://h/"], "null is no URL, not the host 'null'")
        #expect(postman.notCarried == ["request 'API Test': the collection gives no URL, so it is imported without one; set url: before sending it"])
    }

    @Test("A GET's urlencoded body, and a form whose field repeats, stay the body they are, as the client sends it")
    func urlencodedBodiesAsSent() throws {
        let text = Self.postman(#"""
            {"name": "get", "request": {"method": "GET", "url": "http://h/", "body": {"mode": "urlencoded", "urlencoded": [{"key": "a", "value": "1 2"}]}}},
            {"name": "twice", "request": {"method": "POST", "url": "http://h/", "body": {"mode": "urlencoded", "urlencoded": [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]}}},
            {"name": "nested", "request": {"method": "POST", "url": "http://h/", "body": {"mode": "urlencoded", "urlencoded": [{"key": "user[name]", "value": "ada"}]}}}
            """#)
        let session = try imported(.postman, text, path: "c.json").session
        let get = try importedRequest(session, "get")
        #expect(get.body == .text("a=1%202"))
        #expect(get.headers == [HeaderSetting(name: "Content-Type", value: "application/x-www-form-urlencoded")])
        #expect(try importedRequest(session, "twice").body == .text("a=1&a=2"))
        let nested = try importedRequest(session, "nested")
        #expect(nested.serializer == .form)
        #expect(nested.params == .dictionary(["user": .dictionary(["name": "ada"])]))
    }
}
