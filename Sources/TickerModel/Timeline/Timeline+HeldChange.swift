extension Timeline {
    /// Whether a content change applied at `t` would find a pending change already entering the
    /// view of a viewer of at most `seamColumns` cells (its switch visible, or passed but not yet
    /// settled), so that ``applying(_:at:urgent:seamColumns:)`` could only restart at home — a
    /// jump. A caller that holds the new tape back until ``settleInstant`` and applies it then
    /// keeps every frame seamless: the held change then takes the next message boundary of the
    /// new stream, at most `seamColumns` cells of motion later.
    ///
    /// `narrowestViewer`, the narrowest declared viewer: when the current content fits it, every
    /// declared viewer shows that content still until the switch, so a change that has not
    /// switched is in nobody's view yet (ignored when phase-locked: any screen may be narrower).
    public func pendingChangeIsInView(at t: Instant, seamColumns: Int? = nil, narrowestViewer: Int? = nil) -> Bool {
        let base = settled(at: t)
        guard let pending = base.pending, mode == .continuous || mode == .scroll else { return false }
        let now = base.effectiveTime(t)
        guard let switchAt = base.switchInstant, now < switchAt else { return true }
        if !isPhaseLocked, let narrowestViewer, narrowestViewer >= base.tape.contentWidth { return false }
        let reach = base.seamReach(seamColumns)
        let cell = Timeline.split(base.motion.position(at: now)).cell
        let seam = pending.switchPosition
        let invisible = direction == .left ? cell + max(reach, 0) <= seam : cell >= seam
        return !invisible
    }
}
