import Testing
@testable import TincanCore

@Suite("JSON reading and writing")
struct JSONTests {
    @Test func keepsKeyOrderAndNumberKinds() throws {
        let value = try JSONParser.parse(#" {"b": 1, "a": [1.5, -0, 2e3, true, null, "\u00e9\ud83d\ude00\n"]} "#)
        #expect(value == ["b": 1, "a": [1.5, 0, 2000.0, true, .null, "é😀\n"]])
        #expect(JSONWriter.string(value) == #"{"b":1,"a":[1.5,0,2000,true,null,"é😀\n"]}"#)
    }

    @Test func writesIndentedJSON() {
        #expect(JSONWriter.string(["a": [1, 2], "b": [:]], indent: 2) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}")
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8, "trailing comma"),
        ("{\n  \"a\" 1\n}", 2, 7, "expected ':'"),
        ("[1, 2", 1, 6, "expected ',' or ']'"),
        ("{'a':1}", 1, 2, "expected a key"),
        ("01", 1, 2, "leading zeros"),
        ("\"abc", 1, 5, "unterminated"),
        ("[1] x", 1, 5, "unexpected text"),
        ("", 1, 1, "expected a value"),
    ])
    func reportsTheLineAndColumnOfAnError(text: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(text) }
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.reason.contains(reason))
    }

    @Test func readsIntegersBeyondSixtyFourBitsAsDoubles() throws {
        #expect(try JSONParser.parse("92233720368547758070") == .double(Double("92233720368547758070")!))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
    }

    @Test("bytes escaped for a string literal, from an array or any sequence, read back as the text they were")
    func escapesBytesAsTheStringWriterDoes() throws {
        let text = "quote \" backslash \\ newline \n return \r tab \t bell \u{07} nul \u{00} é 日本 🇫🇷 \u{7F}"
        let bytes = Array(text.utf8)
        var fromArray: [UInt8] = []
        JSONWriter.appendEscaped(bytes, to: &fromArray)
        var fromSequence: [UInt8] = []
        JSONWriter.appendEscaped(bytes.lazy.map { $0 }, to: &fromSequence)
        #expect(fromArray == fromSequence)
        #expect([UInt8(ascii: "\"")] + fromArray + [UInt8(ascii: "\"")] == JSONWriter.bytes(.string(text)))
        #expect(try JSONParser.parse(bytes: [UInt8(ascii: "\"")] + fromArray + [UInt8(ascii: "\"")]) == .string(text))
    }
}
