extension Timeline {
    /// The widest viewer a change must not be seen by before its seam: `seamColumns` (nil: every
    /// viewer) capped at the old content's width − 1. A phase-locked timeline ignores
    /// `seamColumns` — the declared viewers differ from screen to screen — and always takes the
    /// cap, so every screen computes the same seam (docs/rendering.md §13).
    func seamReach(_ seamColumns: Int?) -> Int {
        let wanted = isPhaseLocked ? Int.max : max(0, seamColumns ?? Int.max)
        return min(wanted, tape.contentWidth - 1)
    }

    /// Phase-locked continuous mode with a new tape moving at the current speed (a speed in cells
    /// per second, or a cycle over tapes of the same width): the stream position stays one
    /// function of time across the change, so the new tape continues epoch-anchored from any
    /// message boundary. With a cycle speed over tapes of different widths the speed changes at
    /// the switch, and the change waits for the start of an old cycle instead.
    func keepsStream(to newTape: Tape) -> Bool {
        mode == .continuous && speed(forWidth: newTape.width) == speed
    }

    /// The stream position where a phase-locked change to `newTape` switches, when the stream is
    /// at cell `cell` and no viewer of at most `reach` columns may see the switch yet: a message
    /// boundary of the old tape when ``keepsStream(to:)`` and the old tape has messages, else the
    /// start of an old cycle (docs/rendering.md §13).
    func phaseLockedSeam(to newTape: Tape, cell: Int, reach: Int) -> Int {
        let byMessage = keepsStream(to: newTape) && tape.layout != nil
        return seamPosition(in: boundaries(byMessage: byMessage).map(\.cell), cell: cell, reach: reach)
    }

    /// The pending change of a phase-locked timeline to `newTape` at stream position `seam`.
    /// When the stream keeps its speed the new tape is epoch-anchored as a whole (its cell 0 at
    /// every stream position ≡ 0 mod its width, so ``PendingChange/nextStart`` = seam mod width)
    /// and a message cut by the seam is blanked (``PendingChange/leadIn``); otherwise the seam is
    /// an old cycle start, where both tapes are at their cell 0, and the new tape starts there.
    func phaseLockedChange(to newTape: Tape, seam: Int, changedAt: Instant) -> PendingChange {
        let newSpeed = speed(forWidth: newTape.width)
        guard newTape.width > 0, keepsStream(to: newTape) else {
            return PendingChange(tape: newTape, switchPosition: seam, nextStart: 0, speed: newSpeed, changedAt: changedAt)
        }
        let entry = seam.floorMod(newTape.width)
        return PendingChange(
            tape: newTape, switchPosition: seam, nextStart: entry,
            leadIn: newTape.leadIn(entering: entry, direction: direction), speed: newSpeed, changedAt: changedAt)
    }

    /// The phase-locked timeline of `newTape` in its canonical form: anchored at the epoch
    /// (``anchor`` 0, ``position`` 0), nothing pending. It depends on the content and the
    /// settings alone; every change of a phase-locked timeline settles into it.
    func canonical(with newTape: Tape) -> Timeline {
        var result = self
        result.tape = newTape
        result.anchor = 0
        result.position = 0
        result.speed = speed(forWidth: newTape.width)
        result.pending = nil
        return result
    }

    /// The first instant at or after `t` that is a whole number of `period`s from the epoch.
    static func epochCycleStart(atOrAfter t: Instant, period: Int64) -> Instant {
        let p = max(1, period)
        let below = t - ((t % p) + p) % p
        return below == t ? t : below + p
    }
}

extension Tape {
    /// The cells of each message's text in the cycle, in tape order (a tape built from plain
    /// strings: its whole content).
    var textSpans: [Range<Int>] {
        guard let messages = layout?.messages else { return contentWidth > 0 ? [0..<contentWidth] : [] }
        return messages.map(\.cells).filter { !$0.isEmpty }
    }

    /// The blank cells a phase-locked change shows on the new side of its switch when the stream
    /// enters this tape at cell `entry` (the tape's cell just past the switch, direction left; just
    /// before it, direction right): 0 unless `entry` lies strictly inside a message's text; then,
    /// direction left, up to the next message's start, and direction right, back to the previous
    /// message's end — so the cut message and the separator beside it are blank, and the first
    /// message the stream shows enters whole. At most one cycle.
    func leadIn(entering entry: Int, direction: Direction) -> Int {
        let spans = textSpans
        guard width > 0, let cut = spans.first(where: { $0.lowerBound < entry && entry < $0.upperBound }),
              let first = spans.first, let last = spans.last else { return 0 }
        if direction == .left {
            let next = spans.first(where: { $0.lowerBound >= cut.upperBound })?.lowerBound ?? first.lowerBound + width
            return next - entry
        }
        let previous = spans.last(where: { $0.upperBound <= cut.lowerBound })?.upperBound ?? last.upperBound - width
        return entry - previous
    }
}
