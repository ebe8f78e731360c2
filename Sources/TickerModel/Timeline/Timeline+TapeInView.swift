extension Timeline {
    /// The tape whose content a viewer of `columns` cells sees at `t` (the pause instant when
    /// paused before `t`): the old tape until the pending change reaches this viewer — at the
    /// switch, or from the change's instant when both contents fit it — then the new one.
    ///
    /// Panels use it for what the text shows now: a tooltip naming the messages on screen, and
    /// whether the view is empty (a tape with no content).
    public func tapeInView(columns: Int, at t: Instant) -> Tape {
        viewedTape(columns: max(0, columns), at: effectiveTime(t))
    }
}
