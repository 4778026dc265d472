import Foundation
import TestSupport
import Testing
@testable import TincanCore

private let example = URLReference(parsing: "http://example.com/upload")

@Suite("Multipart form data")
struct MultipartFormDataTests {
    @Test func laysOutPartsWithAFNetworkingsBoundaries() throws {
        let request = try FormRequestSerializer().multipartRequest(
            method: "POST", url: example, parameters: ["b": "2", "a": ["x": 1]], boundary: "Boundary+0000000100000002"
        ) { form in
            form.append(fileData: Array("hi".utf8), name: "doc", fileName: "a.txt", mimeType: "text/plain")
        }
        let body = String(decoding: try request.body.collect(), as: UTF8.self)
        #expect(body == """
            --Boundary+0000000100000002\r
            Content-Disposition: form-data; name="a[x]"\r
            \r
            1\r
            --Boundary+0000000100000002\r
            Content-Disposition: form-data; name="b"\r
            \r
            2\r
            --Boundary+0000000100000002\r
            Content-Disposition: form-data; name="doc"; filename="a.txt"\r
            Content-Type: text/plain\r
            \r
            hi\r
            --Boundary+0000000100000002--\r

            """)
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=Boundary+0000000100000002")
        #expect(request.headers["Content-Length"] == String(body.utf8.count))
    }

    @Test func randomBoundariesHaveAFNetworkingsShapeAndDiffer() {
        let first = MultipartFormData().boundary
        let second = MultipartFormData().boundary
        #expect(first != second)
        #expect(first.hasPrefix("Boundary+"))
        #expect(first.count == "Boundary+".count + 16)
        #expect(first.dropFirst(9).allSatisfy { $0.isHexDigit && !$0.isLowercase })
    }

    @Test(arguments: [("photo.PNG", "image/png"), ("notes.txt", "text/plain"), ("data.json", "application/json"), ("blob.xyz", "application/octet-stream"), ("noext", "application/octet-stream")])
    func takesTheMIMETypeFromTheFileExtension(name: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name, [1, 2, 3])
        var form = MultipartFormData(boundary: "B")
        try form.appendFile(at: path, name: "f")
        #expect(form.parts[0].headers["Content-Type"] == expected)
        #expect(form.parts[0].headers["Content-Disposition"] == "form-data; name=\"f\"; filename=\"\(name)\"")
    }

    @Test func streamsLargeFilesInBoundedChunksWithAnExactLength() throws {
        let directory = try TemporaryDirectory()
        let path = (directory.path as NSString).appendingPathComponent("big.bin")
        let size: Int64 = 48 * 1024 * 1024 + 5
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()

        var form = MultipartFormData(boundary: "B")
        form.append(data: Array("v".utf8), name: "k")
        try form.appendFile(at: path, name: "file")
        var reader = try form.makeReader(chunkSize: 64 * 1024)
        var total: Int64 = 0
        var largest = 0
        while let chunk = try reader.read() {
            total += Int64(chunk.count)
            largest = max(largest, chunk.count)
        }
        #expect(total == form.contentLength)
        #expect(largest <= 64 * 1024)
        #expect(form.contentLength > size)
    }

    @Test func streamPartsAreReadEachTimeTheBodyIsRead() throws {
        var form = MultipartFormData(boundary: "B")
        form.append(stream: { InputStream(data: Data("streamed".utf8)) }, length: 8, name: "s", fileName: "s.bin", mimeType: "application/octet-stream")
        let first = try RequestBody.multipart(form).collect()
        let second = try RequestBody.multipart(form).collect()
        #expect(first == second)
        #expect(Int64(first.count) == form.contentLength)
        #expect(String(decoding: first, as: UTF8.self).contains("\r\n\r\nstreamed\r\n--B--"))
    }

    @Test func aStreamShorterThanDeclaredIsAnError() throws {
        var form = MultipartFormData(boundary: "B")
        form.append(stream: { InputStream(data: Data("abc".utf8)) }, length: 10, name: "s", fileName: "s", mimeType: "text/plain")
        #expect(throws: RequestSerializationError.self) { try RequestBody.multipart(form).collect() }
    }

    @Test func customPartHeadersAreWrittenInOrder() throws {
        var form = MultipartFormData(boundary: "B")
        form.appendPart(headers: ["Content-Disposition": "form-data; name=\"x\"", "X-Extra": "1"], content: .bytes([65]))
        let body = String(decoding: try RequestBody.multipart(form).collect(), as: UTF8.self)
        #expect(body == "--B\r\nContent-Disposition: form-data; name=\"x\"\r\nX-Extra: 1\r\n\r\nA\r\n--B--\r\n")
    }

    @Test func quotesInFieldNamesCannotBreakTheHeader() throws {
        var form = MultipartFormData(boundary: "B")
        form.append(data: [], name: "a\"b\r\nc")
        #expect(form.parts[0].headers["Content-Disposition"] == "form-data; name=\"a%22b%0D%0Ac\"")
    }

    @Test func missingFilesAndDirectoriesAreErrors() throws {
        let directory = try TemporaryDirectory()
        var form = MultipartFormData()
        #expect(throws: RequestSerializationError.self) { try form.appendFile(at: directory.path + "/missing.txt", name: "f") }
        let error = try #require(throws: RequestSerializationError.self) { try form.appendFile(at: directory.path, name: "f") }
        #expect(error.reason == .notARegularFile(path: directory.path))
    }

    @Test(arguments: ["GET", "HEAD", "get"])
    func isRefusedForGetAndHead(method: String) {
        #expect(throws: RequestSerializationError.self) {
            try FormRequestSerializer().multipartRequest(method: method, url: example, parameters: nil) { _ in }
        }
    }

    @Test func noPartsMeansNoBody() throws {
        let request = try FormRequestSerializer().multipartRequest(method: "POST", url: example, parameters: nil) { _ in }
        #expect(request.body.length == nil)
        #expect(request.headers["Content-Type"] == nil)
    }
}
