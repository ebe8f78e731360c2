extension Timeline {
    /// The instant frames are computed for: `t`, or the pause instant when paused before `t`.
    func effectiveTime(_ t: Instant) -> Instant {
        guard let pausedAt else { return t }
        return min(t, pausedAt)
    }

    /// The motion of the current tape (continuous and scroll mode).
    var motion: StreamMotion {
        StreamMotion(
            mode: mode, anchor: anchor, position: position, speed: speed, delay: delay,
            easing: easing, loops: loops, direction: direction, width: tape.width)
    }

    /// The instant the current motion arrives at the pending switch position (the switch), if any.
    public var switchInstant: Instant? {
        guard let pending else { return nil }
        return motion.arrival(at: pending.switchPosition)
    }

    /// The motion after the switch: the new tape from the switch position, as if it started there
    /// (continuous mode has no start delay at a seam). Phase-locked (docs/rendering.md §13): in
    /// continuous mode when the stream keeps its speed, the current motion itself (one function
    /// of time across the change); in scroll mode the new tape holds at the switch until the
    /// first instant at or after it that starts one of the new tape's epoch-aligned cycles.
    func nextMotion(_ pending: PendingChange, switchAt: Instant) -> StreamMotion {
        var next = StreamMotion(
            mode: mode, anchor: mode == .scroll ? switchAt : switchAt - delay,
            position: Double(pending.switchPosition), speed: pending.speed, delay: delay,
            easing: easing, loops: loops, direction: direction, width: pending.tape.width)
        guard isPhaseLocked else { return next }
        if mode == .continuous, pending.speed == speed {
            next.anchor = anchor
            next.position = position
        } else if mode == .scroll {
            next.anchor = Timeline.epochCycleStart(atOrAfter: switchAt, period: delay + next.moveDuration)
        }
        return next
    }

    /// The instant from which no viewer narrower than the old content can see the old tape, so the
    /// pending change can be folded into a plain timeline (``settled(at:)``, on the timeline's
    /// clock: a pause moves it on); nil if that never happens or nothing is pending. Phase-locked,
    /// the lead-in must be out of view too, and in scroll mode the new tape's cycles under way.
    public var settleInstant: Instant? {
        guard let pending, let switchAt = switchInstant else { return nil }
        let next = nextMotion(pending, switchAt: switchAt)
        if direction == .left {
            guard isPhaseLocked else { return switchAt }
            if mode == .scroll { return max(switchAt, next.anchor) }
            return pending.leadIn > 0 ? next.arrival(at: pending.switchPosition + pending.leadIn) : switchAt
        }
        let reach = max(0, tape.contentWidth - 1) + pending.leadIn
        if mode == .scroll {
            let step = max(1, pending.tape.width)
            let cycles = (reach + step - 1) / step
            return next.arrival(at: pending.switchPosition - cycles * step)
        }
        return next.arrival(at: pending.switchPosition - reach)
    }

    /// Where the stream is at (effective) instant `t`, and which tape is current there.
    struct StreamState {
        /// Stream position.
        var position: Double
        /// The tape in effect at t (the pending tape once the switch instant is reached).
        var current: Tape
        /// Stream cell of the current tape's cell 0 (after the switch: the switch position less
        /// the new tape's cell there; else 0).
        var origin: Int
    }

    /// The stream position and current tape at effective instant `t`.
    @inline(__always)
    func streamState(at t: Instant) -> StreamState {
        if let pending, let switchAt = switchInstant, t >= switchAt {
            return StreamState(
                position: nextMotion(pending, switchAt: switchAt).position(at: t),
                current: pending.tape, origin: pending.switchPosition - pending.nextStart)
        }
        return StreamState(position: motion.position(at: t), current: tape, origin: 0)
    }

    /// The stream's hold or move containing effective instant `t`, cut at the switch.
    func streamPhase(at t: Instant) -> MotionPhase {
        guard let pending, let switchAt = switchInstant else { return motion.phase(at: t) }
        if t >= switchAt { return nextMotion(pending, switchAt: switchAt).phase(at: t) }
        switch motion.phase(at: t) {
        case let .hold(until):
            return .hold(until: min(until ?? switchAt, switchAt))
        case let .move(until, monotonic):
            return .move(until: min(until ?? switchAt, switchAt), monotonic: monotonic)
        }
    }

    /// The tape in effect at effective instant `t` (for the "fits" rule and still modes).
    @inline(__always)
    func currentTape(at t: Instant) -> Tape {
        if let pending, let switchAt = switchInstant, t >= switchAt { return pending.tape }
        return tape
    }

    /// The tape whose content a viewer of `columns` cells sees at effective instant `t`: the
    /// current tape (``currentTape(at:)``), except that while a change is pending a viewer for whom
    /// both the old and the new content fit — still text, nothing moves, no seam to keep — sees
    /// the new tape from the instant the change was made (docs/rendering.md §4, §6).
    @inline(__always)
    func viewedTape(columns: Int, at t: Instant) -> Tape {
        guard let pending, let switchAt = switchInstant, t < switchAt else { return currentTape(at: t) }
        if let changedAt = pending.changedAt, t >= changedAt, showsChangeStill(pending, columns: columns) {
            return pending.tape
        }
        return tape
    }

    /// The first instant after effective instant `t` at which ``viewedTape(columns:at:)`` changes
    /// for a viewer of `columns` cells (the change instant or the switch), or nil.
    func nextViewedTapeChange(columns: Int, after t: Instant) -> Instant? {
        guard let pending, let switchAt = switchInstant, t < switchAt else { return nil }
        if let changedAt = pending.changedAt, showsChangeStill(pending, columns: columns) {
            return t < changedAt ? changedAt : nil
        }
        return switchAt
    }

    /// True when a viewer of `columns` cells sees both the old content and `pending`'s still, so it
    /// shows the change from the instant it was made rather than at the switch.
    func showsChangeStill(_ pending: PendingChange, columns: Int) -> Bool {
        tape.contentWidth <= columns && pending.tape.contentWidth <= columns
    }

    /// Splits a position into its cell index ⌊s⌋ and the offset s − ⌊s⌋ ∈ [0, 1).
    static func split(_ s: Double) -> (cell: Int, offset: Double) {
        let floor = s.rounded(.down)
        guard floor.isFinite, floor.magnitude < 9e15 else { return (0, 0) }
        var cell = Int(floor)
        var offset = s - floor
        if offset >= 1 {
            cell += 1
            offset = 0
        }
        return (cell, max(0, offset))
    }
}
