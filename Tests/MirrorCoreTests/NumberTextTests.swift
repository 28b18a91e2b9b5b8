import Foundation
import Testing
@testable import MirrorCore

@Suite struct NumberTextTests {
    /// Byte counts at every unit edge, halves, and a spread of pseudo-random sizes up to 2^63.
    static let byteCounts: [Int64] = {
        var counts: [Int64] = [0, 1, -1, 2, 10, 999, 1000, 1023, 1024, 1025, 1536, 2047, 2048, 2560, 3584, 10_066_329,
                               1_048_575, 1_048_576, 1_101_004, 1_101_005, 9_489_612, 9_489_613, 1_073_741_823,
                               1_073_741_824, 1_610_612_736, 1 << 40, 1 << 50, 1 << 60, Int64.max, -1024, -2048, -1_572_864]
        for shift in 10..<62 {
            let unit = Int64(1) << shift
            counts += [unit - 1, unit, unit + 1, unit + unit / 2, unit / 1024 * 1023]
        }
        var state: UInt64 = 12_345
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            counts.append(Int64(state >> (1 + state % 62)))
        }
        return counts
    }()

    @Test func byteCountsMatchByteCountFormatter() {
        var mismatches: [String] = []
        // Every count but zero, which we write `0 bytes` where Foundation writes `Zero KB`.
        for count in Self.byteCounts where count != 0 {
            let ours = NumberText.byteCount(count)
            let theirs = ByteCountFormatter.string(fromByteCount: count, countStyle: .binary)
            if ours != theirs { mismatches.append("\(count): \(ours) != \(theirs)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test(arguments: [
        (Int64(0), "0 bytes"), (1, "1 byte"), (2, "2 bytes"), (1000, "1,000 bytes"), (1536, "2 KB"), (2560, "2 KB"),
        (1_048_575, "1,024 KB"), (10_066_329, "9.6 MB"), (1_610_612_736, "1.5 GB"), (1_342_177_280, "1.25 GB"), (-1024, "-1 KB"),
    ])
    func byteCountExamples(count: Int64, text: String) {
        #expect(NumberText.byteCount(count) == text)
    }

    @Test func fixedDecimalsMatchPrintf() {
        var values: [Double] = [0, -0.0, 0.05, 0.25, 0.35, 0.125, 2.5, 3.5, 0.5, 1.5, -0.04, -2.5, 1.0005, 9.95, 99.95,
                                12.25, .leastNonzeroMagnitude, 2.2250738585072014e-308 / 3, 1e15 + 0.5, 4_503_599_627_370_495.5, 9_007_199_254_740_994, 1e20, 1e300, 0.0625, 0.9999999]
        var state: UInt64 = 777
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            values.append(unit * pow(10, Double(state % 9)) - (state & 4 == 0 ? 0 : 50))
            values.append((unit * 20_000).rounded() / 8)  // many exact halves and quarters
        }
        var mismatches: [String] = []
        for value in values {
            for digits in [0, 1, 2, 3, 6] {
                let ours = NumberText.fixed(value, fractionDigits: digits)
                let theirs = String(format: "%.\(digits)f", value)
                if ours != theirs { mismatches.append("\(value) %.\(digits)f: \(ours) != \(theirs)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func fixedExamplesAndSpecialValues() {
        #expect(NumberText.fixed(42.46, fractionDigits: 1) == "42.5")
        #expect(NumberText.fixed(0.05, fractionDigits: 1) == "0.1")
        #expect(NumberText.fixed(0.25, fractionDigits: 1) == "0.2")
        #expect(NumberText.fixed(1.0005, fractionDigits: 3) == "1.000")
        #expect(NumberText.fixed(-0.04, fractionDigits: 1) == "-0.0")
        #expect(NumberText.fixed(.nan, fractionDigits: 1) == "nan")
        #expect(NumberText.fixed(-.infinity, fractionDigits: 1) == "-inf")
        #expect(NumberText.fixed(1e20, fractionDigits: 1) == "100000000000000000000.0")
    }

    @Test func zeroPaddedMatchesPrintf() {
        for value in [0, 5, 42, 999_999, 1_234_567, -42] {
            #expect(NumberText.zeroPadded(value, width: 6) == String(format: "%06d", value))
        }
        for value in 0...255 {
            #expect(NumberText.zeroPadded(value, width: 2, radix: 16) == String(format: "%02x", value))
        }
    }
}
