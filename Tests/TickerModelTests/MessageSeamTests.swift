import TestSupport
import Testing
@testable import TickerModel

/// Continuous mode switches a content change at the next message boundary that no declared viewer
/// can see yet (docs/rendering.md §6): nothing visible jumps, a removed message that is not on
/// screen never appears, the switch comes within one message of the reach, and settling changes
/// no frame.
@Suite struct MessageSeamTests {
    static let base: Instant = 1_700_000_000_000_000
    static let t0: Instant = 1_000_000_000
    static func at(_ seconds: Double) -> Instant { t0 + Int64(seconds * 1_000_000) }

    /// Marks that tell message `k` apart in a frame: every message's text begins and ends with its
    /// own mark (one cell, never part of another message's pieces).
    static func mark(_ k: Int) -> String { String(UnicodeScalar(0x24B6 + k)!) }

    /// A message tape from (key, text) pairs.
    static func tape(_ messages: [(String, String)], gap: String) -> Tape {
        Tape(messages: messages.map { TapeMessage(key: $0.0, text: $0.1) }, separator: "  •  ", gap: gap, at: 0)
    }

    /// The frame a reference renderer gives for the composite stream: the old tape (origin 0) on
    /// the old side of `seam`, the new tape with its cell `nextStart` at `seam` on the new side.
    static func referenceFrame(old: Tape, new: Tape, seam: Int, nextStart: Int, direction: Direction, from a: Int, count c: Int) -> String {
        let window = a..<(a + c)
        let newSide: (Reference.Placed) -> Bool = { item in
            item.width == 0 ? (direction == .left ? item.owner >= seam : item.owner < seam)
                : (direction == .left ? item.start >= seam : item.start + item.width <= seam)
        }
        let oldItems = Reference.place(old.text, origin: 0, around: window).filter { !newSide($0) }
        let newItems = new.width == 0 ? [] : Reference.place(new.text, origin: seam - nextStart, around: window).filter(newSide)
        let text = Reference.window(oldItems + newItems, from: a, count: c)
        return text.replacingOccurrences(of: "?", with: " ")
    }

    @Test("removing a message that is next: the stream skips it at its start, which no viewer saw yet")
    func goldenRemoval() throws {
        // "aaaa  •  bbbb  •  cccc  •  ": boundaries 0, 9, 18; W = 27; 1 cell/s.
        let old = Self.tape([("a", "aaaa"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  ")
        let timeline = Timeline(tape: old, settings: ChannelSettings(speed: .cellsPerSecond(1)), at: Self.t0)
        let new = Self.tape([("a", "aaaa"), ("c", "cccc")], gap: "  •  ")
        // At 2 s, s = 2; with 6 columns the first boundary ≥ 8 is 9 ("bbbb"): removed, so the
        // stream continues there with "cccc", which starts at cell 9 of the new tape.
        let changed = timeline.applying(new, at: Self.at(2), seamColumns: 6)
        let pending = try #require(changed.pending)
        #expect(pending.switchPosition == 9 && pending.nextStart == 9)
        #expect(changed.switchInstant == Self.at(9))
        #expect(changed.frame(columns: 6, at: Self.at(2)).text == "aa  • ")
        #expect(changed.frame(columns: 6, at: Self.at(5)).text == " •  cc")
        #expect(changed.frame(columns: 6, at: Self.at(9)).text == "cccc  ")
        // The published Timeline carries it; a client computes the same frames.
        #expect(changed.fields[Timeline.Key.nextStart] == .double(9))
        let published = try Timeline(fields: changed.fields)
        #expect(published == changed)
        // Folded in at the switch: position nextStart, so the frame stays.
        let settled = changed.settled(at: Self.at(9))
        #expect(settled.pending == nil && settled.position == 9 && settled.anchor == Self.at(9))
        #expect(settled.frame(columns: 6, at: Self.at(12)).text == changed.frame(columns: 6, at: Self.at(12)).text)
        // Without a declared width every scrolling viewer counts: the reach is 17, the boundary 27.
        #expect(timeline.applying(new, at: Self.at(2)).pending?.switchPosition == 27)
        // An update of the message at the boundary continues with it, updated.
        let updated = timeline.applying(
            Self.tape([("a", "aaaa"), ("b", "BBBBBB"), ("c", "cccc")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(updated.pending?.nextStart == 9)
        #expect(updated.frame(columns: 6, at: Self.at(9)).text == "BBBBBB")
        // Scroll mode keeps the seam of the whole tape.
        let scroll = Timeline(tape: old, settings: ChannelSettings(mode: .scroll, speed: .cellsPerSecond(1), delay: 0), at: Self.t0)
        #expect(scroll.applying(new, at: Self.at(2), seamColumns: 6).pending?.nextStart == 0)
        #expect(scroll.applying(new, at: Self.at(2), seamColumns: 6).pending.map { $0.switchPosition % 27 } == 0)
    }

    @Test("direction right: the switch is the last message end at or below the view")
    func goldenRight() throws {
        // Ends 4, 13, 22 of "aaaa  •  bbbb  •  cccc  •  " (W = 27).
        let old = Self.tape([("a", "aaaa"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  ")
        let settings = ChannelSettings(speed: .cellsPerSecond(1), direction: .right)
        let timeline = Timeline(tape: old, settings: settings, at: Self.t0)
        // At 2 s, s = −2 (cell 25 of cycle −1): the last end at or below is −27 + 22 = −5, the end
        // of "cccc", which is kept: the new side (below −5) shows the new tape up to its end (13).
        let new = Self.tape([("a", "aaaa"), ("c", "cccc")], gap: "  •  ")
        let changed = timeline.applying(new, at: Self.at(2), seamColumns: 6)
        let pending = try #require(changed.pending)
        #expect(pending.switchPosition == -5 && pending.nextStart == 13)
        #expect(changed.switchInstant == Self.at(5))
        #expect(changed.frame(columns: 6, at: Self.at(2)) == timeline.frame(columns: 6, at: Self.at(2)))
        #expect(changed.frame(columns: 6, at: Self.at(3)).text == "•  aaa")
        #expect(changed.frame(columns: 6, at: Self.at(7)).text == "cc  • ")
        // At 14 s: cells −14 ..< −8 are new cells 4 ..< 10: "  •  c" ("bbbb" never comes).
        #expect(changed.frame(columns: 6, at: Self.at(14)).text == "  •  c")
        #expect(changed.frame(columns: 6, at: Self.at(18)).text == "aaaa  ")
        // Removing "cccc" instead: the first kept message after it is none, so the new side ends
        // with the new tape's last message ("bbbb", ending at 13).
        let removed = timeline.applying(Self.tape([("a", "aaaa"), ("b", "bbbb")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(removed.pending?.switchPosition == -5 && removed.pending?.nextStart == 13)
        #expect(removed.frame(columns: 6, at: Self.at(7)).text == "bb  • ")
    }

    @Test("a post next to the message at the switch enters there; a post elsewhere waits for its place, nothing is skipped")
    func goldenPost() throws {
        // "aaaa  •  bbbb  •  cccc  •  ": starts 0, 9, 18; W = 27; 1 cell/s; 6 columns: switch 9,
        // where "bbbb" starts.
        let old = Self.tape([("a", "aaaa"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  ")
        let timeline = Timeline(tape: old, settings: ChannelSettings(speed: .cellsPerSecond(1)), at: Self.t0)
        #expect(timeline.continuingMessage(at: Self.at(2), seamColumns: 6) == "b")
        // "dddd" posted right before "bbbb": it enters at the switch, then "bbbb" and the rest.
        let next = timeline.applying(
            Self.tape([("a", "aaaa"), ("d", "dddd"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(next.pending?.switchPosition == 9 && next.pending?.nextStart == 9)
        #expect(next.frame(columns: 6, at: Self.at(2)) == timeline.frame(columns: 6, at: Self.at(2)))
        #expect(next.frame(columns: 6, at: Self.at(5)).text == " •  dd")
        #expect(next.frame(columns: 6, at: Self.at(9)).text == "dddd  ")
        #expect(next.frame(columns: 6, at: Self.at(18)).text == "bbbb  ")
        #expect(next.frame(columns: 6, at: Self.at(27)).text == "cccc  ")
        #expect(next.frame(columns: 6, at: Self.at(36)).text == "aaaa  ")
        #expect(next.entryInstant(ofMessage: "d") == next.switchInstant)
        // Posted together right before it: one after the other, then "bbbb".
        let two = timeline.applying(
            Self.tape([("a", "aaaa"), ("d", "dddd"), ("e", "eeee"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  "),
            at: Self.at(2), seamColumns: 6)
        #expect(two.pending?.nextStart == 9)
        #expect(two.frame(columns: 6, at: Self.at(9)).text == "dddd  ")
        #expect(two.frame(columns: 6, at: Self.at(18)).text == "eeee  ")
        #expect(two.frame(columns: 6, at: Self.at(27)).text == "bbbb  ")
        // "dddd" posted at the end of the tape (start 27 of 36), not next to "bbbb": the stream
        // continues with "bbbb" and "cccc", and "dddd" comes in its place, before "aaaa".
        let posted = timeline.applying(
            Self.tape([("a", "aaaa"), ("b", "bbbb"), ("c", "cccc"), ("d", "dddd")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(posted.pending?.switchPosition == 9 && posted.pending?.nextStart == 9)
        #expect(posted.frame(columns: 6, at: Self.at(5)).text == " •  bb")
        #expect(posted.frame(columns: 6, at: Self.at(9)).text == "bbbb  ")
        #expect(posted.frame(columns: 6, at: Self.at(18)).text == "cccc  ")
        #expect(posted.frame(columns: 6, at: Self.at(27)).text == "dddd  ")
        #expect(posted.frame(columns: 6, at: Self.at(36)).text == "aaaa  ")
        #expect(posted.entryInstant(ofMessage: "d") == Self.at(27))
        // With a removal: "bbbb" (at the switch) removed. "dddd" posted in its place comes at the
        // switch (it follows "aaaa", the last message kept before "bbbb"), then "cccc"; posted at
        // the end, it waits for its place after "cccc". "bbbb" never shows in either.
        let inPlace = timeline.applying(Self.tape([("a", "aaaa"), ("d", "dddd"), ("c", "cccc")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(inPlace.pending?.switchPosition == 9 && inPlace.pending?.nextStart == 9)
        #expect(inPlace.frame(columns: 6, at: Self.at(9)).text == "dddd  ")
        #expect(inPlace.frame(columns: 6, at: Self.at(18)).text == "cccc  ")
        let both = timeline.applying(Self.tape([("a", "aaaa"), ("c", "cccc"), ("d", "dddd")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(both.pending?.switchPosition == 9 && both.pending?.nextStart == 9)
        #expect(both.frame(columns: 6, at: Self.at(9)).text == "cccc  ")
        #expect(both.frame(columns: 6, at: Self.at(18)).text == "dddd  ")
        for second in 2...60 {
            #expect(!both.frame(columns: 6, at: Self.at(Double(second))).text.contains("b"), "at \(second) s")
            #expect(!inPlace.frame(columns: 6, at: Self.at(Double(second))).text.contains("b"), "at \(second) s")
        }
        // Replacing "cccc" by id is an update: "bbbb" continues, "CCCC" shows when it comes.
        let replaced = timeline.applying(Self.tape([("a", "aaaa"), ("b", "bbbb"), ("c", "CCCC")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(replaced.pending?.nextStart == 9)
        #expect(replaced.frame(columns: 6, at: Self.at(18)).text == "CCCC  ")

        // Direction right: the switch is the end of "cccc" (−5), and the stream reads the tape
        // backwards, so a post right after "cccc" comes first: "dddd" first in the tape lies
        // after "cccc" round the tape's end; it ends at 4 of "dddd  •  aaaa  •  bbbb  •  cccc  •  ".
        let right = Timeline(tape: old, settings: ChannelSettings(speed: .cellsPerSecond(1), direction: .right), at: Self.t0)
        #expect(right.continuingMessage(at: Self.at(2), seamColumns: 6) == "c")
        let postedRight = right.applying(
            Self.tape([("d", "dddd"), ("a", "aaaa"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(postedRight.pending?.switchPosition == -5 && postedRight.pending?.nextStart == 4)
        #expect(postedRight.frame(columns: 6, at: Self.at(7)).text == "dd  • ")
        #expect(postedRight.frame(columns: 6, at: Self.at(14)).text == "  •  d")
        #expect(postedRight.frame(columns: 6, at: Self.at(18)).text == "cccc  ")
        // "dddd" between "aaaa" and "bbbb" is not next to "cccc": "cccc" (ending at 31 of
        // "aaaa  •  dddd  •  bbbb  •  cccc  •  ") continues, then "bbbb", "dddd", "aaaa".
        let elsewhere = right.applying(
            Self.tape([("a", "aaaa"), ("d", "dddd"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        #expect(elsewhere.pending?.switchPosition == -5 && elsewhere.pending?.nextStart == 31)
        #expect(elsewhere.frame(columns: 6, at: Self.at(7)).text == "cc  • ")
        #expect(elsewhere.frame(columns: 6, at: Self.at(9)).text == "cccc  ")
        #expect(elsewhere.frame(columns: 6, at: Self.at(18)).text == "bbbb  ")
        #expect(elsewhere.frame(columns: 6, at: Self.at(27)).text == "dddd  ")
        #expect(elsewhere.frame(columns: 6, at: Self.at(36)).text == "aaaa  ")
    }

    /// One random change to a message tape: some messages removed, one updated, one posted.
    struct Change {
        var old: [(String, String)]
        var new: [(String, String)]
        var removed: Set<Int>
    }

    static func randomChange(_ rng: inout SeededRandom) -> Change {
        let count = Int.random(in: 1...7, using: &rng)
        let old = (0..<count).map { k in ("m\(k)", mark(k) + TextSamples.message(&rng, maxPieces: 5) + mark(k)) }
        var new = old
        var removed: Set<Int> = []
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            let k = Int.random(in: 0..<count, using: &rng)
            removed.insert(k)
            new.removeAll { $0.0 == "m\(k)" }
        case 1:
            let k = Int.random(in: 0..<count, using: &rng)
            new[k].1 = mark(k) + TextSamples.message(&rng, maxPieces: 5) + mark(k)
        case 2:
            let at = Int.random(in: 0...count, using: &rng)
            new.insert(("m\(count)", mark(count) + TextSamples.message(&rng, maxPieces: 5) + mark(count)), at: at)
        default:
            for k in 0..<count where Bool.random(using: &rng) {
                removed.insert(k)
                new.removeAll { $0.0 == "m\(k)" }
            }
            if Bool.random(using: &rng) {
                new.insert(("m\(count)", mark(count) + TextSamples.message(&rng, maxPieces: 3) + mark(count)), at: Int.random(in: 0...new.count, using: &rng))
            }
        }
        return Change(old: old, new: new, removed: removed)
    }

    @Test("no visible cell of any declared viewer changes at the change or the switch; settling changes no frame; nothing is skipped for a post, which comes within reach + one message when next to the continuing one")
    func noJump() throws {
        var rng = SeededRandom(seed: 0x5EED_0A11)
        var checked = 0
        var skippedRemoved = 0
        var postedSeen = 0
        var postedAtSwitch = 0
        for trial in 0..<200 {
            let change = Self.randomChange(&rng)
            let gap = TextSamples.gaps[Int.random(in: 0..<TextSamples.gaps.count, using: &rng)]
            let old = Self.tape(change.old, gap: gap)
            let new = Self.tape(change.new, gap: gap)
            guard old.contentWidth > 3, old != new else { continue }
            let reach = Int.random(in: 2..<old.contentWidth, using: &rng)
            let direction: Direction = Bool.random(using: &rng) ? .left : .right
            let speed = Double(Int.random(in: 20...300, using: &rng)) / 10
            let settings = ChannelSettings(speed: .cellsPerSecond(speed), direction: direction)
            let before = Timeline(tape: old, settings: settings, at: Self.base)
            let applyAt = Self.base + Int64.random(in: 0...30_000_000, using: &rng)
            let after = before.applying(new, at: applyAt, seamColumns: reach)
            let pending = try #require(after.pending, "trial \(trial)")
            let switchAt = try #require(after.switchInstant)
            let settleAt = try #require(after.settleInstant)
            #expect(try Timeline(fields: after.fields) == after, "trial \(trial): the Timeline dictionary lost nextStart")

            // The switch is a message start (left) or end (right) of the old tape, within one
            // message (and its separator or gap) of the reach: the change comes promptly.
            let seam = pending.switchPosition
            let boundaries = (direction == .left ? old.messageStarts : old.messageEnds.map { $0.floorMod(old.width) }).sorted()
            #expect(boundaries.contains(seam.floorMod(old.width)), "trial \(trial): \(seam) is no message boundary")
            let longest = zip(boundaries, boundaries.dropFirst() + [boundaries[0] + old.width]).map { $1 - $0 }.max() ?? old.width
            let cell = Reference.split(Reference.continuous(applyAt - Self.base, position: 0, speed: speed, delay: 0, sign: direction.sign)).0
            if direction == .left {
                #expect(seam >= cell + reach && seam < cell + reach + longest, "trial \(trial): switch \(seam) for \(cell) + \(reach)")
            } else {
                #expect(seam <= cell && seam > cell - longest, "trial \(trial)")
            }
            // From the switch the stream reads the new tape in its order (left: ascending, right:
            // descending), starting with the message at nextStart. No message is skipped for a
            // post: the first kept message it meets is the first kept one the old stream would
            // have shown from the switch on (the message at the switch, or the next one when it
            // was removed). Posts before it come at the switch, and they are all the posts lying
            // there: the message a cycle later, just before the switch's place, is a kept one.
            let index = try #require(after.messageIndex(atSeam: seam), "trial \(trial)")
            let oldSpans = old.layout!.messages
            let oldKeys = Set(oldSpans.map(\.key))
            let newSpans = new.layout?.messages ?? []
            let posted = newSpans.filter { !oldKeys.contains($0.key) }
            let sign = direction == .left ? 1 : -1
            var leading: [String] = []
            if !newSpans.isEmpty {
                let first = try #require(newSpans.firstIndex { span in
                    direction == .left ? span.cells.lowerBound == pending.nextStart
                        : span.cells.upperBound.floorMod(new.width) == pending.nextStart
                }, "trial \(trial): nextStart \(pending.nextStart) is no message boundary")
                let order = (0..<newSpans.count).map { newSpans[(first + sign * $0).floorMod(newSpans.count)].key }
                let oldOrder = (0..<oldSpans.count).map { oldSpans[(index + sign * $0).floorMod(oldSpans.count)].key }
                let newKeys = Set(order)
                leading = Array(order.prefix { !oldKeys.contains($0) })
                if let firstKept = order.first(where: oldKeys.contains) {
                    #expect(firstKept == oldOrder.first(where: newKeys.contains), "trial \(trial): a kept message was skipped")
                    #expect(oldKeys.contains(order.last!), "trial \(trial): a post next to the continuing message did not come first")
                }
            }

            // Frames of every width up to the reach: the same just before and after the change;
            // along the way the composite stream's reference; the same after settling.
            let widths = Set([1, reach, Int.random(in: 1...reach, using: &rng)])
            var instants: [Instant] = [applyAt, applyAt + 1, switchAt - 1, switchAt, switchAt + 1, settleAt, settleAt + 1]
            let end = settleAt + Int64(Double(new.width + reach) / speed * 1_000_000)
            let step: Int64 = max(1, (end - applyAt) / 24)
            instants += Array(stride(from: applyAt, through: end, by: Int(step)))
            for c in widths {
                #expect(after.frame(columns: c, at: applyAt) == before.frame(columns: c, at: applyAt), "trial \(trial) c \(c)")
                // A viewer for whom the new content fits shows it still from the switch (§4).
                let scrollsNew = c < new.contentWidth
                for t in instants where t < switchAt || scrollsNew {
                    let frame = after.frame(columns: c, at: t)
                    // The model's own position (the motion itself is ShiftPropertyTests' concern;
                    // at the switch it is exactly `switch`, a rounding below the formula's).
                    let (a, _) = Reference.split(after.streamState(at: t).position)
                    #expect(frame.text == Self.referenceFrame(
                        old: old, new: new, seam: seam, nextStart: pending.nextStart, direction: direction, from: a, count: c),
                        "trial \(trial) c \(c) at \(t - applyAt)")
                    #expect(after.settled(at: t).frame(columns: c, at: t).text == frame.text, "trial \(trial): settling changed a frame")
                }
                // Across the switch the frame moves by the motion only.
                guard scrollsNew else { continue }
                let justBefore = after.frame(columns: c, at: switchAt - 1).text
                let atSwitch = after.frame(columns: c, at: switchAt).text
                let shift = Reference.split(after.streamState(at: switchAt).position).0
                    - Reference.split(after.streamState(at: switchAt - 1).position).0
                #expect(abs(shift) <= 1, "trial \(trial): the motion jumped at the switch")
                #expect(ShiftPropertyTests.isShift(justBefore, atSwitch, by: shift, columns: c), "trial \(trial) c \(c): jump at the switch")
            }

            // A posted message comes into every declared view once the motion has covered at most
            // the reach and one message (with its separator or gap) from the change when it lies
            // next to the continuing message; elsewhere, at most one cycle of the new tape later.
            if let post = posted.first {
                let mark = Self.mark(change.old.count).unicodeScalars.first!
                let cells = reach + longest + 1 + (leading.contains(post.key) ? 0 : new.width)
                let limit = applyAt + Int64(Double(cells) / speed * 1_000_000)
                let walkStep = max(1, Int(500_000 / speed))
                for c in Set([1, reach]) {
                    let seen = stride(from: applyAt, through: limit, by: walkStep).contains { t in
                        after.frame(columns: c, at: t).text.unicodeScalars.contains(mark)
                    }
                    #expect(seen, "trial \(trial) c \(c): the posted message did not come within \(cells) cells")
                    postedSeen += seen ? 1 : 0
                    postedAtSwitch += seen && leading.contains(post.key) ? 1 : 0
                }
            }

            // A removed message that no viewer saw at the change never appears.
            for k in change.removed {
                guard let span = oldSpans.first(where: { $0.key == "m\(k)" }) else { continue }
                let first = cell.floorDiv(old.width) - 1
                let onScreen = (first...(first + 2)).contains { cycle in
                    let lower = cycle * old.width + span.cells.lowerBound
                    let upper = cycle * old.width + span.cells.upperBound
                    return lower < cell + reach && upper > cell
                }
                if onScreen {
                    skippedRemoved += 1
                    continue
                }
                let walkEnd: Instant = end + Int64(Double(new.width) / speed * 1_000_000)
                let walkStep: Int64 = max(1, Int64(1_000_000 / speed))
                for t in stride(from: applyAt, through: walkEnd, by: Int(walkStep)) {
                    let mark = Self.mark(k).unicodeScalars.first!
                    #expect(!after.frame(columns: reach, at: t).text.unicodeScalars.contains(mark), "trial \(trial): removed m\(k) appeared")
                }
            }
            checked += 1
        }
        #expect(checked > 130)
        #expect(skippedRemoved < checked)
        #expect(postedSeen > 40)
        #expect(postedAtSwitch > 10 && postedAtSwitch < postedSeen, "both kinds of post were tried")
    }

    @Test("a second change before the switch keeps the switch; a message it posts next to the continuing one comes first there")
    func replacedPending() throws {
        let old = Self.tape([("a", "aaaa"), ("b", "bbbb"), ("c", "cccc")], gap: "  •  ")
        let timeline = Timeline(tape: old, settings: ChannelSettings(speed: .cellsPerSecond(1)), at: Self.t0)
        let first = timeline.applying(Self.tape([("a", "aaaa"), ("c", "cccc")], gap: "  •  "), at: Self.at(2), seamColumns: 6)
        // The removed "bbbb" was at the switch: the stream continues with "cccc", which a post
        // placed right before it would precede.
        #expect(first.continuingMessage(at: Self.at(3), seamColumns: 6) == "c")
        let second = first.applying(
            Self.tape([("a", "aaaa"), ("d", "dd"), ("c", "cccc")], gap: "  •  "), at: Self.at(3), seamColumns: 6)
        // "dd" is new to the old tape (a, b, c) and follows "aaaa", the last message kept from
        // before the removed "bbbb": the stream continues with it (cell 9 of the new tape).
        #expect(second.pending?.switchPosition == 9 && second.pending?.nextStart == 9)
        #expect(second.pending?.changedAt == Self.at(3))
        #expect(second.frame(columns: 6, at: Self.at(9)).text == "dd  • ")
        #expect(second.frame(columns: 6, at: Self.at(16)).text == "cccc  ")
        #expect(second.frame(columns: 6, at: Self.at(3)) == first.frame(columns: 6, at: Self.at(3)))
        // The message a third change continues with is still "cccc" (past the post "dd"): a
        // message posted right before it comes after "dd", in the order they arrived.
        #expect(second.continuingMessage(at: Self.at(3), seamColumns: 6) == "c")
        // Posted at the end instead: "cccc" continues, "dd" after it.
        let last = first.applying(
            Self.tape([("a", "aaaa"), ("c", "cccc"), ("d", "dd")], gap: "  •  "), at: Self.at(3), seamColumns: 6)
        #expect(last.pending?.switchPosition == 9 && last.pending?.nextStart == 9)
        #expect(last.frame(columns: 6, at: Self.at(9)).text == "cccc  ")
        #expect(last.frame(columns: 6, at: Self.at(18)).text == "dd  • ")
        // Back to the old tape: nothing pending any more.
        #expect(second.applying(old, at: Self.at(4), seamColumns: 6).pending == nil)
    }

    /// The new tape's cell where the stream continues, found with tables of every key
    /// (`Timeline.continuation(from:into:)` as it was before it looked up the few keys it needs).
    static func referenceContinuation(old: [String], new: [String], index: Int, direction: Direction, into newTape: Tape) -> Int {
        var newIndex: [String: Int] = [:]
        for (position, key) in new.enumerated() where newIndex[key] == nil { newIndex[key] = position }
        let oldSet = Set(old)
        let count = new.count
        let step = direction == .left ? -1 : 1
        var target: Int
        if let kept = newIndex[old[index]] {
            target = kept
        } else if direction == .left {
            let before = (Array(old[..<index].reversed()) + old[(index + 1)...].reversed()).lazy.compactMap { newIndex[$0] }.first
            target = before.map { ($0 + 1) % count } ?? 0
        } else {
            let after = (old[(index + 1)...] + old[..<index]).lazy.compactMap { newIndex[$0] }.first
            target = after.map { ($0 - 1).floorMod(count) } ?? count - 1
        }
        if oldSet.contains(new[target]) {
            let continuing = target
            var neighbour = (target + step).floorMod(count)
            while neighbour != continuing, !oldSet.contains(new[neighbour]) {
                target = neighbour
                neighbour = (target + step).floorMod(count)
            }
        }
        return direction == .left ? newTape.messageStarts[target] : newTape.messageEnds[target].floorMod(newTape.width)
    }

    @Test("property: the stream continues where tables of every key say, with keys repeated, removed and posted in runs")
    func continuationMatchesTheTables() {
        var rng = SeededRandom(seed: 0xC0_471E)
        for _ in 0..<1500 {
            // Few distinct keys, so some repeat; runs of posts long enough to outgrow a scan.
            let old = (0..<Int.random(in: 1...24, using: &rng)).map { _ in "k\(Int.random(in: 0...30, using: &rng))" }
            var new = old.filter { _ in Int.random(in: 0..<4, using: &rng) > 0 }
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let run = (0..<Int.random(in: 1...14, using: &rng)).map { _ in "p\(Int.random(in: 0...99, using: &rng))" }
                new.insert(contentsOf: run, at: Int.random(in: 0...new.count, using: &rng))
            }
            guard !new.isEmpty else { continue }
            let direction: Direction = Bool.random(using: &rng) ? .left : .right
            let oldTape = Self.tape(old.map { ($0, "text of \($0)") }, gap: "  •  ")
            let newTape = Self.tape(new.map { ($0, "text of \($0)") }, gap: "  •  ")
            let timeline = Timeline(tape: oldTape, settings: ChannelSettings(speed: .cellsPerSecond(1), direction: direction), at: Self.t0)
            for index in old.indices {
                #expect(timeline.continuation(from: index, into: newTape)
                        == Self.referenceContinuation(old: old, new: new, index: index, direction: direction, into: newTape),
                        "\(old) -> \(new), \(direction), from \(index)")
            }
        }
    }

    @Test("nextStart is read back and checked")
    func fieldsNextStart() throws {
        let old = Self.tape([("a", "aaaa"), ("b", "bbbb")], gap: "  •  ")
        let timeline = Timeline(tape: old, settings: ChannelSettings(speed: .cellsPerSecond(1)), at: Self.t0)
        let changed = timeline.applying(Self.tape([("b", "bbbb")], gap: "  •  "), at: Self.at(0), seamColumns: 3)
        var fields = changed.fields
        #expect(fields[Timeline.Key.nextStart] == .double(0))
        fields[Timeline.Key.nextStart] = nil
        #expect(try Timeline(fields: fields) == changed, "absent means 0")
        for bad in [TimelineValue.double(9), .double(-1), .double(0.5), .string("0")] {
            fields[Timeline.Key.nextStart] = bad
            #expect(throws: TimelineFieldError.self) { try Timeline(fields: fields) }
        }
    }
}
