extension Tape {
    /// The cells where each message's text starts in the cycle, in tape order (the first is 0),
    /// for a tape built from ``TapeMessage``s; `[0]` for a tape built from plain strings (its only
    /// boundary is the start of the cycle). The boundaries at which a content change may switch
    /// to the new tape (docs/rendering.md §6).
    public var messageStarts: [Int] {
        guard let messages = layout?.messages, !messages.isEmpty else { return [0] }
        return messages.map(\.cells.lowerBound)
    }

    /// The cells where each message's text ends in the cycle (the first cell after it), in tape
    /// order, for a tape built from ``TapeMessage``s; `[0]` for a tape built from plain strings.
    /// The boundaries of a change in direction right (docs/rendering.md §6).
    public var messageEnds: [Int] {
        guard let messages = layout?.messages, !messages.isEmpty else { return [0] }
        return messages.map(\.cells.upperBound)
    }

    /// The message keys in tape order (nil for a tape built from plain strings).
    var messageKeys: [String]? {
        layout?.messages.map(\.key)
    }
}
