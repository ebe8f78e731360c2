extension Timeline {
    /// The timeline moving on from `t` with `settings`' speed, hold time and alignment, from where
    /// it is: the frame at `t` is the one this timeline gives there, for every width
    /// (docs/rendering.md §7 "A new speed, delay or alignment"). Only ``ChannelSettings/speed``,
    /// ``ChannelSettings/effectiveDelay`` and ``ChannelSettings/align`` are read; check with
    /// ``ChannelSettings/keepsMotion(of:)`` that the motion is otherwise the same.
    ///
    /// In continuous mode the stream goes on from its position at `t` (a start delay not yet over
    /// keeps the time already waited: the new delay counts from the same start; `loops` keep the
    /// cycles already made); in scroll mode the cycle under way goes on from the same point of its
    /// move, or of its hold (a hold already longer than the new one ends at `t`), and a pending
    /// change keeps its seam. Static and pages mode do not move at a speed, so only the fields
    /// change.
    ///
    /// Nil when a new speed or hold cannot go on from where the motion is: bounce mode (each
    /// viewer's move has its own length, so no one instant keeps every viewer's frame), a
    /// phase-locked timeline (its motion follows the wall clock, the same on every screen), a
    /// pending change that has already switched, and times too large to re-time. The caller then
    /// restarts the motion at home. The same speed and hold with another alignment is never nil:
    /// the motion does not change.
    public func retimed(to settings: ChannelSettings, at t: Instant) -> Timeline? {
        let newDelay = settings.effectiveDelay
        if hasSpeed(settings.speed), newDelay == delay {
            var result = self
            result.align = settings.align
            return result
        }
        guard !isPhaseLocked, mode != .bounce else { return nil }
        var result = settled(at: t)
        let now = result.effectiveTime(t)
        if let switchAt = result.switchInstant, switchAt <= now { return nil }
        let before = result.motion
        if case let .cycleDuration(duration) = settings.speed {
            result.cycleDuration = duration
        } else {
            result.cycleDuration = nil
        }
        result.speed = settings.speed.cellsPerSecond(forWidth: result.tape.width)
        result.delay = newDelay
        result.align = settings.align
        if var pending = result.pending {
            pending.speed = result.speed(forWidth: pending.tape.width)
            result.pending = pending
        }
        guard mode == .continuous || mode == .scroll else { return result }
        guard let origin = before.retimed(to: result.speed, delay: newDelay, at: now) else { return nil }
        result.anchor = origin.anchor
        result.position = origin.position
        // Rounding to whole µs moves the stream by at most speed · 1 µs (a hundredth of a cell at
        // the highest speed); anything more means the numbers were out of range.
        guard abs(result.motion.position(at: now) - before.position(at: now)) <= 0.01 else { return nil }
        return result
    }
}

extension Timeline {
    /// True when `speed` is the speed this timeline moves at: the same rate, or the same cycle.
    func hasSpeed(_ speed: Speed) -> Bool {
        switch speed {
        case let .cellsPerSecond(rate): return cycleDuration == nil && self.speed == rate
        case let .cycleDuration(duration): return cycleDuration == duration
        }
    }
}

extension StreamMotion {
    /// The anchor and position that carry this motion on at `newSpeed` with hold time `newDelay`
    /// from `now`, from the same stream position (continuous) or the same point of the same scroll
    /// cycle; nil when the instants needed do not fit in an `Instant`.
    func retimed(to newSpeed: Double, delay newDelay: Int64, at now: Instant) -> (anchor: Instant, position: Double)? {
        let elapsed = now &- anchor
        guard elapsed > 0, width > 0 else { return (anchor, position) }
        var next = self
        next.speed = newSpeed
        next.delay = newDelay
        if mode == .scroll {
            let period = delay + moveDuration
            let cycle = elapsed / period
            if loops > 0, cycle >= Int64(loops) {
                // Done: the hold for ever after the last cycle, with the new cycle length.
                let (span, overflow) = Int64(loops).multipliedReportingOverflow(by: newDelay + next.moveDuration)
                guard !overflow, span <= Int64.max / 4 else { return nil }
                return (now - span, position)
            }
            let inCycle = elapsed - cycle * period
            // Into the new cycle: the time held so far (a hold already as long as the new one ends
            // now), or the same fraction of the new move.
            var into = min(inCycle, newDelay)
            if inCycle >= delay {
                let progress = Double(inCycle - delay) / Double(moveDuration)
                into = newDelay + min(next.moveDuration - 1, Int64((progress * Double(next.moveDuration)).rounded()))
            }
            if loops == 0 {
                // The cycle under way becomes the first: its home is the new position.
                return (now - into, position + direction.sign * Double(width) * Double(cycle))
            }
            let (span, overflow) = cycle.multipliedReportingOverflow(by: newDelay + next.moveDuration)
            guard !overflow, span <= Int64.max / 4 else { return nil }
            return (now - span - into, position)
        }
        if elapsed <= delay {
            // Still in the start delay: the wait so far counts towards the new one, and a new one
            // already over starts the motion now.
            return elapsed <= newDelay ? (anchor, position) : (now - newDelay, position)
        }
        if loops == 0 { return (now - newDelay, self.position(at: now)) }
        // Loops count from `position`: keep it, and move the anchor so that the distance made so
        // far took the new speed's time.
        let distance = abs(self.position(at: now) - position)
        // Rounded up, so that a motion that has made all its loops still stands at their end.
        let micros = (distance / newSpeed * Double(microsecondsPerSecond)).rounded(.up)
        guard micros.isFinite, micros < StreamMotion.longest else { return nil }
        return (now - newDelay - Int64(micros), position)
    }
}
