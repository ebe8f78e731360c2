/// The effect of one message (Post option `effect s`): `reveal` or `dots`.
public enum MessageEffect: Sendable, Hashable {
    /// Typewriter entrance.
    case reveal(RevealEffect)
    /// Jumping dots on the trailing `...`.
    case dots(DotsEffect)

    /// The effect as a graceful stop at `t` asks: dots finish their wave; a reveal is unchanged
    /// (it ends by itself).
    public func stopping(at t: Instant) -> MessageEffect {
        switch self {
        case .reveal: return self
        case let .dots(dots): return .dots(dots.stopping(at: t))
        }
    }

    /// From when on the effect no longer changes what is shown (and the daemon may drop it):
    /// the reveal's end, the dots' settling; nil while the dots run.
    public var finishedAt: Instant? {
        switch self {
        case let .reveal(reveal): return reveal.endInstant
        case let .dots(dots): return dots.settledAt
        }
    }
}
