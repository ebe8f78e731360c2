extension Timeline {
    /// The first instant after `t` at which the text a viewer of `columns` cells sees may differ
    /// from the text at `t` (the sub-cell offset is ignored), or nil when it never changes.
    ///
    /// Never late: the text at the returned instant can still be the same (for instance when the
    /// stream moves over spaces, or at the end of a hold), but it never changes before it. Moving
    /// text changes when ⌊s⌋ changes; holds and still text change at the end of the hold, the
    /// page or the pending switch — or, for a viewer that shows a pending change still, at the
    /// instant the change was made. Nil while paused.
    public func nextChange(after t: Instant, columns: Int) -> Instant? {
        guard pausedAt == nil else { return nil }
        if isPhaseLocked, pending != nil {
            // Frames follow the canonical form from the settle instant on (docs/rendering.md §13).
            let settledView = settled(at: t)
            if settledView.pending == nil { return settledView.nextChange(after: t, columns: columns) }
            let unsettled = unsettledNextChange(after: t, columns: columns)
            guard let settleAt = settleInstant else { return unsettled }
            return min(unsettled ?? settleAt, settleAt)
        }
        return unsettledNextChange(after: t, columns: columns)
    }

    /// ``nextChange(after:columns:)`` of this timeline as it is, pending change and all.
    func unsettledNextChange(after t: Instant, columns: Int) -> Instant? {
        let c = max(0, columns)
        let soonest = nextViewedTapeChange(columns: c, after: t)
        let current = viewedTape(columns: c, at: t)
        var candidate: Instant?
        switch mode {
        case .static:
            candidate = nil
        case .pages:
            candidate = nextPage(current, columns: c, after: t)
        case .continuous, .scroll, .bounce:
            if current.contentWidth <= c {
                candidate = nil
            } else if mode == .bounce {
                let motion = bounceMotion(for: current, columns: c)
                candidate = ChangeSearch(position: motion.position(at:), phase: motion.phase(at:))
                    .firstChange(after: t)
            } else if pending == nil {
                // The stream is the motion alone: the search captures it, not the whole timeline.
                let motion = self.motion
                candidate = ChangeSearch(position: motion.position(at:), phase: motion.phase(at:))
                    .firstChange(after: t)
            } else {
                candidate = ChangeSearch(position: { self.streamState(at: $0).position }, phase: streamPhase(at:))
                    .firstChange(after: t)
            }
        }
        switch (soonest, candidate) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b): return b
        }
    }

    /// Pages mode: the end of the page shown at `t`, or nil when the page never changes.
    func nextPage(_ tape: Tape, columns: Int, after t: Instant) -> Instant? {
        guard columns > 0 else { return nil }
        let layout = tape.pageLayout(columns: columns)
        guard layout.pages.count > 1 else { return nil }
        let elapsed = t &- anchor
        if elapsed < 0 { return anchor + layout.duration(ofPage: 0) }
        let total = layout.cycleDuration
        let cycles = elapsed / total
        if loops > 0, cycles >= Int64(loops) { return nil }
        let cycleStart = anchor + cycles * total
        return cycleStart + layout.ends[layout.page(atCycleOffset: elapsed - cycles * total)]
    }
}
