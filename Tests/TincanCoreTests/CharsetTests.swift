import Testing
import TincanCore

@Suite("Response text in its charset")
struct CharsetTests {
    static func response(_ contentType: String) -> HTTPResponse {
        HTTPResponse(url: URLReference(parsing: "http://example.com/"), statusCode: 200, headers: ["Content-Type": contentType])
    }

    @Test("A JSON body in ISO-8859-1 is converted to UTF-8 before it is parsed")
    func latin1IsConverted() throws {
        let body: [UInt8] = Array(#"{"name":"Jos"#.utf8) + [0xE9] + Array(#""}"#.utf8)
        let result = JSONResponseSerializer().serialize(Self.response("application/json; charset=iso-8859-1"), data: body, request: nil)
        #expect(result.error == nil)
        #expect(result.body == .json(JSONDocument(["name": "José"])))
    }

    @Test("Text is shown converted from its charset, and as received when it is not valid there")
    func displayConvertsOrKeeps() {
        #expect(TextEncoding.forDisplay(Array("caf".utf8) + [0xE9], charset: "ISO-8859-1") == Array("café".utf8))
        #expect(TextEncoding.forDisplay([0x61, 0xFF], charset: "us-ascii") == [0x61, 0xFF])
        #expect(TextEncoding.forDisplay([0x61, 0xFF], charset: nil) == [0x61, 0xFF])
    }

    @Test("A JSON body in UTF-16 is converted too")
    func utf16IsConverted() throws {
        let body = Array(#"{"a":"ü"}"#.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let result = JSONResponseSerializer().serialize(Self.response("application/json; charset=utf-16be"), data: body, request: nil)
        #expect(result.body == .json(JSONDocument(["a": "ü"])))
    }

    @Test("Invalid UTF-8 fails as AFNetworking fails it, never as replacement characters", arguments: ["application/json", "application/json; charset=utf-8", "application/json; charset=x-unknown"])
    func invalidUTF8Fails(contentType: String) throws {
        let body: [UInt8] = Array(#"{"name":"Jos"#.utf8) + [0xE9] + Array(#""}"#.utf8)
        let result = JSONResponseSerializer().serialize(Self.response(contentType), data: body, request: nil)
        let error = try #require(result.error)
        #expect(error.code == -1016)
        #expect(error.message.hasPrefix("Data failed decoding as a UTF-8 string"))
        #expect(!error.isValidationFailure)
        #expect(result.body == DecodedBody.none)
    }

    @Test("Null removal reaches the JSON serializer inside a compound one")
    func removeNullsWithTheCompoundSerializer() throws {
        let serializer = NullRemoval.applied(to: CompoundResponseSerializer())
        #expect(NullRemoval.isOn(in: serializer))
        #expect(!NullRemoval.isOn(in: CompoundResponseSerializer()))
        let result = serializer.serialize(Self.response("application/json"), data: Array(#"{"a":null,"b":{"c":null,"d":1},"e":[null]}"#.utf8), request: nil)
        #expect(result.body == .json(JSONDocument(["b": ["d": 1], "e": [.null]])))
    }
}
