import TestSupport
import Testing
@testable import TickerModel

/// Consecutive frames δt apart differ only by the expected shift: nothing visible jumps, also
/// across a content change and across pause/resume.
@Suite struct ShiftPropertyTests {
    static let base: Instant = 1_700_000_000_000_000

    /// The frame as cells: each cell holds the cluster that starts there (with any zero-width
    /// clusters before it), "" for the second cell of a wide cluster.
    static func cells(_ text: String) -> [String] {
        var cells: [String] = []
        var zeroWidth = ""
        for cluster in text {
            let w = CellWidth.of(cluster)
            if w == 0 {
                zeroWidth += String(cluster)
                continue
            }
            cells.append(zeroWidth + String(cluster))
            zeroWidth = ""
            if w == 2 { cells.append("") }
        }
        if !zeroWidth.isEmpty, !cells.isEmpty { cells[cells.count - 1] += zeroWidth }
        return cells
    }

    /// True when `later` is `earlier` moved by `shift` cells (cells entering at an edge are new; a
    /// cell at either edge of either frame may differ, because a wide cluster cut there shows as spaces).
    static func isShift(_ earlier: String, _ later: String, by shift: Int, columns c: Int) -> Bool {
        let a = cells(earlier)
        let b = cells(later)
        guard a.count == c, b.count == c else { return false }
        for i in 0..<c {
            let j = i + shift
            guard j >= 0, j < c else { continue }
            if i == 0 || i == c - 1 || j == 0 || j == c - 1 { continue }
            if a[j] != b[i] { return false }
        }
        return true
    }

    @Test("continuous and scroll: frames δt apart are shifted copies")
    func consecutiveFrames() {
        var rng = SeededRandom(seed: 0x5EED_0002)
        for trial in 0..<200 {
            let tape = TextSamples.tape(&rng)
            let scroll = Bool.random(using: &rng)
            let direction: Direction = Bool.random(using: &rng) ? .left : .right
            let easing = Easing.allCases[Int.random(in: 0..<Easing.allCases.count, using: &rng)]
            let speed = Double(Int.random(in: 5...300, using: &rng)) / 10
            let delay = Int64.random(in: 0...2_000_000, using: &rng)
            let settings = ChannelSettings(
                mode: scroll ? .scroll : .continuous, speed: .cellsPerSecond(speed), delay: delay,
                easing: easing, direction: direction)
            let timeline = Timeline(tape: tape, settings: settings, at: Self.base)
            guard tape.contentWidth > 2 else { continue }
            let c = Int.random(in: 2..<tape.contentWidth, using: &rng)
            let step = Int64.random(in: 10_000...200_000, using: &rng)
            var t = Self.base + Int64.random(in: 0...10_000_000, using: &rng)
            let sign: Double = direction == .left ? 1 : -1
            func s(_ t: Instant) -> Double {
                scroll
                    ? Reference.scroll(t - Self.base, width: tape.width, speed: speed, delay: delay, easing: easing, loops: 0, sign: sign)
                    : Reference.continuous(t - Self.base, position: 0, speed: speed, delay: delay, sign: sign)
            }
            var previous = timeline.frame(columns: c, at: t).text
            for _ in 0..<40 {
                let next = t + step
                let shift = Reference.split(s(next)).0 - Reference.split(s(t)).0
                let frame = timeline.frame(columns: c, at: next).text
                #expect(Self.isShift(previous, frame, by: shift, columns: c),
                        "trial \(trial): \(previous.debugDescription) → \(frame.debugDescription) by \(shift)")
                previous = frame
                t = next
            }
        }
    }

    @Test("a content change enters at the trailing edge: no jump, matches the reference, settles invisibly")
    func contentChange() {
        var rng = SeededRandom(seed: 0x5EED_0003)
        var checkedSwitches = 0
        for trial in 0..<250 {
            let old = TextSamples.tape(&rng)
            var new = TextSamples.tape(&rng)
            guard old.contentWidth > 2 else { continue }
            let c = Int.random(in: 1..<old.contentWidth, using: &rng)
            while new.contentWidth <= c { new = TextSamples.tape(&rng, maxMessages: 6) }
            let direction: Direction = Bool.random(using: &rng) ? .left : .right
            let speed = Double(Int.random(in: 20...400, using: &rng)) / 10
            let settings = ChannelSettings(speed: .cellsPerSecond(speed), direction: direction)
            let before = Timeline(tape: old, settings: settings, at: Self.base)
            let applyAt = Self.base + Int64.random(in: 0...20_000_000, using: &rng)
            let seamColumns: Int? = Bool.random(using: &rng) ? nil : Int.random(in: c...max(c, old.contentWidth), using: &rng)
            let after = before.applying(new, at: applyAt, seamColumns: seamColumns)
            let sign: Double = direction == .left ? 1 : -1
            func s(_ t: Instant) -> Double { Reference.continuous(t - Self.base, position: 0, speed: speed, delay: 0, sign: sign) }

            // Nothing visible changes at the instant of the change.
            #expect(after.frame(columns: c, at: applyAt) == before.frame(columns: c, at: applyAt), "trial \(trial)")
            guard let pending = after.pending, let switchAt = after.switchInstant else {
                Issue.record("trial \(trial): no pending change")
                continue
            }
            let seam = pending.switchPosition
            #expect(seam.floorMod(old.width) == 0, "the seam is a tape boundary")
            let cellAtApply = Reference.split(s(applyAt)).0
            if direction == .left {
                #expect(seam >= cellAtApply + c, "trial \(trial): the seam was visible when applied")
            } else {
                #expect(seam <= cellAtApply)
            }

            // Walk past the switch and the settle, δt at a time.
            let step = Int64.random(in: 20_000...150_000, using: &rng)
            let end = switchAt + Int64(Double(new.width + old.width) / speed * 1_000_000) + 1_000_000
            var t = applyAt
            var previous = after.frame(columns: c, at: t).text
            while t < end {
                let next = t + step
                let frame = after.frame(columns: c, at: next)
                let shift = Reference.split(s(next)).0 - Reference.split(s(t)).0
                #expect(Self.isShift(previous, frame.text, by: shift, columns: c), "trial \(trial) at \(next - applyAt)")
                // The reference: the old tape up to the seam, the new one from it (left), or the reverse.
                let cell = Reference.split(s(next)).0
                let window = cell..<(cell + c)
                let placed: [Reference.Placed]
                if direction == .left {
                    placed = Reference.place(old.text, origin: 0, around: window, keep: { _, end in end <= seam })
                        + Reference.place(new.text, origin: seam, around: window, keep: { start, _ in start >= seam })
                } else {
                    placed = Reference.place(new.text, origin: seam, around: window, keep: { _, end in end <= seam })
                        + Reference.place(old.text, origin: 0, around: window, keep: { start, _ in start >= seam })
                }
                #expect(frame.text == Reference.window(placed, from: cell, count: c), "trial \(trial)")
                // Folding the change in never changes a frame.
                let settled = after.settled(at: next)
                #expect(settled.frame(columns: c, at: next).text == frame.text, "trial \(trial): settle jumped")
                previous = frame.text
                t = next
            }
            #expect(after.settled(at: end).pending == nil, "trial \(trial): never settled")
            checkedSwitches += 1
        }
        #expect(checkedSwitches > 150)
    }

    @Test("a viewer whose text fits sees a change from its instant when the new text fits too, else at the switch")
    func stillViewerChange() throws {
        var rng = SeededRandom(seed: 0x5EED_0005)
        var sawAtOnce = 0
        var sawWaiting = 0
        for trial in 0..<250 {
            let old = TextSamples.tape(&rng, maxMessages: 2, maxPieces: 4)
            let new = TextSamples.tape(&rng, maxMessages: 2, maxPieces: 4)
            guard old.contentWidth > 1, old != new else { continue }
            // The old text fits; the new one fits or not.
            let c = Int.random(in: old.contentWidth...(old.contentWidth + 12), using: &rng)
            let scroll = Bool.random(using: &rng)
            let direction: Direction = Bool.random(using: &rng) ? .left : .right
            let align = Align.allCases[Int.random(in: 0..<Align.allCases.count, using: &rng)]
            let speed = Double(Int.random(in: 20...300, using: &rng)) / 10
            let settings = ChannelSettings(
                mode: scroll ? .scroll : .continuous, speed: .cellsPerSecond(speed),
                delay: Int64.random(in: 0...1_000_000, using: &rng), direction: direction, align: align)
            let before = Timeline(tape: old, settings: settings, at: Self.base)
            let applyAt = Self.base + Int64.random(in: 0...20_000_000, using: &rng)
            let after = before.applying(new, at: applyAt)
            guard after.pending != nil, let switchAt = after.switchInstant else {
                Issue.record("trial \(trial): no pending change")
                continue
            }
            // What a client computes from the published Timeline is what the daemon renders.
            let published = try Timeline(fields: after.fields)
            #expect(published == after, "trial \(trial): the Timeline dictionary lost the change instant")
            if new.contentWidth <= c { sawAtOnce += 1 } else { sawWaiting += 1 }
            var instants: [Instant] = [applyAt - 1, applyAt, applyAt + 1, switchAt - 1, switchAt]
            for _ in 0..<12 { instants.append(Int64.random(in: (applyAt - 2_000_000)...(switchAt + 2_000_000), using: &rng)) }
            for t in instants {
                let reference = Reference.stillDuringChange(
                    old: old, new: new, changedAt: applyAt, switchAt: switchAt, columns: c, align: align, at: t)
                guard let reference else { continue }
                let expected = reference
                // Before the change (and its switch: in scroll mode a change made during the hold at
                // home switches at the hold's start), the old timeline's frame stands.
                if t < min(applyAt, switchAt) { #expect(before.frame(columns: c, at: t).text == expected, "trial \(trial)") }
                #expect(after.frame(columns: c, at: t).text == expected, "trial \(trial) at \(t - applyAt)")
                #expect(after.frame(columns: c, at: t, effects: EffectState()).text == expected, "trial \(trial)")
                #expect(published.frame(columns: c, at: t).text == expected, "trial \(trial)")
                #expect(after.settled(at: t).frame(columns: c, at: t).text == expected, "trial \(trial): settle changed a frame")
            }
            // Pacing: the frame shown before the change is replaced right at it, or at the switch.
            let firstChange = new.contentWidth <= c ? applyAt : switchAt
            if after.frame(columns: c, at: firstChange).text != after.frame(columns: c, at: applyAt - 1).text {
                let due = after.nextChange(after: applyAt - 1, columns: c)
                #expect(due != nil && due! <= firstChange, "trial \(trial): the change is not due in time")
            }
            if new.contentWidth <= c {
                #expect(after.nextChange(after: applyAt, columns: c) == nil, "trial \(trial): still text wakes for nothing")
            }
        }
        #expect(sawAtOnce > 50 && sawWaiting > 20)
    }

    @Test("a change made while paused shows at once to viewers whose old and new text fit, also after resume")
    func stillViewerChangeWhilePaused() {
        let old = Tape(content: "old text", gap: " | ")
        let new = Tape(content: "new", gap: " | ")
        let running = Timeline(tape: old, settings: ChannelSettings(speed: .cellsPerSecond(2)), at: Self.base)
        let paused = running.paused(at: Self.base + 3_000_000)
        let changed = paused.applying(new, at: Self.base + 5_000_000)
        #expect(changed.frame(columns: 10, at: Self.base + 5_000_000).text == "new       ")
        // The scrolling viewer keeps its frozen old frame.
        #expect(changed.frame(columns: 4, at: Self.base + 5_000_000) == running.frame(columns: 4, at: Self.base + 3_000_000))
        let resumed = changed.resumed(at: Self.base + 9_000_000)
        #expect(resumed.frame(columns: 10, at: Self.base + 9_000_000).text == "new       ")
        #expect(resumed.frame(columns: 10, at: Self.base + 9_000_001).text == "new       ")
        // Made at the frozen instant (3 s), moved on by the pause (6 s) like the anchor.
        #expect(resumed.pending?.changedAt == Self.base + 9_000_000)
    }

    @Test("pause freezes the frame and resume continues from it without a jump")
    func pauseResume() {
        var rng = SeededRandom(seed: 0x5EED_0004)
        for trial in 0..<200 {
            let tape = TextSamples.tape(&rng)
            guard tape.contentWidth > 2 else { continue }
            let c = Int.random(in: 1..<tape.contentWidth, using: &rng)
            let scroll = Bool.random(using: &rng)
            let easing = Easing.allCases[Int.random(in: 0..<Easing.allCases.count, using: &rng)]
            let speed = Double(Int.random(in: 10...200, using: &rng)) / 10
            let settings = ChannelSettings(mode: scroll ? .scroll : .continuous, speed: .cellsPerSecond(speed), delay: 500_000, easing: easing)
            let running = Timeline(tape: tape, settings: settings, at: Self.base)
            let pauseAt = Self.base + Int64.random(in: 0...10_000_000, using: &rng)
            let resumeAt = pauseAt + Int64.random(in: 1...60_000_000, using: &rng)
            let paused = running.paused(at: pauseAt)
            let resumed = paused.resumed(at: resumeAt)
            #expect(paused.isPaused && !resumed.isPaused)
            let frozen = running.frame(columns: c, at: pauseAt)
            #expect(paused.frame(columns: c, at: pauseAt + 1) == frozen)
            #expect(paused.frame(columns: c, at: resumeAt) == frozen)
            #expect(resumed.frame(columns: c, at: resumeAt) == frozen, "trial \(trial): resume jumped")
            // After the resume the motion is the original one, delayed by the pause.
            for _ in 0..<10 {
                let later = resumeAt + Int64.random(in: 0...30_000_000, using: &rng)
                #expect(resumed.frame(columns: c, at: later) == running.frame(columns: c, at: later - (resumeAt - pauseAt)))
            }
        }
    }
}
