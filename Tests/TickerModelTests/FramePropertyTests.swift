import TestSupport
import Testing
@testable import TickerModel

/// Fast frames against the cell-by-cell reference, over hundreds of random tapes and settings.
@Suite struct FramePropertyTests {
    static let base: Instant = 1_700_000_000_000_000

    static func randomSettings(_ rng: inout SeededRandom) -> ChannelSettings {
        let easing = Easing.allCases[Int.random(in: 0..<Easing.allCases.count, using: &rng)]
        let speed: Speed = Bool.random(using: &rng)
            ? .cellsPerSecond(Double(Int.random(in: 1...400, using: &rng)) / 10)
            : .cycleDuration(Int64.random(in: 500_000...20_000_000, using: &rng))
        return ChannelSettings(
            mode: Mode.allCases[Int.random(in: 0..<Mode.allCases.count, using: &rng)],
            speed: speed,
            delay: Int64.random(in: 0...3_000_000, using: &rng),
            easing: easing,
            loops: Bool.random(using: &rng) ? 0 : UInt32.random(in: 1...4, using: &rng),
            direction: Bool.random(using: &rng) ? .left : .right,
            align: Align.allCases[Int.random(in: 0..<Align.allCases.count, using: &rng)])
    }

    @Test("fast frame (text, offset, cycle) equals the reference for random tapes, settings, columns and instants")
    func fastEqualsReference() {
        var rng = SeededRandom(seed: 0x71C_0001)
        for trial in 0..<400 {
            let tape = TextSamples.tape(&rng)
            let settings = Self.randomSettings(&rng)
            let timeline = Timeline(tape: tape, settings: settings, at: Self.base)
            for _ in 0..<12 {
                let c = Int.random(in: 0...60, using: &rng)
                let t = Self.base + Int64.random(in: -2_000_000...120_000_000, using: &rng)
                let fast = timeline.frame(columns: c, at: t)
                let reference = Reference.frame(timeline, columns: c, at: t)
                #expect(fast.text == reference.text, "trial \(trial) mode \(settings.mode) c \(c) t \(t - Self.base) tape \(tape.text.debugDescription)")
                #expect(abs(fast.offset - reference.offset) < 1e-9, "trial \(trial) offset")
                #expect(abs(fast.extras.cycle - reference.cycle) < 1e-9,
                        "trial \(trial) mode \(settings.mode) cycle \(fast.extras.cycle), reference \(reference.cycle)")
                #expect(CellWidth.of(fast.text) == c, "trial \(trial): frame is not \(c) cells: \(fast.text.debugDescription)")
                #expect(fast.offset >= 0 && fast.offset < 1)
            }
        }
    }

    @Test("frames of a 10⁵-cluster tape match the reference at random far positions")
    func longTape() {
        var rng = SeededRandom(seed: 42)
        let tape = TextSamples.tape(&rng, maxMessages: 40, maxPieces: 2_500)
        #expect(tape.clusterCount > 20_000)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(speed: .cellsPerSecond(997)), at: Self.base)
        for _ in 0..<50 {
            let c = Int.random(in: 1...120, using: &rng)
            let t = Self.base + Int64.random(in: 0...3_600_000_000, using: &rng)
            #expect(timeline.frame(columns: c, at: t).text == Reference.frame(timeline, columns: c, at: t).text)
        }
    }

    @Test("paused timelines freeze: every later frame equals the frame at the pause")
    func pausedFreezes() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<100 {
            let tape = TextSamples.tape(&rng)
            let settings = Self.randomSettings(&rng)
            let pauseAt = Self.base + Int64.random(in: 0...30_000_000, using: &rng)
            let timeline = Timeline(tape: tape, settings: settings, at: Self.base).paused(at: pauseAt)
            let c = Int.random(in: 1...40, using: &rng)
            let frozen = timeline.frame(columns: c, at: pauseAt)
            for _ in 0..<5 {
                let later = pauseAt + Int64.random(in: 0...100_000_000, using: &rng)
                #expect(timeline.frame(columns: c, at: later) == frozen)
                #expect(timeline.nextChange(after: later, columns: c) == nil)
            }
        }
    }
}
