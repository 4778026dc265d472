import Foundation
import Testing
@testable import TincanCore

private let url = URLReference(parsing: "http://127.0.0.1:8080/thing")

private func response(_ status: Int, _ contentType: String? = nil) -> HTTPResponse {
    var headers = HTTPHeaders()
    if let contentType { headers.set(name: "Content-Type", value: contentType) }
    return HTTPResponse(url: url, statusCode: status, headers: headers)
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("HTTP validation follows AFNetworking")
struct HTTPValidationTests {
    @Test func acceptsTwoHundredsAndAnyContentTypeByDefault() {
        let result = HTTPResponseSerializer().serialize(response(299, "weird/type"), data: bytes("x"), request: nil)
        #expect(result.isValid)
        #expect(result.body == .data(bytes("x")))
    }

    @Test func aBadStatusIsCodeMinus1011WithAFNetworkingsMessage() throws {
        let result = HTTPResponseSerializer().serialize(response(404, "text/html"), data: bytes("nope"), request: nil)
        let error = try #require(result.error)
        #expect(error.code == -1011)
        #expect(error.domain == "io.tincan.error.serialization.response")
        #expect(error.message == "Request failed: not found (404)")
        #expect(error.url == url)
        #expect(error.response.statusCode == 404)
        #expect(error.data == bytes("nope"))
        #expect(error.underlying == nil)
    }

    @Test func aBadContentTypeIsCodeMinus1016() throws {
        var serializer = HTTPResponseSerializer()
        serializer.acceptableContentTypes = ["application/json"]
        let error = try #require(serializer.serialize(response(200, "text/html; charset=utf-8"), data: bytes("<p>"), request: nil).error)
        #expect(error.code == -1016)
        #expect(error.message == "Request failed: unacceptable content-type: text/html")
    }

    @Test func whenBothFailTheStatusErrorWrapsTheContentTypeError() throws {
        var serializer = HTTPResponseSerializer()
        serializer.acceptableContentTypes = ["application/json"]
        let error = try #require(serializer.serialize(response(500, "text/plain"), data: bytes("boom"), request: nil).error)
        #expect(error.chain.map(\.code) == [-1011, -1016])
        #expect(error.message == "Request failed: internal server error (500)")
        #expect(error.underlying?.error.message == "Request failed: unacceptable content-type: text/plain")
        #expect(error.underlying?.error.data == bytes("boom"))
    }

    @Test(arguments: [204, 205])
    func bodilessNoContentResponsesPass(status: Int) {
        var serializer = JSONResponseSerializer()
        serializer.acceptableStatusCodes = .successful
        let result = serializer.serialize(response(status, "text/html"), data: [], request: nil)
        #expect(result.isValid)
        #expect(result.body == .none)
    }

    @Test func headResponsesPassContentTypeValidation() {
        let head = HTTPRequest(method: "HEAD", url: url)
        let result = JSONResponseSerializer().serialize(response(200, "text/html"), data: [], request: head)
        #expect(result.isValid)
    }

    @Test func aMissingContentTypeWithNoBodyPasses() {
        #expect(JSONResponseSerializer().serialize(response(200), data: [], request: nil).isValid)
    }

    @Test func statusCodeSetsParseRangesAndSingleCodes() throws {
        let set = try StatusCodeSet(parsing: "200-299,304 418")
        #expect(set.contains(250) && set.contains(304) && set.contains(418))
        #expect(!set.contains(300))
        #expect(set.description == "200-299,304,418")
        #expect(try StatusCodeSet(parsing: "2xx,304").description == "200-299,304", "a class of codes, as session files and the TUI take it")
        #expect(try StatusCodeSet(parsing: "4XX").contains(404))
        for bad in ["300-200", "6xx", "2x", "xx", "abc"] {
            #expect { try StatusCodeSet(parsing: bad) } throws: { ($0 as? StatusCodeSetError)?.item == bad }
        }
    }
}

@Suite("The JSON response serializer")
struct JSONResponseSerializerTests {
    @Test(arguments: ["application/json", "text/json", "text/javascript", "application/JSON; charset=utf-8"])
    func acceptsTheJSONContentTypes(type: String) {
        let result = JSONResponseSerializer().serialize(response(200, type), data: bytes(#"{"a":1}"#), request: nil)
        #expect(result.isValid)
        #expect(result.body == .json(JSONDocument(["a": 1])))
    }

    @Test(arguments: ["", " "])
    func anEmptyOrSingleSpaceBodyIsNoObjectAndNoError(body: String) {
        let result = JSONResponseSerializer().serialize(response(200, "application/json"), data: bytes(body), request: nil)
        #expect(result.isValid)
        #expect(result.body == .none)
    }

    @Test func removesKeysWithNullValuesRecursivelyInsideArraysToo() {
        var serializer = JSONResponseSerializer()
        serializer.removesKeysWithNullValues = true
        let result = serializer.serialize(response(200, "application/json"),
            data: bytes(#"{"a":null,"b":{"c":null,"d":1},"e":[{"f":null,"g":2},null]}"#), request: nil)
        #expect(result.body == .json(JSONDocument(["b": ["d": 1], "e": [["g": 2], .null]])))
    }

    @Test func keepsNullsUnlessAsked() {
        let result = JSONResponseSerializer().serialize(response(200, "application/json"), data: bytes(#"{"a":null}"#), request: nil)
        #expect(result.body == .json(JSONDocument(["a": .null])))
    }

    @Test func fragmentsNeedTheReadingOption() throws {
        let refused = JSONResponseSerializer().serialize(response(200, "application/json"), data: bytes("42"), request: nil)
        #expect(try #require(refused.error).code == 3840)
        var serializer = JSONResponseSerializer()
        serializer.allowsFragments = true
        #expect(serializer.serialize(response(200, "application/json"), data: bytes("42"), request: nil).body == .json(JSONDocument(42)))
    }

    @Test func invalidJSONIsADecodingErrorWithItsPosition() throws {
        let error = try #require(JSONResponseSerializer().serialize(response(200, "application/json"), data: bytes("{\"a\":}"), request: nil).error)
        #expect(error.domain == ResponseSerializationError.decodingDomain)
        #expect(error.message.contains("line 1, column 6"))
    }

    @Test func aJSONErrorPageStillDecodesWithItsStatusError() throws {
        let result = JSONResponseSerializer().serialize(response(404, "application/json"), data: bytes(#"{"error":"missing"}"#), request: nil)
        #expect(result.body == .json(JSONDocument(["error": "missing"])))
        #expect(try #require(result.error).code == -1011)
    }

    @Test func aWrongContentTypeIsNotDecoded() throws {
        let result = JSONResponseSerializer().serialize(response(200, "text/html"), data: bytes(#"{"a":1}"#), request: nil)
        #expect(result.body == .none)
        #expect(try #require(result.error).code == -1016)
    }
}

@Suite("XML, property-list, image and compound serializers")
struct OtherResponseSerializerTests {
    @Test func parsesXMLIntoATree() throws {
        let result = XMLResponseSerializer().serialize(response(200, "application/xml"),
            data: bytes(#"<?xml version="1.0"?><slideshow title="Demo"><slide n="1"><title>Hi &amp; bye</title></slide><![CDATA[raw <x>]]></slideshow>"#), request: nil)
        guard case .xml(let root) = result.body else { Issue.record("expected XML, got \(result.body)"); return }
        #expect(root.name == "slideshow")
        #expect(root.attributes == [.init(name: "title", value: "Demo")])
        #expect(root.elements.first?.elements.first?.text == "Hi & bye")
        #expect(root.text == "raw <x>")
        #expect(root.indented().contains("<title>Hi &amp; bye</title>"))
    }

    @Test func malformedXMLIsAnError() throws {
        let result = XMLResponseSerializer().serialize(response(200, "text/xml"), data: bytes("<a><b></a>"), request: nil)
        #expect(try #require(result.error).domain == ResponseSerializationError.decodingDomain)
        #expect(result.body == .none)
    }

    @Test func readsXMLAndBinaryPropertyLists() throws {
        let object: [String: Any] = ["flag": true, "n": 7, "r": 2.5, "list": ["a"]]
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
            let result = PropertyListResponseSerializer().serialize(response(200, "application/x-plist"), data: Array(data), request: nil)
            #expect(result.body == .propertyList(["flag": true, "list": ["a"], "n": 7, "r": 2.5]))
        }
    }

    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 1, 0, 0, 0, 0, 0x80], ImageInfo(format: .png, width: 256, height: 128)),
        (Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00], ImageInfo(format: .gif, width: 320, height: 240)),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80], ImageInfo(format: .jpeg, width: 640, height: 480)),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0, 0x1F, 0, 0, 0x0F, 0, 0], ImageInfo(format: .webp, width: 32, height: 16)),
    ] as [([UInt8], ImageInfo)])
    func readsImageSizesFromHeaders(data: [UInt8], expected: ImageInfo) {
        #expect(ImageInfo.read(data) == expected)
        let type = "image/" + expected.format.rawValue.lowercased()
        #expect(ImageResponseSerializer().serialize(response(200, type), data: data, request: nil).body == .image(expected))
    }

    @Test func anUnknownImageIsADecodingError() throws {
        let result = ImageResponseSerializer().serialize(response(200, "image/png"), data: [1, 2, 3], request: nil)
        #expect(try #require(result.error).code == 3840)
    }

    @Test func compoundTakesTheFirstSerializerThatDecodes() {
        let xml = CompoundResponseSerializer().serialize(response(200, "text/xml"), data: bytes("<r/>"), request: nil)
        #expect(xml.body == .xml(XMLTree(name: "r")))
        #expect(xml.isValid)
        let json = CompoundResponseSerializer().serialize(response(404, "application/json"), data: bytes("[1]"), request: nil)
        #expect(json.body == .json(JSONDocument([1])))
        #expect(json.error?.code == -1011)
    }

    @Test func compoundAcceptanceSettingsGovernWhicheverSerializerWins() throws {
        var compound = CompoundResponseSerializer()
        compound.acceptableStatusCodes = try StatusCodeSet(parsing: "404")
        let notFound = compound.serialize(response(404, "application/json"), data: bytes("[1]"), request: nil)
        #expect(notFound.isValid)
        #expect(notFound.body == .json(JSONDocument([1])))
        compound.acceptableContentTypes = ["application/json"]
        let xml = compound.serialize(response(404, "text/xml"), data: bytes("<r/>"), request: nil)
        #expect(xml.body == .data(bytes("<r/>")))
        #expect(xml.error?.message == "Request failed: unacceptable content-type: text/xml")
    }

    @Test func compoundFallsBackToHTTPValidation() {
        let result = CompoundResponseSerializer().serialize(response(200, "text/plain"), data: bytes("hello"), request: nil)
        #expect(result.isValid)
        #expect(result.body == .data(bytes("hello")))
        let failed = CompoundResponseSerializer().serialize(response(503, "text/plain"), data: bytes("down"), request: nil)
        #expect(failed.error?.message == "Request failed: service unavailable (503)")
    }
}
