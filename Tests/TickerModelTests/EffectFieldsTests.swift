import Testing
@testable import TickerModel

/// The effects part of the published Timeline reads back exactly, and a hostile one is refused.
@Suite struct EffectFieldsTests {
    static let t0: Instant = 1_800_000_000_000_000

    func sampleState() throws -> EffectState {
        var counters = CounterSet()
        try counters.set("users", to: 12_500, options: CounterOptions(duration: 2_000_000, easing: .easeOutBounce,
            from: 3, decimals: 2, grouping: true, prefix: "≈ $", suffix: " 100%"), at: Self.t0)
        try counters.set("empty", to: 7, at: Self.t0)
        let dots = DotsEffect(start: Self.t0 + 5)
        return EffectState(counters: counters, messages: [
            "m1": .dots(dots), "m 2%": .dots(dots.stopping(at: Self.t0 + 2_000_000)),
            "m3": .reveal(try RevealEffect(start: Self.t0 - 9, duration: 1_500_000)),
            "m4": .reveal(try RevealEffect(
                start: Self.t0 + 4_000_000, duration: 2_000_000,
                still: RevealEffect.StillStart(start: Self.t0 + 100, columns: 23))),
        ])
    }

    @Test func effectStateRoundTrips() throws {
        let state = try sampleState()
        #expect(try EffectFields.effects(from: EffectFields.encode(state)) == state)
        #expect(try EffectFields.effects(from: EffectFields.encode(EffectState.none)) == .none)
    }

    @Test func aRevealWithAStillStartIsPublishedWithIt() throws {
        let state = try sampleState()
        #expect(EffectFields.encode(state).contains("r m4 \(Self.t0 + 4_000_000) 2000000 \(Self.t0 + 100) 23"))
        #expect(EffectFields.encode(state).contains("r m3 \(Self.t0 - 9) 1500000\n") || EffectFields.encode(state).hasSuffix("r m3 \(Self.t0 - 9) 1500000"))
    }

    @Test func aTimelineWithLayoutRoundTripsAndRendersTheSameEffects() throws {
        let state = try sampleState()
        let messages = [TapeMessage(key: "m1", text: "Online: {users} — working..."), TapeMessage(key: "m3", text: "日本語 🎉 done")]
        let tape = Tape(messages: messages, separator: " | ", counters: state.counters, at: Self.t0)
        let pendingTape = Tape(messages: [TapeMessage(key: "m1", text: "{empty} left...")], separator: " | ",
                               counters: state.counters, at: Self.t0)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(speed: .cellsPerSecond(9)), at: Self.t0)
            .applying(pendingTape, at: Self.t0 + 1_000_000)
        let read = try Timeline(fields: timeline.fields)
        #expect(read == timeline)
        #expect(read.tape.layout != nil)
        let decoded = try EffectFields.effects(from: EffectFields.encode(state))
        for step in Int64(0)..<60 {
            let t = Self.t0 + step * 97_000
            #expect(read.frame(columns: 23, at: t, effects: decoded) == timeline.frame(columns: 23, at: t, effects: state))
        }
    }

    @Test func layoutsThatLeaveTheTapeAreRefused() throws {
        let tape = Tape(messages: [TapeMessage(key: "a", text: "{n} items")], separator: " ",
                        counters: try { var c = CounterSet(); try c.set("n", to: 42, at: Self.t0); return c }(), at: Self.t0)
        var fields = Timeline(tape: tape, settings: ChannelSettings(), at: Self.t0).fields
        let hostile = ["m a 0 9999 0 9999 1", "f n 5 7", "m a 3 1 0 1 1", "x what", "m %ZZ 0 1 0 1 1", "f n 0 2\nf n 1 2"]
        for layout in hostile {
            fields[EffectFields.layoutKey] = .string(layout)
            #expect(throws: TimelineFieldError.self, "\(layout)") { try Timeline(fields: fields) }
        }
        let badEffects = ["c n 1 2 3", "d m1 x -", "r m1 5 0", "c n nan 2 0 0 linear 0 0 - -", "q",
                          "r m1 5 10 3", "r m1 5 10 3 -1", "r m1 5 10 x 4", "r m1 5 10 3 4 5"]
        for text in badEffects {
            #expect(throws: TimelineFieldError.self, "\(text)") { try EffectFields.effects(from: text) }
        }
    }
}
