import Testing
@testable import TickerModel

/// Each mode at chosen instants; every expected value is worked out by hand in the comment.
@Suite struct ModeGoldenTests {
    static let t0: Instant = 1_700_000_000_000_000
    static func at(_ seconds: Double) -> Instant { t0 + Int64(seconds * 1_000_000) }
    /// Content "ABCDEFGH" (8 cells) and gap "|": the tape is 9 cells, "ABCDEFGH|".
    static let letters = Tape(content: "ABCDEFGH", gap: "|")

    @Test("continuous, left: s = 2·t")
    func continuousLeft() {
        let timeline = Timeline(tape: Self.letters, settings: ChannelSettings(speed: .cellsPerSecond(2)), at: Self.t0)
        // t = 1.25 s: s = 2.5 → cells 2..5 = "CDEF", offset 0.5, cycle 2.5/9.
        let frame = timeline.frame(columns: 4, at: Self.at(1.25))
        #expect(frame.text == "CDEF")
        #expect(frame.offset == 0.5)
        #expect(abs(frame.extras.cycle - 2.5 / 9) < 1e-12)
        // t = 4 s: s = 8 → cells 8..11 = "|" then "ABC" of the next cycle.
        #expect(timeline.frame(columns: 4, at: Self.at(4)).text == "|ABC")
        // t = 4.75 s: s = 9.5 → cells 9..12 = "ABCD", cycle 9.5/9.
        let later = timeline.frame(columns: 4, at: Self.at(4.75))
        #expect(later.text == "ABCD" && later.offset == 0.5 && abs(later.extras.cycle - 9.5 / 9) < 1e-12)
    }

    @Test("continuous, right: s = −2·t")
    func continuousRight() {
        let settings = ChannelSettings(speed: .cellsPerSecond(2), direction: .right)
        let timeline = Timeline(tape: Self.letters, settings: settings, at: Self.t0)
        // t = 1.25 s: s = −2.5 → ⌊s⌋ = −3, offset 0.5; cells −3..0 = tape cells 6, 7, 8, 0 = "GH|A".
        let frame = timeline.frame(columns: 4, at: Self.at(1.25))
        #expect(frame.text == "GH|A" && frame.offset == 0.5)
    }

    @Test("continuous with a start delay and speed as a cycle duration")
    func delayAndCycle() {
        // One 9-cell cycle in 3 s = 3 cells/s, after a 1 s start delay.
        let settings = ChannelSettings(speed: .cycleDuration(3_000_000), delay: 1_000_000)
        let timeline = Timeline(tape: Self.letters, settings: settings, at: Self.t0)
        #expect(timeline.speed == 3)
        // t = 0.9 s: still holding, s = 0 → "ABCD".
        #expect(timeline.frame(columns: 4, at: Self.at(0.9)).text == "ABCD")
        // t = 2 s: s = 3·(2 − 1) = 3 → "DEFG".
        #expect(timeline.frame(columns: 4, at: Self.at(2)).text == "DEFG")
    }

    @Test("continuous with loops: after N tape widths it holds at home")
    func continuousLoops() {
        let settings = ChannelSettings(speed: .cellsPerSecond(9), loops: 2)
        let timeline = Timeline(tape: Self.letters, settings: settings, at: Self.t0)
        // 9 cells/s: two cycles (18 cells) take 2 s; at 1.5 s s = 13.5 → cells 13..16 = tape 4..7 = "EFGH".
        #expect(timeline.frame(columns: 4, at: Self.at(1.5)).text == "EFGH")
        // From 2 s on s stays 18 (home): "ABCD", offset 0; no further change.
        let held = timeline.frame(columns: 4, at: Self.at(100))
        #expect(held.text == "ABCD" && held.offset == 0)
        #expect(timeline.nextChange(after: Self.at(2), columns: 4) == nil)
    }

    @Test("scroll: hold delay at home, then one tape width with easing")
    func scroll() {
        // 9 cells at 3 cells/s: move T = 3 s; delay 1 s; period 4 s.
        let linear = Timeline(tape: Self.letters, settings: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(3), delay: 1_000_000), at: Self.t0)
        // 0.5 s: holding at home.
        #expect(linear.frame(columns: 4, at: Self.at(0.5)).text == "ABCD")
        // 2.5 s: progress (2.5 − 1)/3 = ½ → s = 4.5 → "EFGH", offset ½.
        let mid = linear.frame(columns: 4, at: Self.at(2.5))
        #expect(mid.text == "EFGH" && mid.offset == 0.5)
        // 4.5 s: cycle 1 holds at s = 9 → "ABCD", cycle 1.
        let home = linear.frame(columns: 4, at: Self.at(4.5))
        #expect(home.text == "ABCD" && home.extras.cycle == 1)
        // easeInQuad at progress ½ is ¼ → s = 2.25 → "CDEF", offset ¼.
        let eased = Timeline(tape: Self.letters, settings: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(3), delay: 1_000_000, easing: .easeInQuad), at: Self.t0)
        let frame = eased.frame(columns: 4, at: Self.at(2.5))
        #expect(frame.text == "CDEF" && frame.offset == 0.25)
        // easeOutBounce at ½ is 0.765625 → s = 6.890625 → cells 6..9 = "GH|A".
        let bounce = Timeline(tape: Self.letters, settings: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(3), delay: 1_000_000, easing: .easeOutBounce), at: Self.t0)
        #expect(bounce.frame(columns: 4, at: Self.at(2.5)).text == "GH|A")
    }

    @Test("bounce: the overflow back and forth, holding at each end")
    func bounce() {
        // Content 8 cells in 5 columns: overflow 3; 3 cells/s → move 1 s; delay 1 s; period 4 s.
        let settings = ChannelSettings(mode: .bounce, speed: .cellsPerSecond(3), delay: 1_000_000)
        let timeline = Timeline(tape: Self.letters, settings: settings, at: Self.t0)
        #expect(timeline.frame(columns: 5, at: Self.at(0.5)).text == "ABCDE")    // hold at home
        let out = timeline.frame(columns: 5, at: Self.at(1.5))                   // s = 1.5
        #expect(out.text == "BCDEF" && out.offset == 0.5 && out.extras.cycle == 0.5)
        #expect(timeline.frame(columns: 5, at: Self.at(2.5)).text == "DEFGH")    // hold at the far end, s = 3
        #expect(timeline.frame(columns: 5, at: Self.at(3.5)).text == "BCDEF")    // back: s = 3·(1 − ½)
        #expect(timeline.frame(columns: 5, at: Self.at(4.2)).text == "ABCDE")    // next cycle, home
        // Direction right starts at the far end.
        var right = settings
        right.direction = .right
        #expect(Timeline(tape: Self.letters, settings: right, at: Self.t0).frame(columns: 5, at: Self.at(0.5)).text == "DEFGH")
    }

    @Test("static: cut with …; text that fits is aligned")
    func staticMode() {
        func timeline(_ align: Align) -> Timeline {
            Timeline(tape: Self.letters, settings: ChannelSettings(mode: .static, align: align), at: Self.t0)
        }
        #expect(timeline(.left).frame(columns: 5, at: Self.at(9)).text == "ABCD…")
        #expect(timeline(.left).frame(columns: 8, at: Self.at(9)).text == "ABCDEFGH")
        #expect(timeline(.right).frame(columns: 10, at: Self.at(9)).text == "  ABCDEFGH")
        #expect(timeline(.center).frame(columns: 11, at: Self.at(9)).text == " ABCDEFGH  ")
        #expect(timeline(.left).frame(columns: 1, at: Self.at(9)).text == "…")
        #expect(timeline(.left).frame(columns: 0, at: Self.at(9)).text == "")
        // A wide cluster cut by the … keeps the width: "中文字" in 4 columns → "中" + one space + "…".
        let cjk = Timeline(tape: Tape(content: "中文字", gap: " "), settings: ChannelSettings(mode: .static), at: Self.t0)
        #expect(cjk.frame(columns: 4, at: Self.t0).text == "中 …")
    }

    @Test("fits: text no wider than the window stands still, aligned")
    func fits() {
        let tape = Tape(content: "HI", gap: "  •  ")
        for (align, expected) in [(Align.left, "HI    "), (.center, "  HI  "), (.right, "    HI")] {
            let timeline = Timeline(tape: tape, settings: ChannelSettings(align: align), at: Self.t0)
            let frame = timeline.frame(columns: 6, at: Self.at(3.3))
            #expect(frame.text == expected && frame.offset == 0)
            #expect(timeline.nextChange(after: Self.at(3.3), columns: 6) == nil)
        }
    }

    @Test("pages: word-wrapped, each held for its reading time (200 wpm, at least 2 s)")
    func pages() {
        let tape = Tape(content: "one two three four five six seven eight nine ten", gap: "  •  ")
        let timeline = Timeline(tape: tape, settings: ChannelSettings(mode: .pages), at: Self.t0)
        // 40 columns: "one two three four five six seven eight" is 39 cells (8 words → 2.4 s);
        // "nine ten" is the second page (2 words → 2 s). The cycle is 4.4 s.
        let first = "one two three four five six seven eight "
        let second = "nine ten" + String(repeating: " ", count: 32)
        #expect(timeline.frame(columns: 40, at: Self.at(2.3)).text == first)
        #expect(timeline.frame(columns: 40, at: Self.at(2.5)).text == second)
        #expect(timeline.frame(columns: 40, at: Self.at(4.5)).text == first)
        #expect(timeline.nextChange(after: Self.at(0), columns: 40) == Self.at(2.4))
        #expect(timeline.nextChange(after: Self.at(2.4), columns: 40) == Self.at(4.4))
        // 6 columns: "three" alone, "seven", "eight"…; a word wider than the page is cut: "abcdefgh" → "abcdef", "gh".
        let long = Timeline(tape: Tape(content: "abcdefgh xy", gap: " "), settings: ChannelSettings(mode: .pages), at: Self.t0)
        #expect(long.frame(columns: 6, at: Self.at(0)).text == "abcdef")
        #expect(long.frame(columns: 6, at: Self.at(2)).text == "gh xy ")
    }

    @Test("edge rule: a 2-cell cluster cut by an edge shows as spaces")
    func edges() {
        // "中文字" + gap "  ": 8 cells; 1 cell/s.
        let timeline = Timeline(tape: Tape(content: "中文字", gap: "  "), settings: ChannelSettings(speed: .cellsPerSecond(1)), at: Self.t0)
        // s = 0, 3 columns: 中 whole, 文 cut by the right edge → "中 ".
        #expect(timeline.frame(columns: 3, at: Self.at(0)).text == "中 ")
        // s = 1: 中's second cell, then 文 → " 文".
        #expect(timeline.frame(columns: 3, at: Self.at(1)).text == " 文")
        // s = 7, 3 columns: cell 7 is the gap's second space, then 中 of the next cycle → " 中".
        #expect(timeline.frame(columns: 3, at: Self.at(7)).text == " 中")
    }

    @Test("a content change enters at the next hidden tape boundary; wider viewers switch there too")
    func seamlessChange() throws {
        // Old: "ABCDEFGH|", 9 cells, 1 cell/s. Change at 2 s: s = 2, the widest scrolling viewer has
        // 7 columns, so the seam is the first multiple of 9 at or after 2 + 7 = 9: stream cell 9.
        let timeline = Timeline(tape: Self.letters, settings: ChannelSettings(speed: .cellsPerSecond(1)), at: Self.t0)
        let changed = timeline.applying(Tape(content: "0123456", gap: "#"), at: Self.at(2))
        let pending = try #require(changed.pending)
        #expect(pending.switchPosition == 9)
        #expect(changed.switchInstant == Self.at(9))
        #expect(changed.frame(columns: 4, at: Self.at(2)).text == "CDEF")
        // 6 s: cells 6..9 = "GH|" and the new tape's first cell → "GH|0".
        #expect(changed.frame(columns: 4, at: Self.at(6)).text == "GH|0")
        // 10 s: s = 10 → new cells 1..4.
        #expect(changed.frame(columns: 4, at: Self.at(10)).text == "1234")
        // A 10-column viewer, for whom old and new both fit, shows the new text still from the
        // change (2 s) on: nothing moves, so there is no seam to wait for.
        #expect(changed.pending?.changedAt == Self.at(2))
        #expect(changed.frame(columns: 10, at: Self.at(1.9)).text == "ABCDEFGH  ")
        #expect(changed.frame(columns: 10, at: Self.at(2)).text == "0123456   ")
        #expect(changed.frame(columns: 10, at: Self.at(8.9)).text == "0123456   ")
        #expect(changed.frame(columns: 10, at: Self.at(9)).text == "0123456   ")
        #expect(changed.nextChange(after: Self.at(1), columns: 10) == Self.at(2))
        #expect(changed.nextChange(after: Self.at(2), columns: 10) == nil)
        // So does a client that reads the published Timeline (the `changed` key).
        let published = try Timeline(fields: changed.fields)
        #expect(published.frame(columns: 10, at: Self.at(2)).text == "0123456   ")
        // A viewer for whom the old text fits but the new one does not keeps the old text still
        // until the switch, then the new tape scrolls in from its first cell.
        let wide = timeline.applying(Tape(content: "0123456789", gap: "#"), at: Self.at(2))
        #expect(wide.switchInstant == Self.at(9))
        #expect(wide.frame(columns: 8, at: Self.at(2)).text == "ABCDEFGH")
        #expect(wide.frame(columns: 8, at: Self.at(8.9)).text == "ABCDEFGH")
        #expect(wide.nextChange(after: Self.at(2), columns: 8) == Self.at(9))
        #expect(wide.frame(columns: 8, at: Self.at(9)).text == "01234567")
        #expect(wide.frame(columns: 8, at: Self.at(10)).text == "12345678")
        // Folded in at 9 s: anchored at the switch, position 0.
        let settled = changed.settled(at: Self.at(9.5))
        #expect(settled.pending == nil && settled.anchor == Self.at(9) && settled.position == 0 && settled.tape.text == "0123456#")
        #expect(changed.settled(at: Self.at(8)).pending != nil)
        // Urgent changes restart at home at once.
        let urgent = timeline.applying(Tape(content: "0123456", gap: "#"), at: Self.at(2), urgent: true)
        #expect(urgent.pending == nil && urgent.frame(columns: 4, at: Self.at(2)).text == "0123")
        // Seam columns narrow the wait: with 2 columns the seam is the first multiple of 9 ≥ 2 + 2.
        #expect(timeline.applying(Tape(content: "0123456", gap: "#"), at: Self.at(2), seamColumns: 2).pending?.switchPosition == 9)
        #expect(timeline.applying(Tape(content: "0123456", gap: "#"), at: Self.at(8), seamColumns: 2).pending?.switchPosition == 18)
    }
}
