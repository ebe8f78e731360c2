extension Timeline {
    /// The same motion with its tapes replaced by tapes of the same text and gap that also carry
    /// a layout (message spans and counter fields). `Timeline(fields:)` — the published form, as
    /// the daemon stores it — keeps only the text; this puts the layout back after a restart so
    /// effects apply again, with every frame's position unchanged. A nil argument keeps that tape
    /// as it is. Nil when a replacement's text or gap differs from the tape it replaces.
    public func relaid(tape newTape: Tape?, pending newPending: Tape?) -> Timeline? {
        var copy = self
        if let newTape {
            guard newTape.text == tape.text, newTape.gap == tape.gap else { return nil }
            copy.tape = newTape
        }
        if let newPending {
            guard let pending, newPending.text == pending.tape.text, newPending.gap == pending.tape.gap else {
                return nil
            }
            copy.pending?.tape = newPending
        }
        return copy
    }
}
