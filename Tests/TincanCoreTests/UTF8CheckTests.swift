import Testing
import TincanDemoServer
@testable import TincanCore

@Suite("UTF-8 is checked as the standard library checks it")
struct UTF8CheckTests {
    /// The standard library's answer, byte by byte.
    static func reference(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    @Test("valid and invalid text gets the standard library's answer, wherever a sequence falls against the 32-byte blocks")
    func agreesWithTheStandardLibrary() {
        let pieces: [[UInt8]] = [
            Array("é".utf8), Array("漢".utf8), Array("👍🏽".utf8), Array("\u{10FFFF}".utf8),
            [0x80], [0xC3], [0xE6, 0xBC], [0xF0, 0x9F, 0x91], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xFE],
        ]
        // Every piece after every length of ASCII from 0 to 70, and before 0 to 40 more: across
        // the first, second and third blocks, and in the byte-by-byte tail.
        for piece in pieces {
            for before in 0...70 {
                for after in [0, 1, 7, 31, 32, 33, 40] {
                    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: before) + piece + [UInt8](repeating: UInt8(ascii: "b"), count: after)
                    #expect(UTF8Check.isValid(bytes) == Self.reference(bytes), "\(piece) after \(before), before \(after)")
                }
            }
        }
        #expect(UTF8Check.isValid([]))
        #expect(UTF8Check.isValid(Array(String(repeating: "a", count: 1000).utf8)))
    }

    @Test("random text with a few bytes changed gets the standard library's answer")
    func randomText() {
        var generator = SeededGenerator(seed: 8)
        let alphabet = ["a", "{", "\"", " ", "é", "ß", "漢", "👍", "\u{0}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}"].map { Array($0.utf8) }
        var valid = 0
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...120, using: &generator) {
                // Mostly ASCII runs, as servers send, with other characters among them.
                bytes += Bool.random(using: &generator) ? [UInt8](repeating: UInt8(ascii: "x"), count: Int.random(in: 1...40, using: &generator)) : alphabet.randomElement(using: &generator)!
            }
            for _ in 0..<Int.random(in: 0...2, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let expected = Self.reference(bytes)
            if expected { valid += 1 }
            #expect(UTF8Check.isValid(bytes) == expected, "\(bytes)")
        }
        // Both answers were tried many times.
        #expect(valid > 500 && valid < 2500)
    }
}
