import Testing
import TincanCore

@Suite("Telling text from binary")
struct TextDetectionTests {
    /// What `isText` says by definition: valid UTF-8 without control characters but tab, line
    /// feed and carriage return.
    private func expected(_ bytes: [UInt8]) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return !text.unicodeScalars.contains { ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || $0.value == 0x7F }
    }

    @Test("text, control characters and malformed UTF-8 are told apart as a String would validate them", arguments: [
        [], Array("plain text\r\n\twith a tab".utf8), Array("é, 日本, 🇫🇷".utf8), [0x41, 0x00, 0x42], [0x41, 0x7F], [0x1B, 0x5B, 0x32, 0x4A],
        [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF, 0xFE], Array("ok".utf8) + [0xC3, 0xA9, 0x80],
        [0xC2, 0x85], [0xC2, 0xA0],
    ] as [[UInt8]])
    func bytes(_ bytes: [UInt8]) {
        #expect(RequestPreview.isText(bytes) == expected(bytes))
        // Slices and collections that are not contiguous give the same answer.
        #expect(RequestPreview.isText(bytes[...]) == expected(bytes))
        #expect(RequestPreview.isText(bytes.lazy.map { $0 }) == expected(bytes))
    }

    @Test("random bytes are told apart as a String would validate them")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<2_000 {
            // Mostly text with a few high and low bytes, so both answers come up often.
            let bytes = (0..<(length % 40)).map { _ in
                UInt8.random(in: 0...9, using: &generator) == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            #expect(RequestPreview.isText(bytes) == expected(bytes), "\(bytes)")
        }
    }
}
