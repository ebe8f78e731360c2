import TestSupport
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
        #expect(TimelineFieldsTests.fieldKeysAreAscending(timeline))
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

    /// The published layout text as first specified: one line per message span, then one per
    /// field, numbers in decimal, names percent-escaped except `A–Z a–z 0–9 . _ ~` ("-" when empty).
    private static func referenceLayoutText(_ layout: TapeLayout) -> String {
        func escaped(_ text: String) -> String {
            if text.isEmpty { return "-" }
            return text.utf8.map { byte -> String in
                let plain = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == 0x2E || byte == 0x5F || byte == 0x7E
                return plain ? String(UnicodeScalar(byte)) : "%" + String(format2hex: byte)
            }.joined()
        }
        let lines = layout.messages.map { "m \(escaped($0.key)) \($0.clusters.lowerBound) \($0.clusters.upperBound) \($0.cells.lowerBound) \($0.cells.upperBound) \($0.words)" }
            + layout.fields.map { "f \(escaped($0.name)) \($0.clusters.lowerBound) \($0.clusters.upperBound)" }
        return lines.joined(separator: "\n")
    }

    @Test("the layout is published in the same text for every kind of key and field name")
    func layoutTextMatchesTheSpecifiedForm() throws {
        let names = ["m1", "", "a b", "ü%-/", "x.y_z~", "{n}", "🎉", "bench-95", "users_2", "X9"]
        var rng = SeededRandom(seed: 0x1A70)
        for _ in 0..<300 {
            var counters = CounterSet()
            var messages: [TapeMessage] = []
            for number in 0..<Int.random(in: 1...4, using: &rng) {
                let field = names[Int.random(in: 0..<names.count, using: &rng)]
                if Placeholders.isValidName(field) {
                    try counters.set(field, to: Double(Int.random(in: 0...99_999, using: &rng)), at: Self.t0)
                }
                let key = names[Int.random(in: 0..<names.count, using: &rng)] + "\(number)"
                messages.append(TapeMessage(key: key, text: "a {\(field)} b 日本 c"))
            }
            let tape = Tape(messages: messages, separator: " | ", counters: counters, at: Self.t0)
            let layout = try #require(tape.layout)
            #expect(EffectFields.encode(layout) == Self.referenceLayoutText(layout))
            #expect(try EffectFields.layout(from: EffectFields.encode(layout)) == layout)
            #expect(try EffectFields.layout(from: EffectFields.encode(layout, relative: true), relative: true) == layout)
        }
    }

    @Test("a message added to a long tape changes its own line of the relative layout, and it reads back")
    func aRelativeLayoutChangesOnlyTheLineOfWhatChanged() throws {
        let messages = (0..<200).map { TapeMessage(key: "m\($0)", text: "headline \($0): 東京 🇩🇪 e\u{301}") }
        for at in [0, 1, 100, 199, 200] {
            var edited = messages
            edited.insert(TapeMessage(key: "new", text: "a new one"), at: at)
            let before = Tape(messages: messages, separator: "  •  ", counters: CounterSet(), at: Self.t0)
            let after = Tape(messages: edited, separator: "  •  ", counters: CounterSet(), at: Self.t0)
            let (old, new) = (try #require(before.layout), try #require(after.layout))
            let oldLines = EffectFields.encode(old, relative: true).split(separator: "\n")
            let newLines = EffectFields.encode(new, relative: true).split(separator: "\n")
            var expected = oldLines
            expected.insert(newLines[at], at: at)
            // Before the first message, the one that was first now follows a separator.
            if at == 0 { expected[1] = newLines[1] }
            #expect(newLines == expected, "inserted at \(at)")
            #expect(try EffectFields.layout(from: EffectFields.encode(new, relative: true), relative: true) == new)
            // The Timeline's form shifts every line after it.
            #expect(EffectFields.encode(new).split(separator: "\n").filter { !EffectFields.encode(old).contains($0) }.count
                    == (at == 200 ? 1 : 201 - at))
        }
        // Distances that would wrap or go backwards are refused.
        for text in ["m a -1 2 0 2 1", "m a 0 -2 0 2 1", "m a 0 2 0 1099511627776 1", "f n -3 1"] {
            #expect(throws: TimelineFieldError.self) { try EffectFields.layout(from: text, relative: true) }
        }
    }
}

private extension String {
    /// Two upper-case hex digits.
    init(format2hex byte: UInt8) {
        let digits = Array("0123456789ABCDEF")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
