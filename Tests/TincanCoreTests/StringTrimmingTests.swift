import Foundation
import Testing
import TestSupport
import TincanCore

@Suite("Trimming whitespace and newlines")
struct StringTrimmingTests {
    /// Spaces of every kind, tabs, line breaks, a combining mark after a space, and text with
    /// nothing to trim or nothing but what is trimmed.
    static let samples = [
        "", " ", "\t", "plain", "  two words  ", "\t tabbed \t", "\u{00A0}no-break\u{00A0}", "\u{3000}ideographic\u{3000}",
        "\u{2003}em\u{2009}thin\u{202F}", "\u{200B}zero width\u{200B}", "\nline\r\n", "\u{85}next\u{2028}\u{2029}",
        " \n mixed \r\t ", " \u{301}combining", "\u{000B}vertical\u{000C}", "é ", " 🇫🇷 ", "\u{1680}ogham\u{1680}",
    ]

    @Test("whitespace is trimmed exactly as CharacterSet.whitespaces trims it", arguments: samples)
    func whitespace(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("newlines are trimmed exactly as CharacterSet.newlines trims them", arguments: samples)
    func newlines(_ text: String) {
        #expect(text.trimmingNewlines() == text.trimmingCharacters(in: .newlines))
    }

    @Test("both are trimmed exactly as CharacterSet.whitespacesAndNewlines trims them", arguments: samples)
    func both(_ text: String) {
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("every Unicode scalar is trimmed or kept as Foundation's character sets say")
    func everyScalar() async {
        let differing = await offThePool {
            var differing: [String] = []
            for value in UInt32(0)...0x10FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = String(scalar)
                if text.trimmingWhitespace().isEmpty != CharacterSet.whitespaces.contains(scalar)
                    || text.trimmingNewlines().isEmpty != CharacterSet.newlines.contains(scalar)
                    || text.trimmingWhitespaceAndNewlines().isEmpty != CharacterSet.whitespacesAndNewlines.contains(scalar) {
                    differing.append("U+" + String(value, radix: 16, uppercase: true))
                }
            }
            return differing
        }
        #expect(differing == [])
    }

    @Test("any scalars can be trimmed, and only from the ends")
    func chosenScalars() {
        #expect(#" "quoted value"  "#.trimmingScalars { $0 == " " || $0 == "\"" } == "quoted value")
        #expect("== name = x ==".trimmingScalars { $0 == " " || $0 == "=" } == "name = x")
        #expect("===".trimmingScalars { $0 == "=" } == "")
    }
}
