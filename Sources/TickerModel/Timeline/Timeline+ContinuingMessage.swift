extension Timeline {
    /// The key of the message the stream continues with after the boundary that a content change
    /// applied at `t` (not urgent, for viewers of at most `seamColumns` cells,
    /// ``applying(_:at:urgent:seamColumns:)``) switches at, when that change posts nothing
    /// (docs/rendering.md §6): the old message whose start (direction left) or end (direction
    /// right) is that boundary. While an earlier change is pending and its switch is still out of
    /// such a view, the first message of the pending tape, from ``PendingChange/nextStart`` on in
    /// the stream's order, that was on the old tape (past the messages that change posts; the one
    /// at `nextStart` when it posts them all). Nil when such a change would not switch at a
    /// message boundary: outside continuous mode, on a phase-locked timeline, for a tape not built
    /// from messages, when no such viewer scrolls (the seam reach is 0), or when a pending change
    /// is already entering the view.
    ///
    /// A message posted right before it in tape order (direction left), or right after it
    /// (direction right: the stream reads the tape backwards), with nothing but posts between,
    /// comes at that boundary, and the stream then continues with this message: nothing is
    /// skipped.
    public func continuingMessage(at t: Instant, seamColumns: Int? = nil) -> String? {
        let base = settled(at: t)
        guard mode == .continuous, !isPhaseLocked, let messages = base.tape.layout?.messages, !messages.isEmpty else {
            return nil
        }
        if let pending = base.pending {
            guard !base.pendingChangeIsInView(at: t, seamColumns: seamColumns), pending.tape.width > 0,
                  let spans = pending.tape.layout?.messages, !spans.isEmpty else { return nil }
            let width = pending.tape.width
            guard let first = spans.firstIndex(where: { span in
                direction == .left ? span.cells.lowerBound == pending.nextStart
                    : span.cells.upperBound.floorMod(width) == pending.nextStart
            }) else { return nil }
            // Past the messages the pending change posts, to the first one the stream showed before.
            let old = Set(messages.map(\.key))
            let step = direction == .left ? 1 : -1
            let order = (0..<spans.count).lazy.map { spans[(first + step * $0).floorMod(spans.count)].key }
            return order.first(where: old.contains) ?? spans[first].key
        }
        let reach = base.seamReach(seamColumns)
        guard base.tape.width > 0, reach > 0 else { return nil }
        let cell = Timeline.split(base.motion.position(at: base.effectiveTime(t))).cell
        let seam = base.seamPosition(in: base.boundaries(byMessage: true).map(\.cell), cell: cell, reach: reach)
        return base.messageIndex(atSeam: seam).map { messages[$0].key }
    }
}
