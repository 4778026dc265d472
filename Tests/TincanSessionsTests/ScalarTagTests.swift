import Testing
import Yams
@testable import TincanSessions

@Suite("Scalar tags are resolved as Yams resolves them")
struct ScalarTagTests {
    @Test("every kind of plain scalar gets the tag Yams' default resolver gives it")
    func agreesWithYams() {
        let samples = ["", "~", "null", "Null", "NULL", "nil", "yes", "No", "ON", "off", "true", "False", "y", "n", "t", "o",
                       "0", "-1", "+17", "0x1F", "0o17", "017", "0b101", "1_000", "1:30", "3.14", "-.5", ".5", "1e3", "6.02e+23",
                       ".inf", "-.Inf", ".nan", "<<", "=", "2026-11-26", "2026-11-26T10:00:00Z", "2026-1-2 3:04:05",
                       "item", "GET", "http://x/", "{{base}}/get", "$.args.n", "Hello world", "élan", "_x", "@a", "#", "[1]", "/path",
                       "treehouse", "nothing", "offline", "yesterday", "07:30", "+", "-", ".", "0.", "1.2.3", "Infinity",
                       "-0", "+0", "00", "12345678901234567890", "1 2", "10\n", "ON", "yEs", "NuLL", "0x", "9_"]
        for text in samples {
            let node = Node.scalar(.init(text))
            #expect(ScalarTag.of(node) == Resolver.default.resolveTag(of: node), "\(text)")
        }
        // Quoted scalars keep the tag the parser gave them.
        let quoted = try? Yams.compose(yaml: "a: \"200\"\nb: 200\nc: plain")
        #expect(quoted.map { ScalarTag.of($0["a"]!) } == .str)
        #expect(quoted.map { ScalarTag.of($0["b"]!) } == .int)
        #expect(quoted.map { ScalarTag.of($0["c"]!) } == .str)
        // Explicit tags, collections, and every node of a real file, as the parser gives them.
        let file = try? Yams.compose(yaml: "a: !!int \"7\"\nb: !custom x\nc: [1, '2', ~]\nd: {e: 1.5}\nf: ''\ng:\n", .basic)
        let nodes = file.map { root in [root] + (root.mapping ?? [:]).flatMap { [$0.key, $0.value] + ($0.value.sequence.map(Array.init) ?? []) } } ?? []
        #expect(nodes.count > 12)
        for node in nodes {
            #expect(ScalarTag.of(node) == Resolver.default.resolveTag(of: node), "\(node)")
        }
    }

    @Test("a plain decimal integer is read to the value Yams reads, and any other text is left to Yams")
    func decimalValuesAgreeWithYams() {
        let decimals = ["0", "7", "-1", "+17", "9223372036854775807", "-9223372036854775808"]
        for text in decimals {
            let scalar = Node.Scalar(text, .implicit, .plain)
            #expect(ScalarTag.decimalValue(scalar) != nil, "\(text)")
            #expect(ScalarTag.decimalValue(scalar).map(Int.init) == Node.scalar(scalar).int, "\(text)")
        }
        // Yams tags a signed zero as an integer and then reads no value from it (a session said
        // it was "too large for an integer"); it is zero.
        for text in ["-0", "+0"] {
            #expect(Node.scalar(.init(text)).int == nil)
            #expect(ScalarTag.decimalValue(.init(text, .implicit, .plain)) == 0)
        }
        // Octal, other bases, underscores, sexagesimal, overflow and text: Yams reads them, or refuses them.
        for text in ["017", "00", "0x1F", "0o17", "0b101", "1_000", "1:30", "9223372036854775808", "12345678901234567890", "", "+", "1 2", "3.14", "item"] {
            #expect(ScalarTag.decimalValue(.init(text, .implicit, .plain)) == nil, "\(text)")
        }
        // A quoted scalar is never read as a number here, as Yams' constructor refuses it.
        for style in [Node.Scalar.Style.singleQuoted, .doubleQuoted, .literal, .folded] {
            #expect(ScalarTag.decimalValue(.init("7", .implicit, style)) == nil)
            #expect(Node.scalar(.init("7", Tag(.int), style)).int == nil)
        }
        #expect(Node.scalar(.init("017")).int == 15)
    }

    @Test("a reference is found byte by byte, and a lone brace is not one")
    func referencesAreFound() {
        #expect(Template.mayHoldReferences("{{base}}/get"))
        #expect(Template.mayHoldReferences("a{{"))
        #expect(!Template.mayHoldReferences("{a}{b}"))
        #expect(!Template.mayHoldReferences(""))
        #expect(!Template.mayHoldReferences("{ {"))
    }
}
