import Foundation
import OrderedCollections
import TestSupport
import Testing
import TincanCore
import TincanSessions

/// A HAR log as Chrome's developer tools save it ("Save all as HAR with content"): HTTP/2
/// pseudo-headers, computed headers, private `_` fields, a page, and postData of each kind.
let chromeHAR = #"""
{
  "log": {
    "version": "1.2",
    "creator": {"name": "WebInspector", "version": "537.36"},
    "pages": [{"startedDateTime": "2026-11-26T08:00:00.000Z", "id": "page_1", "title": "https://api.example/", "pageTimings": {"onContentLoad": 120.5, "onLoad": 300.1}}],
    "entries": [
      {
        "_initiator": {"type": "script"},
        "_priority": "High",
        "_resourceType": "fetch",
        "cache": {},
        "connection": "443",
        "pageref": "page_1",
        "request": {
          "method": "POST",
          "url": "https://api.example/v1/items?page=2&sort=name",
          "httpVersion": "http/2.0",
          "headers": [
            {"name": ":authority", "value": "api.example"},
            {"name": ":method", "value": "POST"},
            {"name": ":path", "value": "/v1/items?page=2&sort=name"},
            {"name": ":scheme", "value": "https"},
            {"name": "accept", "value": "application/json"},
            {"name": "accept-encoding", "value": "gzip, deflate, br, zstd"},
            {"name": "authorization", "value": "Bearer abc123"},
            {"name": "content-length", "value": "25"},
            {"name": "content-type", "value": "application/json"},
            {"name": "cookie", "value": "sid=42"}
          ],
          "queryString": [{"name": "page", "value": "2"}, {"name": "sort", "value": "name"}],
          "cookies": [{"name": "sid", "value": "42", "path": "/", "domain": "api.example", "expires": "2027-01-01T00:00:00.000Z", "httpOnly": true, "secure": true}],
          "headersSize": -1,
          "bodySize": 25,
          "postData": {"mimeType": "application/json", "text": "{\"name\":\"tea\",\"count\":2}"}
        },
        "response": {
          "status": 201,
          "statusText": "",
          "httpVersion": "http/2.0",
          "headers": [
            {"name": "content-encoding", "value": "br"},
            {"name": "content-type", "value": "application/json; charset=utf-8"},
            {"name": "date", "value": "Thu, 26 Nov 2026 08:00:00 GMT"},
            {"name": "x-request-id", "value": "r-1"}
          ],
          "cookies": [],
          "content": {"size": 8, "mimeType": "application/json", "text": "{\"id\":7}"},
          "redirectURL": "",
          "headersSize": -1,
          "bodySize": -1,
          "_transferSize": 120,
          "_error": null
        },
        "serverIPAddress": "192.0.2.1",
        "startedDateTime": "2026-11-26T08:00:00.100Z",
        "time": 55.2,
        "timings": {"blocked": 1.2, "dns": -1, "ssl": -1, "connect": -1, "send": 0.3, "wait": 50.1, "receive": 3.6, "_blocked_queueing": 0.8}
      },
      {
        "request": {
          "method": "POST",
          "url": "https://api.example/login",
          "httpVersion": "http/2.0",
          "headers": [{"name": "content-type", "value": "application/x-www-form-urlencoded"}],
          "queryString": [],
          "cookies": [],
          "headersSize": -1,
          "bodySize": 27,
          "postData": {
            "mimeType": "application/x-www-form-urlencoded",
            "text": "q=two+words&lang=en&note=a%26b",
            "params": [{"name": "q", "value": "two+words"}, {"name": "lang", "value": "en"}, {"name": "note", "value": "a%26b"}]
          }
        },
        "response": {"status": 204, "statusText": "", "httpVersion": "http/2.0", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "", "headersSize": -1, "bodySize": 0}
      },
      {
        "request": {
          "method": "POST",
          "url": "https://api.example/upload",
          "httpVersion": "http/1.1",
          "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=----WebKitFormBoundaryX"}],
          "queryString": [],
          "cookies": [],
          "headersSize": -1,
          "bodySize": 300,
          "postData": {
            "mimeType": "multipart/form-data; boundary=----WebKitFormBoundaryX",
            "params": [{"name": "title", "value": "Me"}, {"name": "avatar", "fileName": "me.png", "contentType": "image/png"}]
          }
        },
        "response": {"status": 200, "statusText": "OK", "httpVersion": "http/1.1", "headers": [], "cookies": [], "content": {"size": 2, "mimeType": "text/plain", "text": "ok"}, "redirectURL": "", "headersSize": -1, "bodySize": 2}
      },
      {
        "request": {
          "method": "PUT",
          "url": "https://api.example/notes/1",
          "httpVersion": "http/1.1",
          "headers": [{"name": "Content-Type", "value": "text/plain"}, {"name": "X-Trace", "value": "t{{1}}"}],
          "queryString": [],
          "cookies": [],
          "headersSize": -1,
          "bodySize": 11,
          "postData": {"mimeType": "text/plain", "text": "hello {{x}}"}
        },
        "response": {"status": 200, "statusText": "OK", "httpVersion": "http/1.1", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "", "headersSize": -1, "bodySize": 0}
      },
      {
        "request": {"method": "GET", "url": "https://api.example/logo.png", "httpVersion": "http/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
        "response": {
          "status": 200, "statusText": "OK", "httpVersion": "http/1.1",
          "headers": [{"name": "Content-Type", "value": "image/png"}],
          "cookies": [],
          "content": {"size": 6, "mimeType": "image/png", "text": "iVBORw0K", "encoding": "base64"},
          "redirectURL": "", "headersSize": -1, "bodySize": 6
        }
      },
      {
        "_resourceType": "websocket",
        "_webSocketMessages": [{"type": "send", "time": 1.5, "opcode": 1, "data": "hi"}, {"type": "receive", "time": 1.6, "opcode": 1, "data": "hello"}],
        "request": {"method": "GET", "url": "wss://api.example/live", "httpVersion": "http/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
        "response": {"status": 101, "statusText": "Switching Protocols", "httpVersion": "http/1.1", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "", "headersSize": -1, "bodySize": 0}
      },
      {
        "request": {"method": "GET", "url": "https://api.example/old", "httpVersion": "http/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
        "response": {"status": 302, "statusText": "Found", "httpVersion": "http/1.1", "headers": [{"name": "Location", "value": "/new"}], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "https://api.example/new", "headersSize": -1, "bodySize": 0}
      },
      {
        "request": {"method": "GET", "url": "https://api.example/tracker.js", "httpVersion": "", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
        "response": {"status": 0, "statusText": "", "httpVersion": "", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "", "headersSize": -1, "bodySize": -1, "_error": "net::ERR_BLOCKED_BY_CLIENT"}
      }
    ]
  }
}
"""#

/// The request a saved request builds, as it goes on the wire.
func built(_ session: Session, _ index: Int) throws -> HTTPRequest {
    try session.resolve(index, template: Template(variables: [:]), directory: "/tmp").draft.build()
}

@Suite("HAR import and export")
struct HARTests {
    let imported: HAR.Imported

    init() throws {
        imported = try HAR.parse(Array(chromeHAR.utf8), path: "chrome.har")
    }

    @Test("requests keep their method, path under one base, query, headers and JSON body")
    func jsonRequestIsImported() throws {
        let session = imported.session
        #expect(session.name == "Imported from WebInspector")
        #expect(session.base == "https://api.example")
        #expect(session.requests.map(\.method) == ["POST", "POST", "POST", "PUT", "GET", "GET", "GET"])
        let first = session.requests[0]
        #expect(first.url == "/v1/items")
        #expect(first.query.map { "\($0.name)=\($0.value)" } == ["page=2", "sort=name"])
        #expect(first.headers.map(\.name) == ["accept", "authorization", "cookie"])
        #expect(first.serializer == .json)
        #expect(first.params == .dictionary(["name": "tea", "count": 2]))
        let request = try built(session, 0)
        #expect(request.url.string == "https://api.example/v1/items?page=2&sort=name")
        #expect(request.body.length == 24)
        #expect(request.headers["Authorization"] == "Bearer abc123")
    }

    @Test("responses become recordings without volatile or encoding headers")
    func responsesAreRecorded() throws {
        let requests = imported.session.requests
        let first = try #require(requests[0].recorded)
        #expect(first.status == 201)
        #expect(first.headers == [HeaderSetting(name: "content-type", value: "application/json; charset=utf-8"), HeaderSetting(name: "x-request-id", value: "r-1")])
        #expect(first.body == "{\"id\":7}")
        #expect(requests[1].recorded?.status == 204 && requests[1].recorded?.body == nil)
        let image = try #require(requests[4].recorded)
        #expect(image.bodyBase64 == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])
        #expect(image.body == nil)
        // The redirect and the blocked request are imported without a recording.
        #expect(requests[5].recorded == nil && requests[6].recorded == nil)
    }

    @Test("form, multipart and text bodies are carried as parameters, files and text")
    func bodiesOfEachKind() throws {
        let requests = imported.session.requests
        #expect(requests[1].serializer == .form)
        #expect(requests[1].params == .dictionary(["q": "two words", "lang": "en", "note": "a&b"]))
        #expect(requests[1].headers.isEmpty)
        #expect(requests[2].serializer == .multipart)
        #expect(requests[2].params == .dictionary(["title": "Me"]))
        #expect(requests[2].files == [SavedFile(field: "avatar", path: "me.png", type: "image/png")])
        // Braces in the browser's text are sent as they were, not read as variables.
        let text = try built(imported.session, 3)
        #expect(text.body.length == 11)
        if case .bytes(let bytes) = text.body { #expect(String(decoding: bytes, as: UTF8.self) == "hello {{x}}") }
        #expect(text.headers["X-Trace"] == "t{{1}}")
        #expect(text.headers["Content-Type"] == "text/plain")
    }

    @Test("what is not carried over is listed item by item")
    func warningsNameWhatIsLeftOut() {
        let warnings = imported.warnings
        #expect(warnings.contains("chrome.har: request headers not imported (HTTP/2 pseudo-headers, and headers the browser or the connection computes; Tincan writes its own): :authority, :method, :path, :scheme, accept-encoding, content-length"))
        #expect(warnings.contains("chrome.har: entry 6 (GET wss://api.example/live): a WebSocket with 2 messages, which Tincan cannot replay; left out"))
        #expect(warnings.contains("chrome.har: entry 7 (GET https://api.example/old): the 302 redirect to https://api.example/new is not recorded; Tincan follows redirects, so a replay sees the response after them"))
        #expect(warnings.contains("chrome.har: entry 8 (GET https://api.example/tracker.js): no response (status 0: blocked, cancelled or failed), so nothing is recorded"))
        #expect(warnings.contains("chrome.har: entry 3 (POST https://api.example/upload): the file part 'avatar' is read from me.png beside the session file; the HAR holds the file's name, not the file"))
        #expect(warnings.contains("chrome.har: the log's 1 page (titles and load timings) are not kept; a session holds requests"))
        #expect(warnings.contains("chrome.har: entry fields not kept (a session holds requests and their recorded responses): pageref, startedDateTime, time, cache, timings, serverIPAddress, connection"))
        #expect(warnings.contains("chrome.har: the browser's private fields are not carried over: _initiator, _priority, _resourceType, _transferSize, _error, _webSocketMessages"))
    }

    @Test("a form given only as params (as Firefox may save it) is imported from its fields")
    func formFromParamsAlone() throws {
        let text = #"{"log": {"version": "1.2", "creator": {"name": "Firefox", "version": "140.0"}, "entries": [{"request": {"method": "POST", "url": "http://h/f", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 9, "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "a", "value": "1 2"}, {"name": "b[]", "value": "x"}]}}, "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "", "headersSize": -1, "bodySize": 0}}]}}"#
        let request = try #require(try HAR.parse(Array(text.utf8), path: "ff.har").session.requests.first)
        #expect(request.serializer == .form)
        #expect(request.params == .dictionary(["a": "1 2", "b": .array(["x"])]))
        // Text that is not name=value pairs stays the body it was.
        let plain = text.replacingOccurrences(of: #""params": [{"name": "a", "value": "1 2"}, {"name": "b[]", "value": "x"}]"#, with: #""text": "just text""#)
        let kept = try #require(try HAR.parse(Array(plain.utf8), path: "ff.har").session.requests.first)
        #expect(kept.body == .text("just text") && kept.params == nil)
    }

    // MARK: - Refusals

    @Test("a file that is not JSON is refused with its line and column")
    func notJSONIsRefused() {
        #expect(throws: InterchangeError(.harNotJSON("expected a value (object, array, string, number, true, false or null)"), at: "bad.har:3:17")) {
            try HAR.parse(Array("{\n  \"log\": {\n    \"entries\": [,]\n  }\n}\n".utf8), path: "bad.har")
        }
    }

    @Test("JSON that is not a HAR log names where and what was expected")
    func wrongShapesAreRefused() {
        let cases: [(text: String, message: String)] = [
            ("[1, 2]\n", "x.har:1:1: the file: expected a HAR log: an object with a log key, found an array"),
            ("{\"version\": 1}\n", "x.har:1:1: the file: expected a HAR log: an object with a log key"),
            ("{\"log\": {\n  \"entries\": [\n    {\"request\": {\"method\": \"GET\",\n      \"url\": 5}}\n  ]\n}}\n",
             "x.har:4:14: log.entries[0].request.url: expected a string, found a number"),
            ("{\"log\": {\"entries\": [\n  {\"request\": {\"method\": \"GET\", \"url\": \"http://a/\"},\n   \"response\": {\"status\": 1000}}]}}\n",
             "x.har:3:27: log.entries[0].response.status: expected a whole number from 0 to 999, found 1000"),
            ("{\"log\": {\"version\": \"1.2\"}}", "x.har:1:9: log: expected an object with entries (an array of requests)"),
            ("{\"log\": {\"entries\": [{\"request\": {\"method\": \"GE T\", \"url\": \"http://a/\"}}]}}",
             "x.har:1:45: log.entries[0].request.method: expected a method such as GET, found 'GE T'"),
        ]
        for (text, message) in cases {
            #expect(throws: (any Error).self) { try HAR.parse(Array(text.utf8), path: "x.har") }
            do {
                _ = try HAR.parse(Array(text.utf8), path: "x.har")
            } catch {
                #expect("\(error)" == message)
            }
        }
    }

    // MARK: - Scale

    @Test("a HAR of 1,000 entries imports every request")
    func thousandEntries() throws {
        let entry = { (index: Int) in
            #"{"request": {"method": "GET", "url": "https://api.example/items/\#(index)?n=\#(index)", "httpVersion": "http/2.0", "headers": [{"name": ":path", "value": "/items/\#(index)"}, {"name": "accept", "value": "*/*"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, "statusText": "", "httpVersion": "http/2.0", "headers": [], "cookies": [], "content": {"size": 13, "mimeType": "application/json", "text": "{\"id\":\#(index)}"}, "redirectURL": "", "headersSize": -1, "bodySize": -1}, "timings": {"send": 0, "wait": 1, "receive": 1}}"#
        }
        let text = "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"Firefox\", \"version\": \"140\"}, \"entries\": [\n" + (1...1000).map(entry).joined(separator: ",\n") + "\n]}}"
        let imported = try HAR.parse(Array(text.utf8), path: "many.har")
        #expect(imported.session.requests.count == 1000)
        #expect(imported.session.requests[999].url == "/items/1000")
        #expect(imported.session.requests[999].recorded?.body == "{\"id\":1000}")
        // One line names the dropped header, however many entries had it.
        #expect(imported.warnings.count { $0.contains(":path") } == 1)
    }

    // MARK: - Export

    static let session = """
        base: https://api.example
        requests:
          - name: Search
            method: GET
            url: /items
            query:
              q: green tea
              token: q-secret
            headers:
              Authorization: Bearer s3cret
              Cookie: sid=c00kie
          - name: Create
            method: POST
            url: /items
            serializer: json
            params:
              name: tea
              password: hunter2
              tags: [a, b]
          - name: Login
            method: POST
            url: /login
            serializer: form
            params:
              user: ann
              lang: en
          - name: Note
            method: PUT
            url: /notes/1
            headers:
              Content-Type: text/plain
            body: "a note"
        """

    @Test("export writes a HAR 1.2 log with empty responses and hides secrets")
    func exportHidesSecrets() throws {
        let session = try Session.parse(Self.session, path: "api.tincan.yaml")
        let exchanges = try session.requests.indices.map { HAR.Exchange(name: session.requests[$0].name, request: try built(session, $0)) }
        let text = HAR.export(exchanges).text
        for secret in ["s3cret", "c00kie", "q-secret", "hunter2"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])["log"] as? [String: Any]
        #expect(log?["version"] as? String == "1.2")
        #expect((log?["creator"] as? [String: Any])?["name"] as? String == "tincan")
        let entries = try #require(log?["entries"] as? [[String: Any]])
        #expect(entries.count == 4)
        #expect(entries.map { $0["comment"] as? String } == ["Search", "Create", "Login", "Note"])
        let response = try #require(entries[0]["response"] as? [String: Any])
        #expect(response["status"] as? Int == 0 && (response["headers"] as? [Any])?.isEmpty == true)
        let headers = try #require((entries[0]["request"] as? [String: Any])?["headers"] as? [[String: String]])
        #expect(headers.first { $0["name"] == "Authorization" }?["value"] == "Bearer ••••••")
        let query = try #require((entries[0]["request"] as? [String: Any])?["queryString"] as? [[String: String]])
        #expect(query == [["name": "q", "value": "green tea"], ["name": "token", "value": "••••••"]])

        // Imported back, the hidden values are named, so they are set before the requests are sent.
        let back = try HAR.parse(Array(text.utf8), path: "hidden.har")
        #expect(back.warnings.contains("hidden.har: entry 1 (GET https://api.example/items?q=green%20tea&token=••••••): the header 'Authorization' holds a hidden value (••••••), as a HAR saved without its secrets does; set the real value before sending"))
        #expect(back.warnings.contains { $0.contains("the header 'Cookie' holds a hidden value") })

        let kept = HAR.export(exchanges, redactingSecrets: false).text
        for secret in ["Bearer s3cret", "c00kie", "q-secret", "hunter2"] { #expect(kept.contains(secret)) }
    }

    @Test("a session exported to HAR and imported back builds the same requests")
    func exportRoundTrip() throws {
        let session = try Session.parse(Self.session, path: "api.tincan.yaml")
        let originals = try session.requests.indices.map { try built(session, $0) }
        let exported = HAR.export(originals.enumerated().map { HAR.Exchange(name: session.requests[$0.offset].name, request: $0.element) }, redactingSecrets: false)
        let back = try HAR.parse(Array(exported.text.utf8), path: "api.har")
        #expect(back.session.requests.map(\.name) == session.requests.map(\.name))
        #expect(back.session.base == "https://api.example")
        for (index, original) in originals.enumerated() {
            let again = try built(back.session, index)
            #expect(again.method == original.method)
            #expect(again.url == original.url)
            #expect(Array(again.headers).map { "\($0.name): \($0.value)" } == Array(original.headers).map { "\($0.name): \($0.value)" })
            #expect(try again.body.collect() == original.body.collect())
        }
    }
}
