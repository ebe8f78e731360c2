import TestSupport
import Testing
@testable import TickerModel

/// Frames with effects in every mode: equal to the frame of the substituted plain tape, always
/// exactly c cells, and never changing before `nextChange` says they may.
@Suite struct EffectsFrameTests {
    static let base: Instant = 1_700_000_000_000_000
    /// Pieces that never join the cluster before them (so the reference may cluster piece by piece).
    static let pieces = TextSamples.pieces.filter { $0 != "\u{301}" } + ["{a}", "{b}", "{zz}", "{{", "}}", ".", " "]

    struct Scenario {
        var messages: [TapeMessage]
        var separator: String
        var gap: String
        var effects: EffectState
        var settings: ChannelSettings
        var paused: Instant?
        var next: [TapeMessage]?
        var switchAt: Instant
    }

    static func randomText(_ rng: inout SeededRandom) -> String {
        (0..<Int.random(in: 1...7, using: &rng)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
    }

    static func randomScenario(_ rng: inout SeededRandom) throws -> Scenario {
        var effects = EffectState()
        for name in ["a", "b"] where Bool.random(using: &rng) {
            let magnitude = [9.0, 500, 2e6][Int.random(in: 0..<3, using: &rng)]
            try effects.counters.set(name, to: Double.random(in: -magnitude...magnitude, using: &rng), at: base - 5_000_000)
            try effects.counters.set(
                name, to: Double.random(in: -magnitude...magnitude, using: &rng),
                options: CounterOptions(
                    duration: Int64.random(in: 0...20_000_000, using: &rng),
                    easing: Easing.allCases[Int.random(in: 0..<Easing.allCases.count, using: &rng)],
                    decimals: Int.random(in: 0...2, using: &rng), grouping: Bool.random(using: &rng),
                    prefix: ["", "$", "€ "][Int.random(in: 0..<3, using: &rng)], suffix: ["", "%", " left"][Int.random(in: 0..<3, using: &rng)]),
                at: base + Int64.random(in: -3_000_000...2_000_000, using: &rng))
        }
        func messages(_ prefix: String) throws -> [TapeMessage] {
            try (0..<Int.random(in: 1...4, using: &rng)).map { i in
                let key = "\(prefix)\(i)"
                var text = randomText(&rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    text += "..."
                    try DotsEffect.validate(text)
                    var dots = DotsEffect(start: base + Int64.random(in: -2_000_000...2_000_000, using: &rng))
                    if Bool.random(using: &rng) { dots = dots.stopping(at: base + Int64.random(in: -3_000_000...9_000_000, using: &rng)) }
                    effects.messages[key] = .dots(dots)
                case 1:
                    // Half of them with a still start (a message that waited for a seam).
                    let start = base + Int64.random(in: -2_000_000...4_000_000, using: &rng)
                    let still = Bool.random(using: &rng)
                        ? RevealEffect.StillStart(
                            start: start - Int64.random(in: 0...6_000_000, using: &rng),
                            columns: Int.random(in: 0...50, using: &rng))
                        : nil
                    effects.messages[key] = .reveal(try RevealEffect(
                        start: start, duration: Int64.random(in: 1...8_000_000, using: &rng), still: still))
                default:
                    break
                }
                return TapeMessage(key: key, text: text)
            }
        }
        let first = try messages("m")
        let next = Bool.random(using: &rng) ? try messages("n") : nil
        return Scenario(
            messages: first, separator: "  •  ", gap: TextSamples.gaps[Int.random(in: 0..<TextSamples.gaps.count, using: &rng)],
            effects: effects, settings: FramePropertyTests.randomSettings(&rng),
            paused: Int.random(in: 0..<6, using: &rng) == 0 ? base + Int64.random(in: 0...10_000_000, using: &rng) : nil,
            next: next, switchAt: base + Int64.random(in: 0...5_000_000, using: &rng))
    }

    /// The timeline of a scenario, from tapes built by `tape`.
    static func timeline(_ s: Scenario, tape: ([TapeMessage]) -> Tape) -> Timeline {
        var timeline = Timeline(tape: tape(s.messages), settings: s.settings, at: base)
        if let next = s.next { timeline = timeline.applying(tape(next), at: s.switchAt) }
        if let paused = s.paused { timeline = timeline.paused(at: paused) }
        return timeline
    }

    static func realTimeline(_ s: Scenario) -> Timeline {
        timeline(s) { Tape(messages: $0, separator: s.separator, gap: s.gap, counters: s.effects.counters, at: base) }
    }

    /// The reference frame at `t`: the same motion (and seam, docs/rendering.md §6) over plain
    /// tapes holding the substituted text.
    static func referenceFrame(_ s: Scenario, columns: Int, at t: Instant) -> Frame {
        let plain = { (messages: [TapeMessage]) in
            Tape(content: EffectsReference.content(
                messages, separator: s.separator, effects: s.effects, builtAt: base, columns: columns, at: t), gap: s.gap)
        }
        var timeline = realTimeline(s)
        if timeline.pending != nil {
            timeline.tape = plain(s.messages)
            timeline.pending?.tape = plain(s.next ?? s.messages)
        } else {
            // No change, or one that switched at once.
            let real = Tape(messages: s.next ?? [], separator: s.separator, gap: s.gap, counters: s.effects.counters, at: base)
            timeline.tape = plain(s.next != nil && timeline.tape == real ? s.next! : s.messages)
        }
        return timeline.frame(columns: columns, at: t)
    }

    @Test("frames with effects equal the reference in every mode but pages, and are exactly c cells wide")
    func againstReference() throws {
        var rng = SeededRandom(seed: 0xEFF_EC75)
        for trial in 0..<300 {
            var scenario = try Self.randomScenario(&rng)
            // Pages break words at spaces of the tape itself, which the substituted reference
            // tape would change; pages are checked by `pages` below.
            if scenario.settings.mode == .pages { scenario.settings.mode = .continuous }
            let timeline = Self.realTimeline(scenario)
            for _ in 0..<10 {
                let c = Int.random(in: 0...50, using: &rng)
                let t = Self.base + Int64.random(in: -2_000_000...25_000_000, using: &rng)
                let fast = timeline.frame(columns: c, at: t, effects: scenario.effects)
                let reference = Self.referenceFrame(scenario, columns: c, at: t)
                #expect(fast.text == reference.text, "trial \(trial) mode \(scenario.settings.mode) c \(c) t \(t - Self.base) \(scenario.messages.map(\.text))")
                #expect(fast.offset == reference.offset)
                #expect(CellWidth.of(fast.text) == c, "trial \(trial): \(fast.text.debugDescription) is not \(c) cells")
            }
        }
    }

    @Test("the text never changes before nextChange(after:columns:effects:)")
    func nextChangeNeverLate() throws {
        var rng = SeededRandom(seed: 0xEFF_0002)
        for trial in 0..<150 {
            let scenario = try Self.randomScenario(&rng)
            let timeline = Self.realTimeline(scenario)
            let c = Int.random(in: 1...40, using: &rng)
            var t = Self.base + Int64.random(in: -2_000_000...3_000_000, using: &rng)
            // The motion's nextChange answers for instants from the pause on (the daemon pauses
            // at the current instant), so start there.
            if let paused = scenario.paused { t = max(t, paused) }
            for _ in 0..<6 {
                let text = timeline.frame(columns: c, at: t, effects: scenario.effects).text
                let next = timeline.nextChange(after: t, columns: c, effects: scenario.effects)
                if let next { #expect(next > t) }
                let end = next ?? (t + 30_000_000)
                var probes: [Instant] = [end - 1]
                for _ in 0..<25 where end - t > 1 { probes.append(Int64.random(in: (t + 1)..<end, using: &rng)) }
                for probe in probes where probe > t {
                    #expect(
                        timeline.frame(columns: c, at: probe, effects: scenario.effects).text == text,
                        "trial \(trial) c \(c) t \(t - Self.base) probe \(probe - Self.base) next \(String(describing: next.map { $0 - Self.base }))")
                }
                guard let next else { break }
                t = next
            }
        }
    }

    @Test("a counter in moving text: the field keeps its width and the text after it stays put")
    func counterFieldConstantWidth() throws {
        var counters = CounterSet()
        try counters.set("n", to: 7, at: Self.base)
        try counters.set("n", to: 12_500, options: CounterOptions(duration: 10_000_000, easing: .easeOutBounce, grouping: true), at: Self.base)
        let effects = EffectState(counters: counters)
        let tape = Tape(messages: [TapeMessage(key: "m", text: "Sold {n} tickets")], separator: " | ", counters: counters, at: Self.base)
        #expect(tape.width == "Sold 12,500 tickets | ".count)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: Self.base)
        var previous = -1.0
        for step in 0...100 {
            let t = Self.base + Int64(step) * 100_000
            let frame = timeline.frame(columns: 40, at: t, effects: effects)
            // Still text (it fits): "Sold " then the 6-cell field, then " tickets".
            let text = Array(frame.text)
            #expect(String(text[11..<19]) == " tickets")
            let field = String(text[5..<11])
            let value = try #require(counters["n"]).value(at: t)
            let number = try #require(counters["n"]).format.number(value)
            #expect(field == String(repeating: " ", count: 6 - number.count) + number)
            previous = value
        }
        #expect(previous == 12_500)
        #expect(timeline.frame(columns: 40, at: Self.base + 10_000_000, effects: effects).text.hasPrefix("Sold 12,500 tickets"))
    }

    @Test("an unset counter shows its placeholder; a wider count waiting for its tape shows #")
    func unsetAndOverflow() throws {
        var counters = CounterSet()
        try counters.set("n", to: 5, at: Self.base)
        let tape = Tape(messages: [TapeMessage(key: "m", text: "{n} and {m}")], separator: " | ", counters: counters, at: Self.base)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: Self.base)
        #expect(timeline.frame(columns: 12, at: Self.base, effects: EffectState(counters: counters)).text == "5 and {m}   ")
        let change = try counters.set("n", to: 50, at: Self.base + 1)
        #expect(change.layoutChanged)
        #expect(timeline.frame(columns: 12, at: Self.base + 1, effects: EffectState(counters: counters)).text == "# and {m}   ")
        let rebuilt = Tape(messages: [TapeMessage(key: "m", text: "{n} and {m}")], separator: " | ", counters: counters, at: Self.base + 1)
        let after = timeline.applying(rebuilt, at: Self.base + 1, urgent: true)
        #expect(after.frame(columns: 12, at: Self.base + 1, effects: EffectState(counters: counters)).text == "50 and {m}  ")
    }

    @Test("nextChange follows the shown effects, settles to nil, and with extras paces moving dots")
    func nextChangeGolden() throws {
        let s = Self.base
        let tape = Tape(messages: [TapeMessage(key: "m", text: "Wait...")], separator: " | ", at: s)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: s)
        let dots = DotsEffect(start: s)
        let running = EffectState(messages: ["m": .dots(dots)])
        // Still text: the only changes are the dots'. Dot 0 is raised 47 156 µs into its jump.
        #expect(timeline.nextChange(after: s, columns: 10) == nil)
        #expect(timeline.nextChange(after: s, columns: 10, effects: running) == s + 47_156)
        #expect(timeline.nextChange(after: s, columns: 10, effects: running, extras: true) == s + 1)
        // Resting after the wave (dot 2 lands at 0.622 s): the next change is wave 2's first raise.
        #expect(timeline.nextChange(after: s + 700_000, columns: 10, effects: running) == s + 1_150_000 + 47_156)
        #expect(timeline.nextChange(after: s + 700_000, columns: 10, effects: running, extras: true) == s + 1_150_000)
        // Stopped: nothing after the settling.
        let stopped = EffectState(messages: ["m": .dots(dots.stopping(at: s + 100))])
        #expect(timeline.nextChange(after: s + 622_000, columns: 10, effects: stopped) == nil)
        #expect(stopped.nextMilestone(after: s) == s + 622_000)
        #expect(stopped.pruned(at: s + 622_000).messages.isEmpty)
        #expect(stopped.pruned(at: s + 621_999) == stopped)
        // Effects of messages not in view are not waited for: a wide tape scrolled away from them.
        let wide = Tape(messages: [TapeMessage(key: "m", text: "Wait..."), TapeMessage(key: "x", text: String(repeating: "x", count: 200))], separator: " | ", at: s)
        let scrolling = Timeline(tape: wide, settings: ChannelSettings(speed: .cellsPerSecond(1)), at: s)
        let far = s + 20_000_000 // 20 cells on: the window shows only x's
        #expect(scrolling.nextChange(after: far, columns: 10, effects: running) == scrolling.nextChange(after: far, columns: 10))
    }

    @Test("counters in a paused channel keep counting; the motion stays frozen")
    func pausedCounts() throws {
        var counters = CounterSet()
        try counters.set("n", to: 0, at: Self.base)
        try counters.set("n", to: 9, options: CounterOptions(duration: 9_000_000), at: Self.base)
        let tape = Tape(messages: [TapeMessage(key: "m", text: "{n}")], separator: " ", counters: counters, at: Self.base)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: Self.base).paused(at: Self.base)
        let effects = EffectState(counters: counters)
        #expect(timeline.frame(columns: 3, at: Self.base + 4_000_000, effects: effects).text == "4  ")
        #expect(timeline.nextChange(after: Self.base + 4_000_000, columns: 3, effects: effects) == Self.base + 4_500_000)
        #expect(timeline.nextChange(after: Self.base + 9_000_000, columns: 3, effects: effects) == nil)
    }

    @Test("extras report the first shown dots and reveal; messages without effects add nothing")
    func extrasKeys() throws {
        #expect(FrameExtras.dotsKey == "dots")
        #expect(FrameExtras.revealKey == "reveal")
        #expect(FrameExtras.revealWordsKey == "reveal-words")
        let s = Self.base
        let tape = Tape(messages: [TapeMessage(key: "a", text: "one two"), TapeMessage(key: "b", text: "Go...")], separator: " | ", at: s)
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: s)
        let effects = EffectState(messages: ["a": .reveal(try RevealEffect(start: s, duration: 1_000_000)), "b": .dots(DotsEffect(start: s))])
        let frame = timeline.frame(columns: 20, at: s + 161_000, effects: effects)
        #expect(frame.extras.reveal == 0.161)
        #expect(frame.extras.revealWords == [0.161, 0.161])
        #expect(frame.extras.dots == DotsEffect(start: s).heights(at: s + 161_000))
        #expect(frame.text == "o       | Go˙..     ")
        #expect(timeline.frame(columns: 20, at: s, effects: .none).extras == FrameExtras())
    }

    @Test("pages mode applies effects to the page shown")
    func pages() throws {
        let s = Self.base
        let settings = ChannelSettings(mode: .pages)
        let dotsTape = Tape(messages: [TapeMessage(key: "m", text: "Loading data...")], separator: " | ", at: s)
        let dots = EffectState(messages: ["m": .dots(DotsEffect(start: s))])
        let timeline = Timeline(tape: dotsTape, settings: settings, at: s)
        // Page 1 "Loading" for 2 s, then "data..."; 2.461 s is 161 000 µs into dot 0's third jump.
        #expect(timeline.frame(columns: 8, at: s + 2_461_000, effects: dots).text == "data˙.. ")
        #expect(timeline.frame(columns: 8, at: s + 161_000, effects: dots).text == "Loading ")
        let revealTape = Tape(messages: [TapeMessage(key: "m", text: "Hello world")], separator: " | ", at: s)
        let reveal = EffectState(messages: ["m": .reveal(try RevealEffect(start: s, duration: 1_000_000))])
        let pages = Timeline(tape: revealTape, settings: settings, at: s)
        // 11 clusters over 1 s: 3 shown at 0.3 s, 5 at 0.5 s.
        #expect(pages.frame(columns: 6, at: s + 300_000, effects: reveal).text == "Hel   ")
        #expect(pages.frame(columns: 6, at: s + 500_000, effects: reveal).text == "Hello ")
        var counters = CounterSet()
        try counters.set("n", to: 1_000_000, options: CounterOptions(grouping: true), at: s)
        let counterTape = Tape(messages: [TapeMessage(key: "m", text: "Sold {n}")], separator: " | ", counters: counters, at: s)
        let counted = Timeline(tape: counterTape, settings: settings, at: s)
        #expect(counted.frame(columns: 9, at: s, effects: EffectState(counters: counters)).text == "Sold     ")
        #expect(counted.frame(columns: 9, at: s + 2_000_000, effects: EffectState(counters: counters)).text == "1,000,000")
    }

    @Test("daemon flow: a count's field is wide while counting and narrows when the tape is rebuilt at its end")
    func rebuildAtCountEnd() throws {
        let s = Self.base
        var effects = EffectState()
        try effects.counters.set("n", to: 1000, options: CounterOptions(grouping: true), at: s)
        let change = try effects.counters.set("n", to: 5, options: CounterOptions(duration: 2_000_000), at: s)
        #expect(!change.layoutChanged) // "1,000" was already 5 cells
        let messages = [TapeMessage(key: "m", text: "n={n}")]
        let counting = Tape(messages: messages, separator: " ", counters: effects.counters, at: s)
        let timeline = Timeline(tape: counting, settings: ChannelSettings(), at: s)
        #expect(timeline.frame(columns: 8, at: s + 1_000_000, effects: effects).text == "n=  503 ")
        #expect(timeline.frame(columns: 8, at: change.endInstant, effects: effects).text == "n=    5 ")
        #expect(effects.nextMilestone(after: s) == change.endInstant)
        #expect(effects.counters.reached(after: s, through: change.endInstant).map(\.name) == ["n"])
        let settled = Tape(messages: messages, separator: " ", counters: effects.counters, at: change.endInstant)
        #expect(settled != counting)
        let after = timeline.applying(settled, at: change.endInstant, urgent: true)
        #expect(after.frame(columns: 8, at: change.endInstant, effects: effects).text == "n=5     ")
        // Rebuilding again with nothing new gives an equal tape: applying it changes nothing.
        #expect(after.applying(Tape(messages: messages, separator: " ", counters: effects.counters, at: s + 9_000_000), at: s + 9_000_000) == after)
    }
}
