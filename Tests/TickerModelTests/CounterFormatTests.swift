import TestSupport
import Testing
@testable import TickerModel

/// Number formatting of counters: golden cases worked out by hand, and random values against a
/// simple string-based reference.
@Suite struct CounterFormatTests {
    static func format(_ decimals: Int = 0, grouping: Bool = false, prefix: String = "", suffix: String = "") throws -> NumberFormat {
        try NumberFormat(decimals: decimals, grouping: grouping, prefix: prefix, suffix: suffix)
    }

    @Test("golden numbers: decimals, grouping, signs, rounding half away from zero")
    func golden() throws {
        let cases: [(Double, Int, Bool, String)] = [
            (0, 0, false, "0"),
            (7, 0, false, "7"),
            (1234567, 0, true, "1,234,567"),
            (1234567, 0, false, "1234567"),
            (999, 0, true, "999"),
            (1000, 0, true, "1,000"),
            (123456.25, 1, true, "123,456.3"), // .25 → 2.5 tenths → 3 (half away from zero)
            (-1234.5, 0, true, "-1,235"),
            (-2.5, 0, false, "-3"),
            (2.5, 0, false, "3"),
            (0.125, 2, false, "0.13"),
            (-0.125, 2, false, "-0.13"),
            (-0.25, 0, false, "0"), // rounds to zero: no sign
            (-0.001, 2, false, "0.00"),
            (3, 3, false, "3.000"),
            (0.5, 3, true, "0.500"),
            (999.5, 0, true, "1,000"),
            (-1000000, 2, true, "-1,000,000.00"),
        ]
        for (value, decimals, grouping, expected) in cases {
            let format = try Self.format(decimals, grouping: grouping)
            #expect(format.number(value) == expected, "\(value) decimals \(decimals) grouping \(grouping)")
            #expect(format.width(value) == expected.count)
        }
    }

    @Test("prefix and suffix surround the number")
    func prefixSuffix() throws {
        let format = try Self.format(2, grouping: true, prefix: "€ ", suffix: " left")
        #expect(format.text(1234.5) == "€ 1,234.50 left")
        #expect(format.number(1234.5) == "1,234.50")
    }

    @Test("decimals above the limit are refused with a clear message")
    func tooManyDecimals() {
        #expect(throws: EffectError.tooManyDecimals(7, limit: 6)) { try NumberFormat(decimals: 7) }
        #expect(throws: EffectError.tooManyDecimals(-1, limit: 6)) { try NumberFormat(decimals: -1) }
        #expect(EffectError.tooManyDecimals(7, limit: 6).description == "decimals must be at most 6, not 7")
    }

    /// Obviously-right formatting: round the scaled value, then cut its decimal digits by string.
    static func reference(_ value: Double, decimals: Int, grouping: Bool) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let key = Int64((value * scale).rounded(.toNearestOrAwayFromZero))
        var digits = String(key.magnitude)
        while digits.count < decimals + 1 { digits = "0" + digits }
        let integer = String(digits.dropLast(decimals))
        let fraction = String(digits.suffix(decimals))
        var grouped = ""
        for (i, ch) in integer.reversed().enumerated() {
            if grouping, i > 0, i % 3 == 0 { grouped = "," + grouped }
            grouped = String(ch) + grouped
        }
        return (key < 0 ? "-" : "") + grouped + (decimals > 0 ? "." + fraction : "")
    }

    @Test("random values match the reference formatting")
    func randomAgainstReference() throws {
        var rng = SeededRandom(seed: 0xF0_4A7)
        for _ in 0..<3000 {
            let decimals = Int.random(in: 0...NumberFormat.maxDecimals, using: &rng)
            let grouping = Bool.random(using: &rng)
            let magnitude = [1.0, 100, 1e4, 1e7, 1e12][Int.random(in: 0..<5, using: &rng)]
            let value = Double.random(in: -magnitude...magnitude, using: &rng)
            let format = try Self.format(decimals, grouping: grouping)
            #expect(format.number(value) == Self.reference(value, decimals: decimals, grouping: grouping), "\(value) d\(decimals) g\(grouping)")
        }
    }
}
