import TestSupport
import Testing
@testable import TickerModel

/// A revealing message that arrives with a content change is typed in when it comes into each
/// viewer's view (docs/rendering.md §11.4): from the change for viewers that show it still (old and
/// new content fit), from the switch for viewers whose text scrolls or for whom only the old fits.
@Suite struct RevealStillChangeTests {
    static let base: Instant = 1_700_000_000_000_000

    /// "short" at 1 cell a second; at +0.1 s "typed in" (revealed over 2 s) joins before it.
    static func scenario() throws -> (timeline: Timeline, effects: EffectState, changed: Instant) {
        let settings = ChannelSettings(speed: .cellsPerSecond(1))
        let old = Tape(messages: [TapeMessage(key: "s", text: "short")], separator: "  •  ", at: base)
        let new = Tape(
            messages: [TapeMessage(key: "r", text: "typed in"), TapeMessage(key: "s", text: "short")],
            separator: "  •  ", at: base)
        let changed = base + 100_000
        let timeline = Timeline(tape: old, settings: settings, at: base).applying(new, at: changed)
        let reveal = try RevealEffect.entering(timeline, message: "r", at: changed, duration: 2_000_000)
        return (timeline, EffectState(messages: ["r": .reveal(reveal)]), changed)
    }

    @Test("golden: a still viewer sees the reveal from the change, scrolling viewers from the switch")
    func golden() throws {
        let (timeline, effects, changed) = try Self.scenario()
        let switchAt = try #require(timeline.switchInstant)
        #expect(switchAt > changed + 5_000_000, "the switch is seconds away")
        let pad = { (text: String, c: Int) in text + String(repeating: " ", count: c - text.count) }
        // 40 columns: both contents fit; 4 of 8 clusters after 1 s, all after 2 s — before the switch.
        #expect(timeline.frame(columns: 40, at: changed - 1, effects: effects).text == pad("short", 40))
        #expect(timeline.frame(columns: 40, at: changed, effects: effects).text == pad("          •  short", 40))
        let half = timeline.frame(columns: 40, at: changed + 1_000_000, effects: effects)
        #expect(half.text == pad("type      •  short", 40))
        #expect(half.extras.reveal == 0.5)
        #expect(timeline.frame(columns: 40, at: changed + 2_000_000, effects: effects).text == pad("typed in  •  short", 40))
        #expect(timeline.frame(columns: 40, at: switchAt + 1_000_000, effects: effects).text == pad("typed in  •  short", 40))
        // The switch is at stream cell 10, the start of "short"; the stream continues there with
        // the posted "typed in" (cell 0 of "typed in  •  short  •  "), which types in from the switch.
        #expect(timeline.pending?.switchPosition == 10 && timeline.pending?.nextStart == 0)
        let entry = switchAt
        #expect(effects.messages["r"].flatMap { if case let .reveal(r) = $0 { r.start } else { nil } } == entry)
        // 8 columns: only the old content fits; the old text until the switch, then the new text
        // scrolls in from "typed in", typing in as it comes.
        #expect(timeline.frame(columns: 8, at: changed + 1_000_000, effects: effects).text == pad("short", 8))
        #expect(timeline.frame(columns: 8, at: switchAt - 500_000, effects: effects).text == pad("short", 8))
        #expect(timeline.frame(columns: 8, at: entry + 500_000, effects: effects).text == pad("ty", 8))
        #expect(timeline.frame(columns: 8, at: entry + 2_500_000, effects: effects).text == "ped in  ", "all typed, two cells on")
        // 3 columns: scrolling; the old separator until the switch, then the message types in.
        #expect(timeline.frame(columns: 3, at: switchAt - 3_000_000, effects: effects).text == "•  ")
        #expect(timeline.frame(columns: 3, at: entry + 500_000, effects: effects).text == "ty ")
        // Pacing: the still viewer is woken for each cluster from the change on.
        #expect(timeline.nextChange(after: changed, columns: 40, effects: effects) == changed + 250_000)
        #expect(timeline.nextChange(after: changed + 2_000_000, columns: 40, effects: effects) == nil)
        // Published and read back (Timeline dictionary, effects string), and after the settle: the same.
        let published = try Timeline(fields: timeline.fields)
        let read = try EffectFields.effects(from: EffectFields.encode(effects))
        #expect(read == effects)
        for step in Int64(0)..<80 {
            let t = changed + step * 173_000
            for c in [3, 8, 40] {
                let frame = timeline.frame(columns: c, at: t, effects: effects)
                #expect(published.frame(columns: c, at: t, effects: read) == frame)
                let settled = timeline.settled(at: t).frame(columns: c, at: t, effects: effects)
                #expect(settled.text == frame.text && settled.extras.reveal == frame.extras.reveal, "c \(c) t \(t - changed)")
            }
        }
    }

    @Test("dots arriving with a change jump in phase with their start for every viewer")
    func dotsPhase() throws {
        let (timeline, _, changed) = try Self.scenario()
        // The daemon starts dots at the change for every viewer: the still viewer sees the first
        // raise 47 156 µs in, long before the switch, like any viewer would at that phase.
        let dots = EffectState(messages: ["r": .dots(DotsEffect(start: changed))])
        let tape = Tape(
            messages: [TapeMessage(key: "r", text: "wait..."), TapeMessage(key: "s", text: "short")],
            separator: "  •  ", at: Self.base)
        let withDots = Timeline(
            tape: Tape(messages: [TapeMessage(key: "s", text: "short")], separator: "  •  ", at: Self.base),
            settings: ChannelSettings(speed: .cellsPerSecond(1)), at: Self.base).applying(tape, at: changed)
        #expect(withDots.switchInstant == timeline.switchInstant)
        #expect(withDots.frame(columns: 40, at: changed + 47_156, effects: dots).text.hasPrefix("wait˙..  •  short"))
        #expect(withDots.frame(columns: 40, at: changed + 47_155, effects: dots).text.hasPrefix("wait...  •  short"))
    }

    @Test("a later change replacing the pending one keeps the still start only where it fits too")
    func replacedChange() throws {
        let (timeline, effects, changed) = try Self.scenario()
        guard case let .reveal(reveal)? = effects.messages["r"] else {
            Issue.record("no reveal")
            return
        }
        let wider = Tape(
            messages: [TapeMessage(key: "r", text: "typed in"), TapeMessage(key: "s", text: "short"),
                       TapeMessage(key: "w", text: "and a rather longer third one")],
            separator: "  •  ", at: Self.base)
        let second = changed + 500_000
        let replaced = timeline.applying(wider, at: second)
        #expect(replaced.switchInstant == timeline.switchInstant)
        let after = reveal.after(change: replaced, message: "r", at: second)
        #expect(after.still?.start == changed)
        #expect(after.still?.columns == wider.contentWidth)
        // A viewer wide enough for all of it has seen the message since the first change.
        #expect(after.forViewer(columns: wider.contentWidth).start == changed)
        // 40 columns: the first change fitted, the second does not: back to the old text, and the
        // message types in when it reaches the switch's place in the pending tape as it now is.
        #expect(after.forViewer(columns: 40).start == replaced.entryInstant(ofMessage: "r"))
        // "w" and "r" are both posted and lie right before "s", the message at the switch (round
        // the tape's end): the stream continues with "w" (cell 23), and "r" comes after it.
        #expect(replaced.pending?.nextStart == 23)
        let entry = try #require(replaced.entryInstant(ofMessage: "r"))
        #expect(try entry > #require(timeline.switchInstant))
        // Once under way (after its switch) a reveal is left alone.
        let later = reveal.start + 1
        #expect(reveal.after(change: replaced, message: "r", at: later) == reveal)
    }

    @Test("property: frames with a reveal arriving with a change equal the reference for every width")
    func againstReference() throws {
        var rng = SeededRandom(seed: 0x5EED_0E71)
        var sawStill = 0
        var sawScrolling = 0
        for trial in 0..<200 {
            let oldMessages = (0..<Int.random(in: 1...2, using: &rng)).map {
                TapeMessage(key: "o\($0)", text: EffectsFrameTests.randomText(&rng))
            }
            var newMessages = oldMessages
            let revealed = TapeMessage(key: "r", text: EffectsFrameTests.randomText(&rng))
            newMessages.insert(revealed, at: Int.random(in: 0...newMessages.count, using: &rng))
            let separator = "  •  "
            let settings = ChannelSettings(
                mode: Bool.random(using: &rng) ? .scroll : .continuous,
                speed: .cellsPerSecond(Double(Int.random(in: 5...60, using: &rng)) / 10),
                delay: Int64.random(in: 0...1_000_000, using: &rng),
                direction: Bool.random(using: &rng) ? .left : .right,
                align: Align.allCases[Int.random(in: 0..<Align.allCases.count, using: &rng)])
            let old = Tape(messages: oldMessages, separator: separator, at: Self.base)
            let new = Tape(messages: newMessages, separator: separator, at: Self.base)
            let changed = Self.base + Int64.random(in: 0...8_000_000, using: &rng)
            let timeline = Timeline(tape: old, settings: settings, at: Self.base).applying(new, at: changed)
            let duration = Int64.random(in: 1...6_000_000, using: &rng)
            let reveal = try RevealEffect.entering(timeline, message: "r", at: changed, duration: duration)
            let effects = EffectState(messages: ["r": .reveal(reveal)])
            let published = try Timeline(fields: timeline.fields)
            let read = try EffectFields.effects(from: EffectFields.encode(effects))
            // The message comes into a viewer's view at the change when both contents fit it, else
            // when the motion after the switch has carried the stream from the switch position by
            // the message's distance from `nextStart` in the new tape (continuous mode; at the
            // switch in scroll mode), or at once when the change did not wait.
            var switchAt = timeline.switchInstant ?? changed
            if let pending = timeline.pending, settings.mode == .continuous {
                let span = try #require(new.layout?.messages.first { $0.key == "r" })
                let distance = timeline.direction == .left
                    ? (span.cells.lowerBound - pending.nextStart).floorMod(new.width)
                    : (pending.nextStart - span.cells.upperBound).floorMod(new.width)
                switchAt += Int64((Double(distance) / pending.speed * 1_000_000).rounded(.up))
            }
            for _ in 0..<12 {
                let c = Int.random(in: 0...(new.contentWidth + 6), using: &rng)
                let still = c >= old.contentWidth && c >= new.contentWidth
                if timeline.pending != nil { if still { sawStill += 1 } else { sawScrolling += 1 } }
                let start = still ? changed : max(changed, switchAt)
                let t = changed + Int64.random(in: -1_000_000...(duration + 12_000_000), using: &rng)
                let plain = EffectState(messages: ["r": .reveal(try RevealEffect(start: start, duration: duration))])
                let substituted = { (messages: [TapeMessage]) in
                    Tape(content: EffectsReference.content(
                        messages, separator: separator, effects: plain, builtAt: Self.base, columns: c, at: t), gap: separator)
                }
                // The same motion and seam over the substituted tapes (same widths).
                var reference = timeline
                reference.tape = substituted(oldMessages)
                if reference.pending != nil {
                    reference.pending?.tape = substituted(newMessages)
                } else {
                    reference.tape = substituted(newMessages)
                }
                let expected = reference.frame(columns: c, at: t).text
                let message = "trial \(trial) c \(c) t \(t - changed) \(newMessages.map(\.text))"
                #expect(timeline.frame(columns: c, at: t, effects: effects).text == expected, "\(message)")
                #expect(published.frame(columns: c, at: t, effects: read).text == expected, "\(message)")
                // The daemon settles only at instants after the change. (With direction right a
                // viewer wider than the old content can still see the old tape when it settles —
                // a motion matter, not the reveal's: compare only where the plain frames agree.)
                let settled = timeline.settled(at: t)
                if t >= changed, settled.frame(columns: c, at: t).text == timeline.frame(columns: c, at: t).text {
                    #expect(settled.frame(columns: c, at: t, effects: effects).text == expected, "\(message)")
                }
            }
        }
        #expect(sawStill > 100 && sawScrolling > 100, "still \(sawStill), scrolling \(sawScrolling)")
    }
}
