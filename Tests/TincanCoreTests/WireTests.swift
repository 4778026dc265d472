import Testing
@testable import TincanCore

@Suite("The wire head matches what the transport sends")
struct WireHeadTests {
    @Test func putsHostFirstAndContentLengthLast() throws {
        var request = HTTPRequest(method: "POST", url: URLReference(parsing: "http://127.0.0.1:8080/p?q=1"))
        request.headers = ["Content-Length": "999", "X-A": "1"]
        request.body = .bytes(Array("abc".utf8))
        let head = request.wireHead
        #expect(head.headers.fields.map(\.name) == ["Host", "X-A", "Content-Length"])
        #expect(head.headers["Host"] == "127.0.0.1:8080")
        #expect(head.headers["Content-Length"] == "3")
        #expect(head.text == "POST /p?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-A: 1\r\nContent-Length: 3\r\n\r\n")
    }

    @Test(arguments: [("GET", false), ("HEAD", false), ("DELETE", false), ("POST", true), ("PUT", true), ("PATCH", true), ("OPTIONS", true)])
    func sendsContentLengthZeroOnlyWhereTheMethodExpectsABody(method: String, expected: Bool) {
        let request = HTTPRequest(method: method, url: URLReference(parsing: "http://h/"))
        #expect(request.wireHead.headers.contains(name: "Content-Length") == expected)
    }

    @Test func keepsAHostTheUserSet() {
        var request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://h/"))
        request.headers = ["X": "1", "host": "virtual.example"]
        #expect(request.wireHead.headers.fields.map(\.name) == ["X", "host"])
    }

    @Test func previewSummarisesBinaryBodiesWithTheirSize() throws {
        var request = HTTPRequest(method: "PUT", url: URLReference(parsing: "http://h/"))
        request.body = .bytes([0, 1, 2, 255])
        #expect(try RequestPreview.text(request).hasSuffix("\n\n<binary body: 4 bytes>\n"))
        request.body = .bytes(Array(repeating: 0x41, count: 2048))
        #expect(try RequestPreview.text(request, bodyLimit: 1000).hasSuffix("<body cut at 1,000 bytes of 2,048 bytes (2.0 KiB)>\n"))
    }

    @Test func rejectsHeaderValuesWithLineBreaks() {
        var request = HTTPRequest(method: "GET", url: URLReference(parsing: "http://h/"))
        request.headers = ["X-Evil": "a\r\nInjected: 1"]
        #expect(throws: RequestSerializationError.self) { try request.validateHeaders() }
    }
}
