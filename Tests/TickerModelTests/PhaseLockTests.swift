import Testing
@testable import TickerModel

/// Phase-locked channels (`phase` `wall-clock`, docs/rendering.md §13): frames are a function of
/// the wall clock and the content alone. Timelines that got the same content at different
/// instants, or were built from it later, show the same frames once their changes settled; the
/// new tape is epoch-anchored already while a change waits; the lead-in never shows a message cut
/// at the seam.
@Suite struct PhaseLockTests {
    /// A wall-clock instant of 2023 (µs since the epoch): stream positions are ~1e10 cells.
    static let t0: Instant = 1_700_000_000_000_000
    static func at(_ seconds: Double) -> Instant { t0 + Int64(seconds * 1_000_000) }

    /// A message tape from (key, text) pairs, separator " • ".
    static func tape(_ messages: [(String, String)]) -> Tape {
        Tape(messages: messages.map { TapeMessage(key: $0.0, text: $0.1) }, separator: " • ", at: 0)
    }

    static let old = tape([("a", "Alpha-one"), ("b", "Bravo-two-longer"), ("c", "Charlie")])
    static let new = tape([("a", "Alpha-one"), ("d", "Delta-4"), ("c", "Charlie-3!"), ("e", "Echo-echo-echo")])

    static func settings(
        _ mode: Mode = .continuous, speed: Speed = .cellsPerSecond(7.3), direction: Direction = .left
    ) -> ChannelSettings {
        ChannelSettings(mode: mode, speed: speed, direction: direction, phase: .wallClock)
    }

    /// `count` instants from `start` over `span` µs, spread by a fixed linear congruential walk.
    static func samples(from start: Instant, span: Int64, count: Int = 1000) -> [Instant] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return start + Int64(state >> 20) % span
        }
    }

    /// The first instant from which all `timelines` have settled (nothing pending).
    static func settledBy(_ timelines: [Timeline]) throws -> Instant {
        try timelines.map { try #require($0.settleInstant ?? ($0.pending == nil ? Instant.min : nil)) }.max() ?? .min
    }

    /// Three screens: `a` and `b` had the old content and got the new one at different instants
    /// (0.4 s apart), `c` got only the new content, later. After every change settled they show
    /// the same frames, and their settled forms are the same value.
    static func expectSameFrames(_ settings: ChannelSettings, columns: [Int] = [1, 12, 40]) throws {
        let first = Timeline(tape: old, settings: settings, at: at(-100))
        let a = first.applying(new, at: at(0))
        let b = first.applying(new, at: at(0.4), seamColumns: 3)
        let c = Timeline(tape: new, settings: settings, at: at(30))
        // Continuous and scroll mode wait for a seam; the others change at once.
        let waits = settings.mode == .continuous || settings.mode == .scroll
        #expect((a.pending != nil) == waits && (b.pending != nil) == waits)
        let from = try settledBy([a, b])
        for t in samples(from: from, span: 120_000_000) {
            for columns in columns {
                let expected = c.frame(columns: columns, at: t)
                #expect(a.frame(columns: columns, at: t) == expected)
                #expect(b.frame(columns: columns, at: t) == expected)
            }
        }
        #expect(a.settled(at: from) == c && b.settled(at: from) == c)
        #expect(a.nextChange(after: from, columns: 12) == c.nextChange(after: from, columns: 12))
    }

    @Test("continuous, speed in cells per second: the same frames on every screen after the seam")
    func continuousRate() throws {
        try Self.expectSameFrames(Self.settings())
        try Self.expectSameFrames(Self.settings(direction: .right))
    }

    @Test("continuous, speed as a cycle duration: the same frames on every screen after the seam")
    func continuousCycle() throws {
        try Self.expectSameFrames(Self.settings(speed: .cycleDuration(9_000_000)))
        try Self.expectSameFrames(Self.settings(speed: .cycleDuration(9_000_000), direction: .right))
    }

    @Test("scroll, bounce, static and pages: the same frames on every screen after the change")
    func otherModes() throws {
        for mode in [Mode.scroll, .bounce, .static, .pages] {
            try Self.expectSameFrames(Self.settings(mode, speed: .cellsPerSecond(5)))
            try Self.expectSameFrames(Self.settings(mode, speed: .cycleDuration(4_000_000), direction: .right))
        }
    }

    @Test("scroll: every cycle starts at a whole number of cycle times from the epoch")
    func scrollCycles() throws {
        let settings = ChannelSettings(mode: .scroll, speed: .cycleDuration(3_000_000), delay: 1_000_000, phase: .wallClock)
        let timeline = Timeline(tape: Self.new, settings: settings, at: Self.at(0))
        // Cycle time: the hold (1 s) and one move over the tape (3 s).
        let period: Int64 = 4_000_000
        let home = timeline.frame(columns: 12, at: 0).text
        #expect(home.hasPrefix("Alpha-one"))
        for k in Int64(425_000_000_000)..<425_000_000_020 {
            #expect(timeline.frame(columns: 12, at: k * period) == timeline.frame(columns: 12, at: k * period + 999_999))
            #expect(timeline.frame(columns: 12, at: k * period).text == home)
        }
        // A change holds the new tape at home until its first epoch-aligned cycle.
        let narrow = Self.tape([("z", "Zulu")]) // "Zulu • ": a shorter move, a shorter cycle
        let changed = timeline.applying(narrow, at: Self.at(0.5))
        let settle = try #require(changed.settleInstant)
        let newPeriod = 1_000_000 + 3_000_000 as Int64
        #expect(settle % newPeriod == 0)
        #expect(changed.settled(at: settle) == Timeline(tape: narrow, settings: settings, at: Self.at(99)))
    }

    /// Runs of non-blank characters in a frame that touch neither edge: what a viewer sees whole.
    static func innerWords(_ text: String) -> [Substring] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count > 2 else { return [] }
        return words.dropFirst().dropLast().filter { !$0.isEmpty }
    }

    @Test("the lead-in never shows a message cut at the seam", arguments: [Direction.left, .right])
    func leadIn(direction: Direction) throws {
        let settings = Self.settings(speed: .cellsPerSecond(6), direction: direction)
        let messages = Set(["Alpha-one", "Bravo-two-longer", "Charlie", "Delta-4", "Charlie-3!", "Echo-echo-echo", "•"])
        var leadIns = 0
        for step in 0..<97 {
            let timeline = Timeline(tape: Self.old, settings: settings, at: 0)
            let c = Self.at(Double(step) * 0.37)
            let changed = timeline.applying(Self.new, at: c)
            let pending = try #require(changed.pending)
            if pending.leadIn > 0 { leadIns += 1 }
            #expect(pending.leadIn < Self.new.width)
            let settle = try #require(changed.settleInstant)
            // Every 1/12 s from the change to just past the settle instant: whatever shows whole
            // inside the view is a whole message (or the separator).
            var t = c
            while t < settle + 2_000_000 {
                for word in Self.innerWords(changed.frame(columns: 30, at: t).text) {
                    #expect(messages.contains(String(word)), "cut '\(word)' at \(t - c) µs after a change at step \(step)")
                }
                t += 83_333
            }
        }
        #expect(leadIns > 10)
    }

    @Test("while a change waits, the new tape is already epoch-anchored: settling changes no cell")
    func pendingIsEpochAnchored() throws {
        for direction in [Direction.left, .right] {
            let settings = Self.settings(speed: .cellsPerSecond(4), direction: direction)
            let oldView = Timeline(tape: Self.old, settings: settings, at: 0)
            let newView = Timeline(tape: Self.new, settings: settings, at: 0)
            let changed = oldView.applying(Self.new, at: Self.at(1))
            let settle = try #require(changed.settleInstant)
            for t in Self.samples(from: Self.at(1), span: settle - Self.at(1) + 1_000_000, count: 400) {
                let shown = Array(changed.frame(columns: 30, at: t).text)
                let before = Array(oldView.frame(columns: 30, at: t).text)
                let after = Array(newView.frame(columns: 30, at: t).text)
                #expect(changed.frame(columns: 30, at: t).offset == newView.frame(columns: 30, at: t).offset)
                // Each cell is the old tape's, blank (the lead-in) or the new tape's, epoch-anchored.
                for index in shown.indices {
                    #expect(shown[index] == before[index] || shown[index] == " " || shown[index] == after[index])
                }
                if t >= settle { #expect(shown == after) }
            }
        }
    }

    @Test("a second change before the seam keeps the seam and stays epoch-anchored")
    func replacedBeforeSeam() throws {
        let settings = Self.settings()
        let first = Timeline(tape: Self.old, settings: settings, at: 0).applying(Self.new, at: Self.at(0))
        let third = Self.tape([("e", "Echo-echo-echo"), ("f", "Foxtrot")])
        let replaced = first.applying(third, at: Self.at(0.2))
        #expect(replaced.pending?.switchPosition == first.pending?.switchPosition)
        let fresh = Timeline(tape: third, settings: settings, at: Self.at(50))
        let from = try Self.settledBy([replaced])
        for t in Self.samples(from: from, span: 60_000_000, count: 200) {
            #expect(replaced.frame(columns: 25, at: t) == fresh.frame(columns: 25, at: t))
        }
    }

    @Test("urgent changes and new settings switch at once, still epoch-anchored")
    func urgentIsCanonical() {
        let settings = Self.settings()
        let urgent = Timeline(tape: Self.old, settings: settings, at: 0).applying(Self.new, at: Self.at(3), urgent: true)
        #expect(urgent == Timeline(tape: Self.new, settings: settings, at: Self.at(77)))
        #expect(urgent.anchor == 0 && urgent.position == 0 && urgent.pending == nil)
    }

    @Test("the Timeline dictionary carries phase and nextLeadIn and reads back the same value")
    func fieldsRoundTrip() throws {
        var found = false
        for step in 0..<40 {
            let changed = Timeline(tape: Self.old, settings: Self.settings(), at: 0).applying(Self.new, at: Self.at(Double(step) * 0.5))
            let fields = changed.fields
            #expect(fields[Timeline.Key.phase] == .string("wall-clock"))
            if let leadIn = changed.pending?.leadIn, leadIn > 0 {
                found = true
                #expect(fields[Timeline.Key.nextLeadIn] == .double(Double(leadIn)))
            }
            #expect(try Timeline(fields: fields) == changed)
            // forEachField lists the same entries in ascending key order (a sorted a{sv}).
            var keys: [String] = []
            changed.forEachField { key, value in
                keys.append(key)
                #expect(fields[key] == value)
            }
            #expect(keys == keys.sorted() && keys.count == fields.count)
        }
        #expect(found)
        // A local timeline lists neither key.
        let local = Timeline(tape: Self.old, settings: ChannelSettings(), at: 0).applying(Self.new, at: Self.at(1))
        #expect(local.fields[Timeline.Key.phase] == nil && local.fields[Timeline.Key.nextLeadIn] == nil)
        var bad = Timeline(tape: Self.old, settings: Self.settings(), at: 0).fields
        bad[Timeline.Key.phase] = .string("sundial")
        #expect(throws: TimelineFieldError.self) { try Timeline(fields: bad) }
    }

    @Test("loops are refused with phase wall-clock")
    func loopsRefused() {
        #expect(throws: SettingsError.self) {
            try ChannelSettings(loops: 2, phase: .wallClock).validated()
        }
        #expect((try? ChannelSettings(loops: 2).validated()) != nil)
    }
}
