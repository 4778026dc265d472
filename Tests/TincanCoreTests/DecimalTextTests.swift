import Foundation
import Testing
import TestSupport
import TincanCore

@Suite("Numbers with a fixed count of decimals")
struct DecimalTextTests {
    @Test("edge values are written exactly as printf writes them", arguments: [0, 1, 2, 3, 6])
    func edges(decimals: Int) {
        let values: [Double] = [
            0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 1.005, 2.675, 0.125, 0.375, -0.04, -0.05, -1.25, 9.95, 99.95, 999.9999,
            0.5, 1.5, 2.5, -2.5, 1e-7, 123_456_789.987_654, 1e14 + 0.5, 1e15, 1e20, -1e20, .infinity, -.infinity, .nan,
            Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 4_503_599_627_370_495.5,
        ]
        for value in values {
            #expect(DecimalText.fixed(value, decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value)")
        }
    }

    @Test("a hundred thousand random values are written exactly as printf writes them")
    func randomValues() async {
        let differing = await offThePool {
            var generator = SystemRandomNumberGenerator()
            var differing: [String] = []
            for index in 0..<100_000 {
                let magnitude = [1.0, 100, 10_000, 1e9][index % 4]
                // Multiples of a thousandth and their neighbours meet the ties; the rest are anywhere.
                let value = index.isMultiple(of: 2)
                    ? Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 1000
                    : Double.random(in: -magnitude...magnitude, using: &generator)
                for decimals in [0, 1, 3] where DecimalText.fixed(value, decimals: decimals) != String(format: "%.\(decimals)f", value) {
                    differing.append("\(value) with \(decimals)")
                }
            }
            return differing
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }
}

@Suite("Widths, sizes and hexadecimal text")
struct FixedWidthTextTests {
    @Test("a width right-aligns as printf's %<width>.<decimals>f does, negative values included", arguments: [(-1.5, 1, 7), (3.14159, 3, 9), (42, 0, 8), (-0.04, 1, 5), (123_456.7, 1, 3)])
    func widths(value: Double, decimals: Int, width: Int) {
        #expect(DecimalText.fixed(value, decimals: decimals, width: width) == String(format: "%\(width).\(decimals)f", value))
    }

    @Test("a size in bytes gives one decimal of its unit")
    func sizesHaveOneDecimal() {
        #expect(RequestPreview.byteCount(16 << 20) == "16,777,216 bytes (16.0 MiB)")
        #expect(RequestPreview.byteCount(1_536) == "1,536 bytes (1.5 KiB)")
    }

    @Test("hexadecimal text is what %02x and %0Nx write, for bytes and numbers", arguments: [0, 1, 0x0F, 0x10, 0xAB, 0xFF])
    func hexadecimal(byte: Int) {
        #expect(HexText.bytes([UInt8(byte)]) == String(format: "%02x", byte))
        #expect(HexText.bytes([UInt8(byte)], uppercase: true) == String(format: "%02X", byte))
        #expect(HexText.number(byte * 4_099, width: 8) == String(format: "%08x", byte * 4_099))
        #expect(HexText.number(UInt32(byte) << 24 | 0xC0FFEE, width: 4, uppercase: true) == String(format: "%04X", UInt32(byte) << 24 | 0xC0FFEE))
    }

    @Test("a digest is written as two lowercase digits a byte")
    func digests() {
        #expect(HexText.bytes([0xDE, 0xAD, 0x00, 0x0F]) == "dead000f")
        #expect(HexText.bytes([UInt8]()) == "")
    }
}
