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
