extension Timeline {
    /// The timeline after the channel's content becomes `newTape` at `t`.
    ///
    /// In continuous and scroll mode the change is seamless: the new tape takes over at a boundary
    /// of the old stream that no viewer of at most `seamColumns` cells can see yet at `t` — for
    /// direction left the first one at or beyond ⌊s⌋ + seamColumns, for direction right the last
    /// one at or below ⌊s⌋ — and ``pending`` describes it until ``settled(at:)`` folds it in. In
    /// continuous mode the boundaries are the starts (direction left) or ends (right) of the old
    /// tape's messages, and the stream continues there with the same message in the new tape (a
    /// removed one is skipped), preceded by the messages the change posted (keys not in the old
    /// tape) that lie right before it in the stream's order (``PendingChange/nextStart``,
    /// ``continuingMessage(at:seamColumns:)``): no message is skipped for a post; in scroll mode,
    /// and for tapes built from plain strings, they are the starts of the old tape's cycles and the
    /// new tape starts at its cell 0 (docs/rendering.md §6). Only viewers whose text scrolls
    /// matter, so `seamColumns` is capped at the old content's width − 1; nil means every such
    /// viewer. A caller passing a narrower `seamColumns` than its widest scrolling viewer shortens
    /// the wait at the price of a visible jump for that viewer (the daemon passes the widest
    /// declared viewer).
    ///
    /// Viewers for whom the old content fits do not wait for the seam when the new content fits
    /// them too: they show it still from `t` (``PendingChange/changedAt``), as nothing moves.
    ///
    /// The change happens at once, restarting at home (with the start delay), when `urgent` is
    /// true, in bounce, static and pages mode, when no viewer scrolls the old text (the seam
    /// width is 0), when the old motion never reaches the seam (its loops end first), or when a
    /// previous change is already entering the view.
    ///
    /// A phase-locked timeline (``isPhaseLocked``) ignores `seamColumns` and computes its seam
    /// from the content and `t` alone; the new tape stays epoch-anchored (blank cells, at most
    /// one message, keep a message cut by the seam out of view), and every change — at a seam or
    /// at once — ends in the new tape's canonical form (docs/rendering.md §13). Pass the change's
    /// scheduled instant as `t` when it has one, so every screen computes the same seam.
    public func applying(_ newTape: Tape, at t: Instant, urgent: Bool = false, seamColumns: Int? = nil) -> Timeline {
        var base = settled(at: t)
        if urgent || mode == .bounce || mode == .static || mode == .pages {
            return base.restarted(with: newTape, at: t)
        }
        let now = base.effectiveTime(t)
        if let pending = base.pending {
            guard !base.pendingChangeIsInView(at: t, seamColumns: seamColumns) else {
                return base.restarted(with: newTape, at: t)
            }
            let seam = pending.switchPosition
            if newTape == base.tape {
                base.pending = nil
            } else if isPhaseLocked {
                base.pending = base.phaseLockedChange(to: newTape, seam: seam, changedAt: now)
            } else {
                // The same switch; the stream continues there with the new tape's message.
                let byMessage = base.switchesByMessage(to: newTape)
                guard let index = base.messageIndex(atSeam: seam, byMessage: byMessage) else {
                    return base.restarted(with: newTape, at: t)
                }
                let nextStart = byMessage ? base.continuation(from: index, into: newTape) : 0
                base.pending = PendingChange(
                    tape: newTape, switchPosition: seam, nextStart: nextStart,
                    speed: base.speed(forWidth: newTape.width), changedAt: now)
            }
            return base
        }
        if newTape == base.tape { return base }
        let reach = base.seamReach(seamColumns)
        guard base.tape.width > 0, reach > 0 else { return base.restarted(with: newTape, at: t) }
        let cell = Timeline.split(base.motion.position(at: now)).cell
        if isPhaseLocked {
            let seam = base.phaseLockedSeam(to: newTape, cell: cell, reach: reach)
            base.pending = base.phaseLockedChange(to: newTape, seam: seam, changedAt: now)
        } else {
            let seam = base.messageSeam(to: newTape, cell: cell, reach: reach)
            base.pending = PendingChange(
                tape: newTape, switchPosition: seam.switchPosition, nextStart: seam.nextStart,
                speed: base.speed(forWidth: newTape.width), changedAt: now)
        }
        guard base.switchInstant != nil else { return base.restarted(with: newTape, at: t) }
        return base
    }

    /// The same timeline with a pending change folded in once it has fully taken effect at `t`
    /// (the switch reached, and for direction right the old tape out of every scrolling view):
    /// the new tape, anchored at the switch with position ``PendingChange/nextStart``. Frames are
    /// identical for every viewer narrower than the old content. Otherwise the timeline itself.
    /// A phase-locked timeline settles (at ``settleInstant``, lead-in out of view) into the new
    /// tape's canonical form, anchored at the epoch, whose frames it shows from then on.
    public func settled(at t: Instant) -> Timeline {
        guard let pending, let switchAt = switchInstant, let settleAt = settleInstant,
              effectiveTime(t) >= settleAt else { return self }
        var result = self
        result.tape = pending.tape
        result.speed = pending.speed
        result.pending = nil
        result.position = Double(pending.nextStart)
        result.anchor = mode == .scroll ? switchAt : switchAt - delay
        return isPhaseLocked ? result.canonical(with: pending.tape) : result
    }

    /// The timeline frozen at `t` (frames after `t` stay as at `t`); unchanged if already paused.
    public func paused(at t: Instant) -> Timeline {
        guard pausedAt == nil else { return self }
        var result = settled(at: t)
        result.pausedAt = t
        return result
    }

    /// The timeline moving again from `t`, continuing from the frozen position: the time origin
    /// moves on by the length of the pause. Unchanged if not paused. A phase-locked timeline
    /// moves on from where the wall clock puts it instead (every other screen's position).
    public func resumed(at t: Instant) -> Timeline {
        guard let pausedAt else { return self }
        var result = self
        if isPhaseLocked {
            // Anchored at the epoch: the stream is where it would have been (where every other
            // screen is), not where it froze.
            result.pausedAt = nil
            return result.settled(at: t)
        }
        result.anchor += max(0, t - pausedAt)
        if let changedAt = result.pending?.changedAt { result.pending?.changedAt = changedAt + max(0, t - pausedAt) }
        result.pausedAt = nil
        return result.settled(at: t)
    }

    /// The same settings with `newTape` starting at home at `t` (the start delay applies again);
    /// a paused timeline stays paused, at home. A phase-locked timeline takes `newTape`'s
    /// canonical form instead, anchored at the epoch, whatever `t`.
    public func restarted(with newTape: Tape, at t: Instant) -> Timeline {
        if isPhaseLocked {
            var result = canonical(with: newTape)
            if pausedAt != nil { result.pausedAt = t }
            return result
        }
        var result = self
        result.tape = newTape
        result.anchor = t
        result.position = 0
        result.speed = speed(forWidth: newTape.width)
        result.pending = nil
        if pausedAt != nil { result.pausedAt = t }
        return result
    }
}
