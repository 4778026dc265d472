import Testing
import TestSupport
@testable import TincanCore
import TincanDemoServer

@Suite("JSON documents: checked whole, decoded where read")
struct JSONDocumentTests {
    /// Whether the parser takes `bytes`, and whether the document's check does; they must agree.
    private func verdicts(_ bytes: [UInt8]) -> (parser: Bool, index: Bool) {
        ((try? JSONParser.parse(bytes: bytes)) != nil, JSONIndex.containers(of: bytes) != nil)
    }

    @Test("the check takes and refuses exactly what the parser does, at the edges of the grammar", arguments: [
        // Values and spacing.
        "{}", "[]", " \t\r\n[ ]\n", "0", "-0", "-", "--1", "1.", ".5", "1.e3", "01", "-01", "0.0", "1e", "1e+", "1E-5", "1e5x",
        "true", "tru", "truex", "false", "fals", "null", "nul", "nulll", "\"\"", "\"", "'a'", "[1 2]", "[1,,2]", "[,1]",
        "[1,]", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{1:2}", "{\"a\":1 \"b\":2}", "[1]]", "[[1]", "{\"a\":[}]",
        "[1] x", "[1] ", "", "   ", "[\"a\"\"b\"]", "{\"a\":1}{}", "[true,false,null]", "[-]", "[1,-]", "[+1]", "[0x10]",
        // Numbers out of a double's range, and near it.
        "1e308", "1e309", "-1e309", "1e-400", "1.7976931348623157e308", "1.8e308", "92233720368547758070",
        String(repeating: "9", count: 300), String(repeating: "9", count: 308), String(repeating: "9", count: 309),
        String(repeating: "9", count: 400) + ".5", "0." + String(repeating: "9", count: 400),
        // Strings: escapes, surrogates and control characters.
        #""\n\t\r\b\f\/\\\"""#, #""\x""#, #""\u00e9""#, #""\u00G9""#, #""\u00e""#, #""\ud83d\ude00""#, #""\ud83d""#,
        #""\ud83d\u0041""#, #""\ude00""#, #""\ud83dx""#, #""\ud83d\""#, "\"a\u{01}b\"", "\"a\u{1F}\"", "\"a\u{7F}\"", "\"tab\tin\"",
        "\"é日本😀\"", #""\"#, #""abc\"#,
    ])
    func edgesOfTheGrammar(text: String) {
        let result = verdicts(Array(text.utf8))
        #expect(result.index == result.parser, "the parser says \(result.parser ? "valid" : "invalid")")
    }

    @Test("nesting is taken to 512 levels and refused past them, as the parser does")
    func nestingDepth() {
        for depth in [511, 512, 513] {
            let arrays = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            let objects = Array((String(repeating: "{\"a\":", count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)).utf8)
            for bytes in [arrays, objects] {
                let result = verdicts(bytes)
                #expect(result.parser == (depth <= 512))
                #expect(result.index == result.parser, "depth \(depth)")
            }
        }
    }

    @Test("a quote, a backslash or a control character is found wherever it falls in the eight-byte words")
    func stringWordBoundaries() {
        for length in 0..<20 {
            // Each special, and each followed by the byte a borrow could wrongly flag after it
            // (`#` after a quote, `]` after a backslash, `!` and space after a control byte).
            for special in ["\"", "\"#", "\\n", "\\\\]", "\\u00e9", "\u{01}", "\u{1F}! ", "\\q", "é", "\u{7F}"] {
                let text = "[\"" + String(repeating: "a", count: length) + special + String(repeating: "b", count: 20 - length) + "\"]"
                let bytes = Array(text.utf8)
                let result = verdicts(bytes)
                #expect(result.index == result.parser, "\(text.debugDescription)")
                if result.parser {
                    let document = try? JSONDocument(bytes: bytes)
                    #expect(document?.isIndexed == true)
                    #expect(document?.value == (try? JSONParser.parse(bytes: bytes)))
                }
            }
        }
    }

    @Test("broken copies of a document are refused by the check exactly when the parser refuses them")
    func mutatedDocuments() async {
        let (disagreements, refused) = await offThePool {
            let valid = Array(#"{"a":[1,-2.5e3,true,false,null,{"b":"c\"d\u00e9\ud83d\ude00"}],"e":{},"f":[],"g":"tab","h":0,"#.utf8)
                + Array(#""long": ["a string well past eight bytes, \"quoted\" and \\ escaped", 123456789012, {"k": [[], {}]}]}"#.utf8)
            let alphabet = Array(#"{}[]",:\ u0123456789eE+-.tfnaluslrx#"#.utf8) + [0x01, 0x09, 0x0A, 0xC3, 0x1F]
            // Seeded, so that a failure names the text and a rerun finds it again.
            var generator = SeededGenerator(seed: 20_261_126)
            var disagreements: [String] = []
            var refused = 0
            for _ in 0..<20_000 {
                var bytes = valid
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let position = Int.random(in: 0..<bytes.count, using: &generator)
                    let byte = alphabet.randomElement(using: &generator)!
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[position] = byte
                    case 1: bytes.insert(byte, at: position)
                    default: if bytes.count > 1 { bytes.remove(at: position) }
                    }
                }
                let result = verdicts(bytes)
                if !result.parser { refused += 1 }
                if result.index != result.parser { disagreements.append(String(decoding: bytes, as: UTF8.self)) }
                if result.parser, result.index, let document = try? JSONDocument(bytes: bytes), let tree = try? JSONParser.parse(bytes: bytes) {
                    if document.value != tree { disagreements.append("decoded differently: " + String(decoding: bytes, as: UTF8.self)) }
                    if document.bytes(indent: 2) != JSONWriter.bytes(tree, indent: 2) { disagreements.append("written differently: " + String(decoding: bytes, as: UTF8.self)) }
                }
            }
            return (disagreements, refused)
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        #expect(refused > 2_000 && refused < 19_500, "both verdicts come up often (\(refused) of 20,000 refused)")
    }

    @Test("a document decodes to the parser's tree, and an invalid one throws the parser's error")
    func decodesAsTheParser() throws {
        let text = #" {"b": 1, "a": [1.5, -0, 2e3, true, null, "\u00e9\ud83d\ude00\n"], "c": {"d": [[], {}]}} "#
        let document = try JSONDocument(bytes: Array(text.utf8))
        #expect(document.isIndexed)
        #expect(document.value == (try JSONParser.parse(text)))
        #expect(document.isContainer)
        #expect(document.kindName == "an object")
        let error = try #require(throws: JSONParseError.self) { try JSONDocument(bytes: Array("{\n  \"a\" 1\n}".utf8)) }
        #expect(error == (try #require(throws: JSONParseError.self) { try JSONParser.parse("{\n  \"a\" 1\n}") }))
        for (scalar, kind) in [("\"s\"", "a string"), ("-1.5", "a number"), ("true", "a boolean"), ("null", "null"), ("[]", "an array")] {
            let document = try JSONDocument(bytes: Array(scalar.utf8))
            #expect(document.kindName == kind)
            #expect(document.isContainer == (kind == "an array"))
        }
    }

    @Test("every path in a document reads the same value as the decoded tree, and missing ones read nothing")
    func pathsReadTheTreesValues() throws {
        let text = #"""
        {"users": [{"id": 1, "name": "Ada", "tags": ["x", "y"], "address": {"city": "Paris", "zip": null}},
                   {"id": 2, "name": "Grace \"G\"", "tags": [], "address": {}}, 3, "four", [5, [6, {"seven": 7}]]],
         "count": 5, "empty": {}, "nested": {"a": {"b": {"c": [true, false]}}}, "last": null}
        """#
        // The text as written, with no space at all, and with spaces around every token.
        let compact = try JSONWriter.string(JSONParser.parse(text))
        let spaced = compact.map { "{}[],:".contains($0) ? " \n\t\($0) \r" : String($0) }.joined()
        for variant in [text, compact, spaced] {
            try checkEveryPath(in: variant)
        }
        #expect(JSONDocument(try JSONParser.parse(text)).value(at: [.key("users"), .index(-1), .index(1), .index(1), .key("seven")]) == 7)
    }

    private func checkEveryPath(in text: String) throws {
        let document = try JSONDocument(bytes: Array(text.utf8))
        #expect(document.isIndexed)
        let tree = try JSONParser.parse(text)
        var checked = 0
        func visit(_ value: ParameterValue, _ steps: [JSONDocument.Step]) {
            #expect(document.value(at: steps) == value, "\(steps)")
            checked += 1
            switch value {
            case .dictionary(let dictionary):
                for (key, element) in dictionary { visit(element, steps + [.key(key)]) }
                #expect(document.value(at: steps + [.key("missing")]) == nil)
                #expect(document.value(at: steps + [.index(0)]) == nil, "an index into an object")
                #expect(document.elementCount(at: steps) == nil)
            case .array(let array):
                for (offset, element) in array.enumerated() {
                    visit(element, steps + [.index(offset)])
                    #expect(document.value(at: steps + [.index(offset - array.count)]) == element, "from the end")
                }
                #expect(document.value(at: steps + [.index(array.count)]) == nil)
                #expect(document.value(at: steps + [.index(-array.count - 1)]) == nil)
                #expect(document.value(at: steps + [.key("0")]) == nil, "a key into an array")
                #expect(document.elementCount(at: steps) == array.count)
            default:
                #expect(document.value(at: steps + [.key("x")]) == nil, "a step into a scalar")
                #expect(document.value(at: steps + [.index(0)]) == nil, "a step into a scalar")
            }
        }
        visit(tree, [])
        #expect(checked == 33, "every value of the document was visited")
    }

    @Test("of duplicate keys the last is read, and keys match as decoded strings do")
    func keysMatchAsDecodedStrings() throws {
        let text = #"{"a": 1, "b": 2, "a": 3, "caf\u00e9": "escaped", "e\u0301t\u00e9": "combining", "\u212A": "kelvin", "q\"": "quote", "é": "precomposed", "e\u0301": "combined last"}"#
        let document = try JSONDocument(bytes: Array(text.utf8))
        #expect(document.isIndexed)
        let tree = try JSONParser.parse(text)
        for key in ["a", "b", "café", "été", "e\u{301}t\u{E9}", "K", "\u{212A}", "q\"", "é", "e\u{301}", "nothing"] {
            #expect(document.value(at: [.key(key)]) == tree.dictionaryValue?[key], "\(key.debugDescription)")
        }
        #expect(document.value(at: [.key("a")]) == 3)
        #expect(document.value(at: [.key("K")]) == "kelvin", "U+212A is canonically K, as a Swift dictionary takes it")
        #expect(document.value(at: [.key("é")]) == "combined last", "two spellings of é are one key; the last value counts")
    }

    @Test("the JSON serializer returns a checked document whose paths read without decoding the rest")
    func serializerReturnsADocument() throws {
        let bytes = Array(#"[{"name":"Ada","id":1},{"name":"Grace","id":2}]"#.utf8)
        let response = HTTPResponse(url: URLReference(parsing: "http://127.0.0.1/"), statusCode: 200, headers: ["Content-Type": "application/json"])
        let result = JSONResponseSerializer().serialize(response, data: bytes, request: nil)
        guard case .json(let document) = result.body else {
            Issue.record("expected a JSON body, got \(result.body)")
            return
        }
        #expect(result.error == nil)
        #expect(document.isIndexed)
        #expect(document.elementCount(at: []) == 2)
        #expect(document.value(at: [.index(1), .key("name")]) == "Grace")
        #expect(document == JSONDocument([["name": "Ada", "id": 1], ["name": "Grace", "id": 2]]))
        #expect(document != JSONDocument([["name": "Ada", "id": 1]]))
    }
}

extension JSONDocumentTests {
    @Test("a document with more containers than one block of the index reads its last values")
    func manyContainers() throws {
        let count = 100_000
        let text = "[" + (0..<count).map { #"{"id":\#($0),"tags":[\#($0)]}"# }.joined(separator: ",") + "]"
        let document = try JSONDocument(bytes: Array(text.utf8))
        #expect(document.isIndexed)
        #expect(document.elementCount(at: []) == count)
        for index in [0, 32_767, 32_768, 65_536, count - 1] {
            #expect(document.value(at: [.index(index), .key("tags"), .index(0)]) == .integer(Int64(index)))
        }
        #expect(document.value(at: [.index(-1), .key("id")]) == .integer(Int64(count - 1)))
        #expect(document.value(at: [.index(count)]) == nil)
    }
}


extension JSONDocumentTests {
    @Test("with null members removed, every path reads what the tree with them removed holds, and nulls in arrays stay")
    func nullMembersRemoved() throws {
        let text = #"{"a": null, "b": {"c": null, "d": [null, {"e": null, "f": 1}]}, "g": [null], "h": 2, "i": 3, "i": null, "j": null, "j": 4}"#
        let document = try JSONDocument(bytes: Array(text.utf8)).removingNullMembers()
        #expect(document.isIndexed && document.removesNullMembers)
        let tree = JSONResponseSerializer.removingKeysWithNullValues(try JSONParser.parse(text))
        #expect(document.value == tree)
        let paths: [[JSONDocument.Step]] = [
            [.key("a")], [.key("b"), .key("c")], [.key("b"), .key("d"), .index(0)], [.key("b"), .key("d"), .index(1), .key("e")],
            [.key("b"), .key("d"), .index(1), .key("f")], [.key("g"), .index(0)], [.key("i")], [.key("j")], [.key("b")], [],
        ]
        for steps in paths {
            #expect(document.value(at: steps) == JSONDocument(tree).value(at: steps), "\(steps)")
        }
        #expect(document.value(at: [.key("g"), .index(0)]) == .null, "a null element holds its place")
        #expect(document.value(at: [.key("i")]) == nil, "the last of duplicate keys is null, so the key is gone")
        #expect(document.value(at: [.key("j")]) == 4)
        #expect(document != (try JSONDocument(bytes: Array(text.utf8))), "the same text with its nulls is another value")
        #expect(JSONDocument(["a": .null, "b": [.null]]).removingNullMembers() == JSONDocument(["b": [.null]]))
    }
}

extension JSONDocumentTests {
    @Test("a document is written exactly as the writer writes its decoded value, compact and indented, nulls kept or removed")
    func writesAsTheWriterDoes() throws {
        let texts = [
            #" {"b": 1, "a": [1.5, -0, 2e3, 1.50, 1e-400, 92233720368547758070, -9223372036854775808, true, null, "\u00e9\ud83d\ude00\n\t\"x\"\/"]} "#,
            #"{"a": 1, "b": {"c": null, "d": [null, {}, [], {"e": null}]}, "a": null, "é": "one", "e\u0301": "two", "\u212A": 3, "K": 4}"#,
            #"[{"name": "Zoë Müller", "tags": ["x", "東京"], "empty": "", "ctl": "\u0001"}, [[[]]], {}, 0]"#,
            #""a scalar""#, "42", "null", "[]", "{}", #"  [ 1 , { "a" : [ 2 , 3 ] } ]  "#,
        ]
        for text in texts {
            let document = try JSONDocument(bytes: Array(text.utf8))
            #expect(document.isIndexed)
            for removing in [false, true] {
                let shown = removing ? document.removingNullMembers() : document
                let tree = shown.value
                for indent in [nil, 2, 4] as [Int?] {
                    #expect(shown.bytes(indent: indent) == JSONWriter.bytes(tree, indent: indent), "\(text) removing nulls: \(removing), indent \(String(describing: indent))")
                }
            }
        }
        // A document that holds a value writes it through the writer.
        let held = JSONDocument(["a": [1, .null], "b": .null])
        #expect(held.bytes(indent: 2) == JSONWriter.bytes(["a": [1, .null], "b": .null], indent: 2))
        #expect(held.removingNullMembers().bytes(indent: nil) == Array(#"{"a":[1,null]}"#.utf8))
    }
}
