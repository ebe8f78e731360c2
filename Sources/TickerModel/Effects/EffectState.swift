/// A channel's effects at large: its counters and the effects of its messages by message key.
/// Frames take it with the instant (``Timeline/frame(columns:at:effects:)``); changing it never
/// changes the timeline, and only counter layout changes need a new tape.
public struct EffectState: Sendable, Hashable {
    /// The channel's named values.
    public var counters: CounterSet
    /// Effects by message key (``TapeMessage/key``).
    public var messages: [String: MessageEffect]

    /// Creates a state.
    public init(counters: CounterSet = CounterSet(), messages: [String: MessageEffect] = [:]) {
        self.counters = counters
        self.messages = messages
    }

    /// No counters and no effects.
    public static let none = EffectState()

    /// The state as a viewer of `columns` cells sees it: each reveal from that viewer's start
    /// (``RevealEffect/forViewer(columns:)``). The same state when no reveal has a still start.
    public func forViewer(columns: Int) -> EffectState {
        guard messages.values.contains(where: { if case let .reveal(reveal) = $0 { reveal.still != nil } else { false } })
        else { return self }
        var result = self
        for (key, effect) in messages {
            if case let .reveal(reveal) = effect { result.messages[key] = .reveal(reveal.forViewer(columns: columns)) }
        }
        return result
    }

    /// The earliest instant after `t` at which a count ends (signal `ValueReached`, rebuild the
    /// tape), a reveal completes or stopped dots settle (drop the effect): when the daemon next
    /// needs to act on its own. Nil when nothing is due.
    public func nextMilestone(after t: Instant) -> Instant? {
        let effectEnds = messages.values.lazy.compactMap(\.finishedAt).filter { $0 > t }.min()
        switch (counters.nextEnd(after: t), effectEnds) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b): return b
        }
    }

    /// The same state without the message effects that have finished by `t` (complete reveals,
    /// settled dots): frames are unchanged, and the frame path without effects is used again.
    public func pruned(at t: Instant) -> EffectState {
        var result = self
        result.messages = messages.filter { _, effect in
            guard let finished = effect.finishedAt else { return true }
            return finished > t
        }
        return result
    }
}
