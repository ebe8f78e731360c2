extension Timeline {
    /// When message `key` of the pending tape reaches the place where the stream switches, for a
    /// viewer whose text scrolls: the instant the motion after the switch has carried the stream
    /// from the switch position by the distance, in the new tape, from cell `nextStart` to the
    /// message's start (direction left) or from the message's end to `nextStart` (direction right).
    /// So the message the stream continues with meets it at the switch itself, and a message
    /// further on when it gets there (docs/rendering.md §11.4). The switch instant in scroll mode,
    /// when the message is not in the pending tape, or when the motion never gets there; nil when
    /// nothing is pending.
    func entryInstant(ofMessage key: String) -> Instant? {
        guard let pending, let switchAt = switchInstant else { return nil }
        let width = pending.tape.width
        guard mode == .continuous, width > 0,
              let span = pending.tape.layout?.messages.first(where: { $0.key == key }) else { return switchAt }
        let distance = direction == .left
            ? (span.cells.lowerBound - pending.nextStart).floorMod(width)
            : (pending.nextStart - span.cells.upperBound).floorMod(width)
        guard distance > 0 else { return switchAt }
        let target = pending.switchPosition + (direction == .left ? distance : -distance)
        return nextMotion(pending, switchAt: switchAt).arrival(at: target) ?? switchAt
    }
}
