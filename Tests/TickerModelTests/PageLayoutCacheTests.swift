import TestSupport
import Testing
@testable import TickerModel

/// Pages mode lays the content out once per tape and column count, so a frame of a long tape costs
/// O(log p + c) like the other modes, and remembering layouts changes no frame.
@Suite struct PageLayoutCacheTests {
    static let base: Instant = 1_700_000_000_000_000

    /// A long text of words (10⁵ clusters), so each layout is real work.
    static func longTape() -> Tape {
        let words = (0..<20_000).map { "w\($0 % 997)" }
        return Tape(content: words.joined(separator: " "), gap: "  •  ")
    }

    @Test func eachColumnCountIsLaidOutOnce() {
        let tape = Self.longTape()
        let timeline = Timeline(tape: tape, settings: ChannelSettings(mode: .pages), at: Self.base)
        var random = SeededRandom(seed: 3)
        for _ in 0..<200 {
            let t = Self.base + Int64.random(in: 0...7_200_000_000, using: &random)
            _ = timeline.frame(columns: 80, at: t)
            _ = timeline.nextChange(after: t, columns: 80)
        }
        #expect(tape.pageLayouts.computations == 1)
        _ = timeline.frame(columns: 40, at: Self.base)
        _ = timeline.frame(columns: 40, at: Self.base + 1)
        #expect(tape.pageLayouts.computations == 2)
        // Copies of the tape (the timeline holds one) share what was laid out.
        let copy = timeline.tape
        _ = Timeline(tape: copy, settings: ChannelSettings(mode: .pages), at: Self.base).frame(columns: 80, at: Self.base)
        #expect(tape.pageLayouts.computations == 2)
    }

    @Test func rememberedLayoutsGiveTheSameFramesAsFreshOnes() {
        let settings = ChannelSettings(mode: .pages)
        let tape = Self.longTape()
        let warm = Timeline(tape: tape, settings: settings, at: Self.base)
        var random = SeededRandom(seed: 4)
        for _ in 0..<30 {
            let c = Int.random(in: 1...120, using: &random)
            let t = Self.base + Int64.random(in: -1_000_000...20_000_000_000, using: &random)
            let fresh = Timeline(tape: Self.longTape(), settings: settings, at: Self.base)
            #expect(warm.frame(columns: c, at: t) == fresh.frame(columns: c, at: t))
            #expect(warm.frame(columns: c, at: t) == fresh.frame(columns: c, at: t))
            #expect(warm.nextChange(after: t, columns: c) == fresh.nextChange(after: t, columns: c))
        }
    }
}
