extension RevealEffect {
    /// The reveal of a message that joins `timeline`'s tape at `t` (after ``Timeline/applying(_:at:urgent:seamColumns:)``),
    /// lasting `duration`: it starts when the message comes into view (docs/rendering.md §11.4).
    /// With no change pending, at `t`. While the change waits for its seam, at the switch for
    /// viewers whose text scrolls, and at `t` for viewers that show the change still — those for
    /// whom the old and the new content both fit, who see the new content from the change on (§6).
    public static func entering(_ timeline: Timeline, at t: Instant, duration: Int64) throws(EffectError) -> RevealEffect {
        guard let pending = timeline.pending, let switchAt = timeline.switchInstant, switchAt > t else {
            return try RevealEffect(start: t, duration: duration)
        }
        let columns = max(timeline.tape.contentWidth, pending.tape.contentWidth)
        return try RevealEffect(start: switchAt, duration: duration, still: StillStart(start: t, columns: columns))
    }

    /// The reveal after a later change at `t` left `timeline` as it is, when the reveal's message
    /// was still waiting for the seam (``start`` after `t`): with a change still pending (it
    /// replaced the earlier one, same switch) only viewers for whom the new pending content fits
    /// too keep the still start — the others go back to the old text until the switch (§6); when
    /// the change switched at once, the message is in view from `t`. Other reveals are unchanged.
    public func after(change timeline: Timeline, at t: Instant) -> RevealEffect {
        guard start > t else { return self }
        guard let pending = timeline.pending else {
            return (try? RevealEffect(start: t, duration: duration, still: still)) ?? self
        }
        return requiringStill(columns: pending.tape.contentWidth)
    }
}
