import Foundation
import Testing
@testable import TincanCore

@Suite("Query strings follow AFNetworking's rules")
struct QueryStringTests {
    @Test func encodesFlatParametersAndEscapesAmpersands() {
        #expect(QueryString.encode(["key": "value", "key1": "value&"]) == "key=value&key1=value%26")
    }

    @Test func encodesNestedDictionariesWithBracketKeys() {
        #expect(QueryString.encode(["key": ["key1": "value"], "key2": "value&"]) == "key%5Bkey1%5D=value&key2=value%26")
    }

    @Test func encodesArraysWithEmptyBracketsInOrder() {
        #expect(QueryString.encode(["tags": ["b", "a", "c"]]) == "tags%5B%5D=b&tags%5B%5D=a&tags%5B%5D=c")
    }

    @Test func encodesSetsSortedWithoutBrackets() {
        let set: ParameterValue = .set(["pear", "apple", "fig"])
        #expect(QueryString.encode(["fruit": set]) == "fruit=apple&fruit=fig&fruit=pear")
    }

    @Test func encodesNullAsTheBareKey() {
        #expect(QueryString.encode(["a": .null, "b": "1"]) == "a&b=1")
        #expect(QueryString.encode(["x": ["y": .null]]) == "x%5By%5D")
    }

    @Test func encodesABareEmptyKeyWithItsSeparator() {
        #expect(QueryString.encode(["": .null, "b": "1"]) == "&b=1")
    }

    @Test func sortsKeysCaseSensitivelyByTheirStringForm() {
        #expect(QueryString.encode(["b": "1", "B": "2", "a": "3", "A": "4", "_": "5"]) == "A=4&B=2&_=5&a=3&b=1")
    }

    @Test func writesBooleansAsOneAndZero() {
        #expect(QueryString.encode(["t": true, "f": false]) == "f=0&t=1")
    }

    @Test func writesWholeNumbersWithoutAFraction() {
        #expect(QueryString.encode(["a": 1.0, "b": 2, "c": 1.5, "d": -3.0, "e": 0.1]) == "a=1&b=2&c=1.5&d=-3&e=0.1")
    }

    @Test func keepsDeepNestingInKeyOrderAndArrayOrder() {
        let parameters: ParameterValue = ["user": ["tags": ["x", "y"], "name": "Ann", "address": ["city": "Oslo"]]]
        #expect(QueryString.encode(parameters.dictionaryValue!)
            == "user%5Baddress%5D%5Bcity%5D=Oslo&user%5Bname%5D=Ann&user%5Btags%5D%5B%5D=x&user%5Btags%5D%5B%5D=y")
    }

    @Test func pairsMatchTheDirectEncoding() {
        let parameters: ParameterValue = ["z": [1, ["k": .null]], "a": .set([true, "s"]), "m": ["n": 2.5]]
        let joined = QueryString.pairs(parameters.dictionaryValue!).map(\.escaped).joined(separator: "&")
        #expect(joined == QueryString.encode(parameters.dictionaryValue!))
        #expect(joined == "a=1&a=s&m%5Bn%5D=2.5&z%5B%5D=1&z%5B%5D%5Bk%5D")
    }

    @Test func escapesEveryReservedCharacterButQuestionMarkAndSlash() {
        #expect(QueryString.encode(["k": ":#[]@!$&'()*+,;=?/"]) == "k=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/")
    }
}

@Suite("Percent-escaping never splits a composed character")
struct PercentEscapingTests {
    @Test func leavesUnreservedCharactersAlone() {
        #expect(PercentEscaping.escape("AZaz09-._~") == "AZaz09-._~")
    }

    @Test func escapesSpacesAndPercentSignsAndControlCharacters() {
        #expect(PercentEscaping.escape("a b%c\n") == "a%20b%25c%0A")
    }

    @Test func escapesNonASCIIAsUpperCaseUTF8Bytes() {
        #expect(PercentEscaping.escape("é") == "%C3%A9")
        #expect(PercentEscaping.escape("中") == "%E4%B8%AD")
    }

    @Test(arguments: [
        "👴🏻👮🏽", // emoji with skin tones
        "🇳🇴🇯🇵🇧🇷", // flags
        "e\u{301}a\u{308}\u{323}", // combining marks
        "👨‍👩‍👧‍👦", // a family joined by zero-width joiners
    ])
    func roundTripsEmojiSequencesLongerThanOneBatch(unit: String) {
        let text = String(repeating: unit, count: PercentEscaping.batchSize / unit.utf8.count * 3 + 7)
        let batches = PercentEscaping.batches(of: text)
        #expect(batches.count > 3)
        for batch in batches {
            // The initializer succeeds only where an extended grapheme cluster starts.
            #expect(String.Index(batch.upperBound, within: text) != nil)
            #expect(text.utf8.distance(from: batch.lowerBound, to: batch.upperBound) <= PercentEscaping.batchSize)
        }
        #expect(batches.map { String(text[$0]) }.joined() == text)
        let escaped = PercentEscaping.escape(text)
        #expect(escaped.removingPercentEncoding == text)
        #expect(escaped.utf8.allSatisfy { PercentEscaping.isAllowed($0) || $0 == UInt8(ascii: "%") })
    }

    @Test func roundTripsThousandsOfCJKCharacters() {
        let text = String((0..<5000).map { Character(Unicode.Scalar(0x4E00 + ($0 * 7) % 20000)!) })
        let escaped = PercentEscaping.escape(text)
        #expect(escaped.count == text.utf8.count * 3)
        #expect(escaped.removingPercentEncoding == text)
    }

    @Test func aSingleCharacterLongerThanABatchIsOneBatch() {
        let zalgo = "a" + String(repeating: "\u{301}", count: PercentEscaping.batchSize)
        let text = "x" + zalgo + "y"
        #expect(PercentEscaping.batches(of: text).map { String(text[$0]) } == ["x", zalgo, "y"])
        #expect(PercentEscaping.escape(text).removingPercentEncoding == text)
    }

    @Test func batchedAndUnbatchedEscapingAgree() {
        let text = String(repeating: "ab👍🏽ç", count: 2000)
        let perCharacter = text.map { PercentEscaping.escape(String($0)) }.joined()
        #expect(PercentEscaping.escape(text) == perCharacter)
    }

    @Test func listsEachEscapedCharacterOnce() {
        let escaped = PercentEscaping.escapedCharacters(in: "a b&c d👍🏽")
        #expect(escaped.map(\.character) == [" ", "&", "👍🏽"])
        #expect(escaped.map(\.escaped) == ["%20", "%26", "%F0%9F%91%8D%F0%9F%8F%BD"])
    }
}
