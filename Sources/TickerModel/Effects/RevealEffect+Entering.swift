extension RevealEffect {
    /// The reveal of message `key` that joins `timeline`'s tape at `t` (after
    /// ``Timeline/applying(_:at:urgent:seamColumns:)``), lasting `duration`: it starts when the
    /// message comes into view (docs/rendering.md §11.4). With no change pending, at `t`. While the
    /// change waits for its seam: for viewers whose text scrolls, when the motion brings the message
    /// to the switch position — at the switch for the message the stream continues with there, later
    /// for one further on in the new tape; and at `t` for viewers that show the change still — those
    /// for whom the old and the new content both fit, who see the new content from the change on (§6).
    public static func entering(_ timeline: Timeline, message key: String, at t: Instant, duration: Int64) throws(EffectError) -> RevealEffect {
        guard let pending = timeline.pending, let switchAt = timeline.switchInstant, switchAt > t else {
            return try RevealEffect(start: t, duration: duration)
        }
        let columns = max(timeline.tape.contentWidth, pending.tape.contentWidth)
        let start = timeline.entryInstant(ofMessage: key) ?? switchAt
        return try RevealEffect(start: start, duration: duration, still: StillStart(start: t, columns: columns))
    }

    /// The reveal of message `key` after a later change at `t` left `timeline` as it is, when the
    /// message was still waiting to come into view (``start`` after `t`): with a change still
    /// pending, scrolling viewers meet the message when the motion brings it to the switch in the
    /// pending tape as it now is (``entering(_:message:at:duration:)``), and only viewers for whom
    /// the new pending content fits too keep the still start — the others go back to the old text
    /// until the switch (§6); when the change switched at once, the message is in view from `t`.
    /// Other reveals are unchanged.
    public func after(change timeline: Timeline, message key: String, at t: Instant) -> RevealEffect {
        guard start > t else { return self }
        guard let pending = timeline.pending else {
            return (try? RevealEffect(start: t, duration: duration, still: still)) ?? self
        }
        let entry = timeline.entryInstant(ofMessage: key) ?? start
        let moved = (try? RevealEffect(start: max(entry, t), duration: duration, still: still)) ?? self
        return moved.requiringStill(columns: pending.tape.contentWidth)
    }
}
