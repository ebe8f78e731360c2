import TestSupport
import Testing
@testable import TickerModel

/// The typewriter reveal: clusters appear in order over the duration, hidden cells are spaces.
@Suite struct RevealTests {
    static let start: Instant = 1_700_000_000_000_000

    static func frame(_ text: String, reveal: RevealEffect, columns: Int, at t: Instant) -> Frame {
        let tape = Tape(messages: [TapeMessage(key: "r", text: text)], separator: " | ", at: start)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: start)
        return timeline.frame(columns: columns, at: t, effects: EffectState(messages: ["r": .reveal(reveal)]))
    }

    @Test("golden frames: one cluster every duration / n, hidden cells as spaces")
    func golden() throws {
        let reveal = try RevealEffect(start: Self.start, duration: 1_000_000)
        let s = Self.start
        // "Hello" has 5 clusters: cluster k appears at k/5 of a second.
        #expect(Self.frame("Hello", reveal: reveal, columns: 7, at: s - 1).text == "       ")
        #expect(Self.frame("Hello", reveal: reveal, columns: 7, at: s).text == "       ")
        #expect(Self.frame("Hello", reveal: reveal, columns: 7, at: s + 199_999).text == "       ")
        #expect(Self.frame("Hello", reveal: reveal, columns: 7, at: s + 200_000).text == "H      ")
        #expect(Self.frame("Hello", reveal: reveal, columns: 7, at: s + 999_999).text == "Hell   ")
        #expect(Self.frame("Hello", reveal: reveal, columns: 7, at: s + 1_000_000).text == "Hello  ")
        // A wide cluster hides as two spaces.
        #expect(Self.frame("漢字ab", reveal: reveal, columns: 8, at: s + 250_000).text == "漢      ")
        #expect(Self.frame("漢字ab", reveal: reveal, columns: 8, at: s + 500_000).text == "漢字    ")
    }

    @Test("extras: reveal progress, and every word's stroke at that progress")
    func extras() throws {
        let reveal = try RevealEffect(start: Self.start, duration: 2_000_000)
        let frame = Self.frame("Hello big world", reveal: reveal, columns: 20, at: Self.start + 500_000)
        #expect(frame.extras.reveal == 0.25)
        #expect(frame.extras.revealWords == [0.25, 0.25, 0.25])
        let done = Self.frame("Hello big world", reveal: reveal, columns: 20, at: Self.start + 9_000_000)
        #expect(done.extras.reveal == 1)
        #expect(done.text == "Hello big world     ")
    }

    @Test("revealed clusters only grow, and all are shown at the end")
    func monotonicAndComplete() throws {
        var rng = SeededRandom(seed: 31)
        for _ in 0..<300 {
            let duration = Int64.random(in: 1...30_000_000, using: &rng)
            let reveal = try RevealEffect(start: Self.start, duration: duration)
            let n = Int.random(in: 0...4096, using: &rng)
            var previous = 0
            for step in -5...105 {
                let t = Self.start + duration * Int64(step) / 100
                let shown = reveal.revealedClusters(of: n, at: t)
                #expect(shown >= previous && shown <= n)
                previous = shown
                #expect(reveal.progress(at: t) >= 0 && reveal.progress(at: t) <= 1)
            }
            #expect(reveal.revealedClusters(of: n, at: reveal.endInstant) == n)
            #expect(reveal.revealedClusters(of: n, at: reveal.endInstant - 1) <= n)
            #expect(reveal.progress(at: reveal.endInstant) == 1)
        }
    }

    @Test("nextChange is the first microsecond at which another cluster appears")
    func nextChangeExact() throws {
        var rng = SeededRandom(seed: 32)
        for _ in 0..<60 {
            let reveal = try RevealEffect(start: Self.start, duration: Int64.random(in: 1...2000, using: &rng))
            let n = Int.random(in: 0...40, using: &rng)
            var t = Self.start - 3
            while t <= reveal.endInstant + 2 {
                let shown = reveal.revealedClusters(of: n, at: t)
                var expected: Instant?
                var probe = t + 1
                while probe <= reveal.endInstant {
                    if reveal.revealedClusters(of: n, at: probe) != shown { expected = probe; break }
                    probe += 1
                }
                #expect(reveal.nextChange(after: t, clusters: n) == expected)
                t += Int64.random(in: 1...17, using: &rng)
            }
        }
    }

    @Test("a reveal needs a duration above 0")
    func refused() {
        #expect(throws: EffectError.durationNotPositive(option: "reveal", value: 0)) { try RevealEffect(start: 0, duration: 0) }
        #expect(throws: EffectError.durationNotPositive(option: "reveal", value: -1)) { try RevealEffect(start: 0, duration: -1) }
    }
}
