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
