import TestSupport
import Testing
@testable import TickerModel

/// The jumping dots: timing from the keyframes (values worked out by hand), `˙` in text frames,
/// the graceful stop, and the exact instants at which a dot is raised or lowered.
@Suite struct DotsTests {
    static let start: Instant = 1_700_000_000_000_000
    static let dots = DotsEffect(start: start)

    @Test("heights at hand-worked instants: parabola 4u(1 − u) over the 0.322 s jump")
    func goldenHeights() {
        let d = Self.dots
        let s = Self.start
        // Dot 0: a quarter into its jump (80 500 µs of 322 000): 4 · ¼ · ¾ = 0.75; halfway: 1.
        #expect(d.height(ofDot: 0, at: s + 80_500) == 0.75)
        #expect(d.height(ofDot: 0, at: s + 161_000) == 1)
        #expect(d.height(ofDot: 0, at: s) == 0)
        #expect(d.height(ofDot: 0, at: s + 322_000) == 0) // 28% of 1.15 s: landed
        #expect(d.height(ofDot: 0, at: s + 900_000) == 0) // resting
        // Dot 1 starts 0.15 s later, dot 2 0.3 s later.
        #expect(d.height(ofDot: 1, at: s + 80_500) == 0)
        #expect(d.height(ofDot: 1, at: s + 150_000 + 80_500) == 0.75)
        #expect(d.height(ofDot: 2, at: s + 300_000 + 241_500) == 0.75) // u = ¾
        #expect(d.height(ofDot: 2, at: s + 300_000 + 161_000) == 1)
        // Next wave, 1.15 s later.
        #expect(d.height(ofDot: 0, at: s + 1_150_000 + 161_000) == 1)
        #expect(d.heights(at: s + 150_000 + 80_500) == [d.height(ofDot: 0, at: s + 230_500), 0.75, 0])
        // Before the start nothing moves.
        #expect(d.heights(at: s - 1) == [0, 0, 0])
    }

    @Test("the dots are periodic with period 1.15 s from their start")
    func periodic() {
        var rng = SeededRandom(seed: 21)
        for _ in 0..<2000 {
            let t = Self.start + Int64.random(in: 0...20_000_000, using: &rng)
            #expect(Self.dots.heights(at: t) == Self.dots.heights(at: t + DotsEffect.period))
            for dot in 0..<3 {
                #expect(Self.dots.isRaised(dot: dot, at: t) == Self.dots.isRaised(dot: dot, at: t + 3 * DotsEffect.period))
            }
        }
    }

    @Test("raised exactly while more than half way up: from 47 156 µs to 274 844 µs into a jump")
    func raisedThreshold() {
        // 8τ(322000 − τ) > 322000² ⇔ τ ∈ (47155.8…, 274844.19…), worked out by hand.
        let s = Self.start
        #expect(!Self.dots.isRaised(dot: 0, at: s + 47_155))
        #expect(Self.dots.isRaised(dot: 0, at: s + 47_156))
        #expect(Self.dots.isRaised(dot: 0, at: s + 274_844))
        #expect(!Self.dots.isRaised(dot: 0, at: s + 274_845))
        #expect(Self.dots.height(ofDot: 0, at: s + 47_155) < 0.5)
        #expect(Self.dots.height(ofDot: 0, at: s + 47_156) > 0.5)
        var rng = SeededRandom(seed: 22)
        for _ in 0..<5000 {
            let t = Self.start + Int64.random(in: -1_000_000...5_000_000, using: &rng)
            for dot in 0..<3 {
                #expect(Self.dots.isRaised(dot: dot, at: t) == (Self.dots.height(ofDot: dot, at: t) > 0.5))
            }
        }
    }

    @Test("text frames show a raised dot as ˙ and extras carry the heights")
    func textFrames() throws {
        let s = Self.start
        let tape = Tape(messages: [TapeMessage(key: "m", text: "Loading...")], separator: " | ", at: s)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: s)
        let effects = EffectState(messages: ["m": .dots(Self.dots)])
        #expect(timeline.frame(columns: 12, at: s, effects: effects).text == "Loading...  ")
        let up = timeline.frame(columns: 12, at: s + 161_000, effects: effects)
        #expect(up.text == "Loading˙..  ")
        // Dot 0 is at its top; dot 1 is 11 000 µs into its jump: 4 · (11/322) · (311/322); dot 2 waits.
        let heights = try #require(up.extras.dots)
        #expect(heights.count == 3)
        #expect(heights[0] == 1)
        #expect(abs(heights[1] - 4.0 * 11 * 311 / (322 * 322)) < 1e-12)
        #expect(heights[2] == 0)
        // 311 000 µs into its jump dot 0 is low again; dot 1 is at its top.
        #expect(timeline.frame(columns: 12, at: s + 311_000, effects: effects).text == "Loading.˙.  ")
        #expect(timeline.frame(columns: 12, at: s + 461_000, effects: effects).text == "Loading..˙  ")
        // Without the effect the text is plain and the extras carry no dots.
        let plain = timeline.frame(columns: 12, at: s + 161_000, effects: .none)
        #expect(plain.text == "Loading...  ")
        #expect(plain.extras.dots == nil)
    }

    @Test("only a text ending in three full stops may have dots")
    func validation() throws {
        try DotsEffect.validate("Loading...")
        try DotsEffect.validate("...")
        #expect(throws: EffectError.missingEllipsis) { try DotsEffect.validate("Loading") }
        #expect(throws: EffectError.missingEllipsis) { try DotsEffect.validate("Loading…") }
        #expect(throws: EffectError.missingEllipsis) { try DotsEffect.validate("Loading.. ") }
        #expect(throws: EffectError.missingEllipsis) { try DotsEffect.validate("Loading..") }
        #expect(EffectError.missingEllipsis.description.contains("\"...\""))
    }

    @Test("a stop mid-wave finishes the wave, then everything rests")
    func gracefulStop() {
        let s = Self.start
        // Stop 0.1 s into wave 1: dot 0 is in the air, dots 1 and 2 have not jumped yet.
        let stopAt = s + 1_150_000 + 100_000
        let stopped = Self.dots.stopping(at: stopAt)
        #expect(Self.dots.settledAt == nil)
        // Dot 2 lands at 1.15 + 0.3 + 0.322 s.
        #expect(stopped.settledAt == s + 1_772_000)
        #expect(stopped.height(ofDot: 0, at: s + 1_150_000 + 161_000) == 1)
        #expect(stopped.height(ofDot: 2, at: s + 1_150_000 + 300_000 + 161_000) == 1)
        for t in stride(from: s + 1_772_000, to: s + 10_000_000, by: 7_919) {
            #expect(stopped.heights(at: t) == [0, 0, 0])
        }
        #expect(stopped.nextChange(after: s + 1_772_000) == nil)
        // A later stop request keeps the first one.
        #expect(stopped.stopping(at: s + 5_000_000) == stopped)
        // Stopped while resting after a wave: settled at once.
        let resting = Self.dots.stopping(at: s + 1_150_000 + 700_000)
        #expect(resting.settledAt == s + 1_850_000)
        #expect(resting.heights(at: s + 2 * 1_150_000 + 161_000) == [0, 0, 0])
        // Stopped before the start: never moves.
        let early = Self.dots.stopping(at: s - 10)
        #expect(early.settledAt == s - 10)
        #expect(early.heights(at: s + 161_000) == [0, 0, 0])
        #expect(MessageEffect.dots(Self.dots).stopping(at: stopAt) == .dots(stopped))
        #expect(MessageEffect.dots(stopped).finishedAt == s + 1_772_000)
    }

    @Test("nextChange is the next microsecond at which a dot is raised or lowered")
    func nextChangeExact() {
        let s = Self.start
        for dots in [Self.dots, Self.dots.stopping(at: s + 1_150_000 + 50_000)] {
            func raised(_ t: Instant) -> Int {
                (dots.isRaised(dot: 0, at: t) ? 1 : 0) | (dots.isRaised(dot: 1, at: t) ? 2 : 0) | (dots.isRaised(dot: 2, at: t) ? 4 : 0)
            }
            var changes: [Instant] = []
            var previous = raised(s - 5)
            for t in (s - 4)...(s + 3 * DotsEffect.period) {
                let now = raised(t)
                if now != previous { changes.append(t) }
                previous = now
            }
            var t = s - 5
            var rng = SeededRandom(seed: 23)
            while t < s + 2 * DotsEffect.period {
                let expected = changes.first { $0 > t }
                #expect(dots.nextChange(after: t) == expected, "t \(t - s)")
                t += Int64.random(in: 1...20_000, using: &rng)
            }
        }
    }
}
