import TestSupport
import Testing
@testable import TickerModel

/// Counts as functions of time: end values, monotonic counts, constant field width, SetValue
/// during a count, and the exact next change of the written number.
@Suite struct CounterTests {
    static let base: Instant = 1_700_000_000_000_000

    static func randomCounter(_ rng: inout SeededRandom, maxDuration: Int64 = 20_000_000) throws -> Counter {
        let magnitude = [1.0, 50, 5000, 2e6][Int.random(in: 0..<4, using: &rng)]
        let format = try NumberFormat(
            decimals: Int.random(in: 0...3, using: &rng), grouping: Bool.random(using: &rng))
        return try Counter(
            from: Double.random(in: -magnitude...magnitude, using: &rng),
            to: Double.random(in: -magnitude...magnitude, using: &rng),
            start: base + Int64.random(in: 0...1_000_000, using: &rng),
            duration: Int64.random(in: 0...maxDuration, using: &rng),
            easing: Easing.allCases[Int.random(in: 0..<Easing.allCases.count, using: &rng)],
            format: format)
    }

    @Test("a count shows exactly `from` up to its start and exactly `to` from its end")
    func exactEnds() throws {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<500 {
            let counter = try Self.randomCounter(&rng)
            #expect(counter.value(at: counter.start) == counter.from)
            #expect(counter.value(at: counter.start - 1) == counter.from)
            #expect(counter.value(at: counter.endInstant) == counter.to)
            #expect(counter.value(at: counter.endInstant + 123_456_789) == counter.to)
        }
    }

    @Test("duration 0 jumps at the start")
    func jump() throws {
        let counter = try Counter(from: 3, to: 42, start: Self.base)
        #expect(counter.value(at: Self.base - 1) == 3)
        #expect(counter.value(at: Self.base) == 42)
        #expect(counter.endInstant == Self.base)
        #expect(!counter.isCounting(at: Self.base))
    }

    @Test("counts along a monotonic curve never go back; every count stays between its ends")
    func monotonic() throws {
        var rng = SeededRandom(seed: 12)
        for _ in 0..<300 {
            let counter = try Self.randomCounter(&rng)
            let low = min(counter.from, counter.to)
            let high = max(counter.from, counter.to)
            var previous = counter.from
            for step in 0...200 {
                let t = counter.start + counter.duration * Int64(step) / 200
                let value = counter.value(at: t)
                #expect(value >= low && value <= high)
                if counter.easing.isMonotonic {
                    #expect(counter.to >= counter.from ? value >= previous : value <= previous, "\(counter.easing)")
                }
                previous = value
            }
        }
    }

    @Test("a linear count is at the halfway value halfway through")
    func linearHalfway() throws {
        let counter = try Counter(from: 0, to: 1000, start: Self.base, duration: 10_000_000)
        #expect(counter.value(at: Self.base + 5_000_000) == 500)
        #expect(counter.number(at: Self.base + 2_500_000) == "250")
    }

    @Test("the field is as wide as the widest number of the count, at every instant")
    func fieldWidth() throws {
        var rng = SeededRandom(seed: 13)
        for _ in 0..<300 {
            let counter = try Self.randomCounter(&rng)
            var widest = 0
            for step in 0...400 {
                let t = counter.start + counter.duration * Int64(step) / 400
                widest = max(widest, counter.format.width(counter.value(at: t)))
                #expect(counter.fieldWidth(at: counter.start) >= counter.format.width(counter.value(at: t)))
            }
            // Sampling finds the ends' widths, so the field is never wider than needed either.
            #expect(counter.countingWidth == widest)
            #expect(counter.fieldWidth(at: counter.endInstant) == counter.format.width(counter.to))
        }
    }

    @Test("SetValue during a count starts from the value shown at that instant")
    func setDuringCount() throws {
        var counters = CounterSet()
        let t0 = Self.base
        try counters.set("n", to: 1000, options: CounterOptions(duration: 10_000_000, easing: .easeOutCubic), at: t0)
        let t1 = t0 + 4_000_000
        let shown = try #require(counters["n"]).value(at: t1)
        try counters.set("n", to: 0, options: CounterOptions(duration: 2_000_000), at: t1)
        let counter = try #require(counters["n"])
        #expect(counter.value(at: t1) == shown)
        #expect(counter.from == shown)
        #expect(counter.value(at: t1 + 2_000_000) == 0)
        // An explicit `from` wins.
        try counters.set("n", to: 5, options: CounterOptions(duration: 1_000_000, from: 100), at: t1 + 500_000)
        #expect(counters["n"]?.value(at: t1 + 500_000) == 100)
    }

    @Test("a new name appears at its value; format options not given are kept")
    func setNewAndKeepFormat() throws {
        var counters = CounterSet()
        let change = try counters.set("sold", to: 12, options: CounterOptions(duration: 5_000_000, decimals: 1, prefix: "$"), at: Self.base)
        #expect(change.layoutChanged)
        #expect(counters["sold"]?.value(at: Self.base) == 12)
        #expect(counters["sold"]?.text(at: Self.base) == "$12.0")
        let same = try counters.set("sold", to: 15, options: CounterOptions(duration: 5_000_000), at: Self.base + 1)
        #expect(counters["sold"]?.text(at: Self.base + 5_000_001) == "$15.0")
        #expect(!same.layoutChanged) // 12.0 → 15.0: same width, prefix and suffix
        #expect(same.endInstant == Self.base + 5_000_001)
        let wider = try counters.set("sold", to: 150, options: CounterOptions(duration: 5_000_000), at: Self.base + 2)
        #expect(wider.layoutChanged)
        let suffix = try counters.set("sold", to: 150, options: CounterOptions(suffix: "!"), at: Self.base + 3)
        #expect(suffix.layoutChanged)
        #expect(counters["sold"]?.text(at: Self.base + 3) == "$150.0!")
    }

    @Test("bad names, values, durations and decimals are refused and leave the set unchanged")
    func refused() throws {
        var counters = CounterSet()
        try counters.set("ok", to: 1, at: Self.base)
        let before = counters
        #expect(throws: EffectError.invalidCounterName("a b")) { try counters.set("a b", to: 1, at: Self.base) }
        #expect(throws: EffectError.invalidCounterName("")) { try counters.set("", to: 1, at: Self.base) }
        #expect(throws: EffectError.valueOutOfRange(option: "value", value: 2e12)) { try counters.set("ok", to: 2e12, at: Self.base) }
        // A new name without `from` starts at its value: the error names the value, not `from`.
        #expect(throws: EffectError.valueOutOfRange(option: "value", value: 1e308)) { try counters.set("fresh", to: 1e308, at: Self.base) }
        #expect(throws: EffectError.valueOutOfRange(option: "from", value: -.infinity)) {
            try counters.set("ok", to: 1, options: CounterOptions(from: -.infinity), at: Self.base)
        }
        #expect(throws: EffectError.negativeDuration(option: "duration", value: -5)) {
            try counters.set("ok", to: 1, options: CounterOptions(duration: -5), at: Self.base)
        }
        #expect(throws: EffectError.tooManyDecimals(9, limit: 6)) {
            try counters.set("ok", to: 1, options: CounterOptions(decimals: 9), at: Self.base)
        }
        #expect(counters == before)
        #expect(EffectError.valueOutOfRange(option: "value", value: 2e12).description == "value must be a finite number from -1e12 to 1e12, not 2000000000000.0")
        #expect(EffectError.invalidCounterName("a b").description == "counter name \"a b\" must be 1 to 64 of A-Z, a-z, 0-9 and _")
        #expect(Placeholders.isValidName(String(repeating: "a", count: 64)))
        #expect(!Placeholders.isValidName(String(repeating: "a", count: 65)))
    }

    @Test("ValueReached bookkeeping: the next end, and the counts reached in an interval")
    func reached() throws {
        var counters = CounterSet()
        try counters.set("a", to: 10, options: CounterOptions(duration: 3_000_000), at: Self.base)
        try counters.set("b", to: 20, options: CounterOptions(duration: 1_000_000), at: Self.base)
        try counters.set("c", to: 30, at: Self.base)
        #expect(counters.nextEnd(after: Self.base) == Self.base + 1_000_000)
        #expect(counters.nextEnd(after: Self.base + 1_000_000) == Self.base + 3_000_000)
        #expect(counters.nextEnd(after: Self.base + 3_000_000) == nil)
        let due = counters.reached(after: Self.base - 1, through: Self.base + 1_000_000)
        #expect(due.map(\.name) == ["b", "c"])
        #expect(due.map(\.value) == [20, 30])
        #expect(counters.reached(after: Self.base + 1_000_000, through: Self.base + 5_000_000).map(\.name) == ["a"])
    }

    @Test("nextChange is the first microsecond at which the written number changes (all curves)")
    func nextChangeExact() throws {
        var rng = SeededRandom(seed: 14)
        for easing in Easing.allCases {
            for _ in 0..<12 {
                let format = try NumberFormat(decimals: Int.random(in: 0...1, using: &rng))
                let counter = try Counter(
                    from: Double(Int.random(in: -40...40, using: &rng)), to: Double(Int.random(in: -40...40, using: &rng)),
                    start: Self.base, duration: Int64.random(in: 1...3000, using: &rng), easing: easing, format: format)
                var t = Self.base - 2
                while t <= counter.endInstant + 1 {
                    // Reference: walk microsecond by microsecond.
                    let original = counter.number(at: t)
                    var expected: Instant?
                    var probe = t + 1
                    while probe <= counter.endInstant {
                        if counter.number(at: probe) != original { expected = probe; break }
                        probe += 1
                    }
                    #expect(counter.nextChange(after: t) == expected, "\(easing) t \(t - Self.base)")
                    t += Int64.random(in: 1...40, using: &rng)
                }
            }
        }
    }
}
