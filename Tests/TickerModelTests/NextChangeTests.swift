import TestSupport
import Testing
@testable import TickerModel

@Suite struct NextChangeTests {
    static let t0: Instant = 1_700_000_000_000_000
    static let letters = Tape(content: "ABCDEFGH", gap: "|")

    @Test("continuous: when ⌊s⌋ next changes")
    func continuous() {
        // 4 cells/s: ⌊s⌋ changes every 250 ms.
        let timeline = Timeline(tape: Self.letters, settings: ChannelSettings(speed: .cellsPerSecond(4)), at: Self.t0)
        #expect(timeline.nextChange(after: Self.t0, columns: 4) == Self.t0 + 250_000)
        #expect(timeline.nextChange(after: Self.t0 + 250_000, columns: 4) == Self.t0 + 500_000)
        #expect(timeline.nextChange(after: Self.t0 + 100, columns: 4) == Self.t0 + 250_000)
        // Before the start delay ends nothing moves: the first change is delay + 250 ms.
        let delayed = Timeline(tape: Self.letters, settings: ChannelSettings(speed: .cellsPerSecond(4), delay: 2_000_000), at: Self.t0)
        #expect(delayed.nextChange(after: Self.t0, columns: 4) == Self.t0 + 2_250_000)
    }

    @Test("scroll: the end of the hold, then each cell")
    func scroll() {
        // 9 cells at 9 cells/s: move 1 s, delay 1 s. Linear: cell 1 at 1 s + 1/9 s = 1 111 112 µs (rounded up).
        let timeline = Timeline(tape: Self.letters, settings: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(9), delay: 1_000_000), at: Self.t0)
        #expect(timeline.nextChange(after: Self.t0, columns: 4) == Self.t0 + 1_111_112)
        // In the hold at home of cycle 1 (s = 9, at 2.5 s): next change 3 s + 1/9 s.
        #expect(timeline.nextChange(after: Self.t0 + 2_500_000, columns: 4) == Self.t0 + 3_111_112)
    }

    /// A timeline of a random tape and settings started at `t0`, and an instant in its first 20 s.
    static func randomTimeline(_ rng: inout SeededRandom) -> (Timeline, ChannelSettings, Instant) {
        let tape = TextSamples.tape(&rng)
        let settings = FramePropertyTests.randomSettings(&rng)
        let timeline = Timeline(tape: tape, settings: settings, at: t0)
        return (timeline, settings, t0 + Int64.random(in: 0...20_000_000, using: &rng))
    }

    @Test("the returned instant is never late: the frame just before it equals the frame at t")
    func neverLate() {
        var rng = SeededRandom(seed: 0xC0FFEE)
        for trial in 0..<300 {
            let (timeline, settings, t) = Self.randomTimeline(&rng)
            let c = Int.random(in: 1...40, using: &rng)
            let now = timeline.frame(columns: c, at: t).text
            if let next = timeline.nextChange(after: t, columns: c) {
                #expect(next > t)
                // Nothing changes in between (sampled) …
                for k in 1...8 {
                    let probe = t + (next - 1 - t) * Int64(k) / 8
                    #expect(timeline.frame(columns: c, at: probe).text == now, "trial \(trial) mode \(settings.mode)")
                }
            } else {
                // … and with no next change, nothing ever changes (sampled).
                for k in 1...8 {
                    #expect(timeline.frame(columns: c, at: t + Int64(k) * 7_777_777).text == now, "trial \(trial) mode \(settings.mode)")
                }
            }
        }
    }

    @Test("continuous: the returned instant is exact — the frame changes there")
    func exactForContinuous() {
        var rng = SeededRandom(seed: 0xBEEF)
        for _ in 0..<200 {
            let tape = Tape(content: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", gap: "  ")
            let speed = Double(Int.random(in: 1...500, using: &rng)) / 7
            let timeline = Timeline(tape: tape, settings: ChannelSettings(speed: .cellsPerSecond(speed)), at: Self.t0)
            let t = Self.t0 + Int64.random(in: 0...50_000_000, using: &rng)
            let next = timeline.nextChange(after: t, columns: 10)
            #expect(next.map { timeline.frame(columns: 10, at: $0).text != timeline.frame(columns: 10, at: t).text } == true)
            #expect(next.map { timeline.frame(columns: 10, at: $0 - 1).text == timeline.frame(columns: 10, at: t).text } == true)
        }
    }

    @Test("a straight move's crossing, computed and checked, is the instant the search finds")
    func computedCrossingMatchesTheSearch() {
        var rng = SeededRandom(seed: 0x5EED)
        for trial in 0..<400 {
            let (timeline, settings, t) = Self.randomTimeline(&rng)
            let position = { (at: Instant) in timeline.streamState(at: at).position }
            let computed = ChangeSearch(position: position, phase: timeline.streamPhase(at:))
            var searched = computed
            searched.computesCrossings = false
            #expect(computed.firstChange(after: t) == searched.firstChange(after: t), "trial \(trial) mode \(settings.mode)")
        }
    }
}
