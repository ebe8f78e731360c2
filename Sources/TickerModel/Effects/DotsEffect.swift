/// The jumping-dots busy ellipsis of a message ending in `...` (DESIGN §4 "Effects", `dots`).
///
/// Dot i (0, 1, 2) jumps once per ``period``, ``stagger`` × i after dot 0; a jump lasts
/// ``upPhase`` (28% of the period) and the dot rests for the rest of the period — the keyframes
/// 0% → 0, 14% → 1, 28% → 0, 100% → 0. The jump is a parabola, h(u) = 4u(1 − u) for
/// u = (time into the jump) / ``upPhase``: it rises easing out, tops at u = ½ and falls easing in,
/// like a thrown ball. Height 1 is a quarter of the line. Jump k of dot i starts at
/// `start + k · period + i · stagger` (k ≥ 0); a dot is *raised* — shown as `˙` in text-only frames
/// — while it is more than half way up, `8τ(up − τ) > up²` for τ microseconds into the jump.
///
/// Stopping at instant P is graceful: the wave under way at P (k = ⌊(P − start) / period⌋) is
/// finished — each dot completes its jump of that wave, even one that had not begun at P — and no
/// further wave starts. ``settledAt`` is when the last dot lands; from then on the text is static.
public struct DotsEffect: Sendable, Hashable {
    /// One wave of the three dots, in microseconds (1.15 s).
    public static let period: Int64 = 1_150_000
    /// Delay of each dot after the one before it (0.15 s).
    public static let stagger: Int64 = 150_000
    /// Length of one jump: 28% of the period (0.322 s).
    public static let upPhase: Int64 = 322_000
    /// Number of dots.
    public static let dotCount = 3
    /// The character a raised dot shows as in text-only frames: U+02D9 DOT ABOVE (one cell).
    public static let raisedDot: Character = "\u{02D9}"

    /// When the first wave begins (the message's start).
    public let start: Instant
    /// When a graceful stop was asked for, if it was.
    public let stop: Instant?

    /// Dots that jump from `start` until stopped.
    public init(start: Instant) {
        self.start = start
        self.stop = nil
    }

    private init(start: Instant, stop: Instant?) {
        self.start = start
        self.stop = stop
    }

    /// Throws ``EffectError/missingEllipsis`` unless `text` ends with three full stops (the
    /// check for `effect = "dots"` at Post).
    public static func validate(_ text: String) throws(EffectError) {
        guard text.hasSuffix("...") else { throw .missingEllipsis }
    }

    /// The same dots stopping gracefully at `t` (an earlier stop is kept).
    public func stopping(at t: Instant) -> DotsEffect {
        DotsEffect(start: start, stop: min(stop ?? t, t))
    }

    /// The last wave that runs: nil for ever, −1 when stopped before the first.
    var lastWave: Int64? {
        guard let stop else { return nil }
        return stop < start ? -1 : (stop - start) / DotsEffect.period
    }

    /// When the text goes static after a stop: the later of the stop and the landing of the last
    /// dot of the last wave. Nil while the dots run.
    public var settledAt: Instant? {
        guard let stop, let lastWave else { return nil }
        guard lastWave >= 0 else { return stop }
        let landing = start + lastWave * DotsEffect.period
            + Int64(DotsEffect.dotCount - 1) * DotsEffect.stagger + DotsEffect.upPhase
        return max(stop, landing)
    }

    /// Microseconds into the jump of dot `dot` at `t`, or nil while it rests.
    func timeIntoJump(ofDot dot: Int, at t: Instant) -> Int64? {
        let sinceFirst = t &- start &- Int64(dot) * DotsEffect.stagger
        guard sinceFirst >= 0 else { return nil }
        let wave = sinceFirst / DotsEffect.period
        if let lastWave, wave > lastWave { return nil }
        let tau = sinceFirst - wave * DotsEffect.period
        return tau < DotsEffect.upPhase ? tau : nil
    }

    /// Height of dot `dot` (0, 1 or 2) at `t`, from 0 (resting) to 1 (a quarter of the line up).
    public func height(ofDot dot: Int, at t: Instant) -> Double {
        guard let tau = timeIntoJump(ofDot: dot, at: t) else { return 0 }
        let u = Double(tau) / Double(DotsEffect.upPhase)
        return 4 * u * (1 - u)
    }

    /// The heights of the three dots at `t` (`extras["dots"]`).
    public func heights(at t: Instant) -> [Double] {
        (0..<DotsEffect.dotCount).map { height(ofDot: $0, at: t) }
    }

    /// True while dot `dot` is more than half way up at `t` (shown as `˙`).
    public func isRaised(dot: Int, at t: Instant) -> Bool {
        guard let tau = timeIntoJump(ofDot: dot, at: t) else { return false }
        return DotsEffect.isRaised(tau)
    }

    /// True while any dot is in the air at `t` (its height changes continuously).
    public func isJumping(at t: Instant) -> Bool {
        (0..<DotsEffect.dotCount).contains { timeIntoJump(ofDot: $0, at: t) != nil }
    }

    /// Exact test of "more than half way up" τ microseconds into a jump.
    static func isRaised(_ tau: Int64) -> Bool {
        let up = DotsEffect.upPhase
        return tau >= 0 && tau < up && 8 * tau * (up - tau) > up * up
    }

    /// The first and the last microsecond of a jump at which the dot is raised.
    static let raisedSpan: (first: Int64, last: Int64) = {
        let up = Double(DotsEffect.upPhase)
        var first = Int64((up * (1 - 0.5.squareRoot()) / 2).rounded(.down))
        while first > 0, isRaised(first - 1) { first -= 1 }
        while !isRaised(first) { first += 1 }
        var last = Int64((up * (1 + 0.5.squareRoot()) / 2).rounded(.down))
        while !isRaised(last) { last -= 1 }
        while isRaised(last + 1) { last += 1 }
        return (first, last)
    }()

    /// The first instant after `t` at which a dot is raised or lowered (the text changes), or nil
    /// when that never happens again.
    public func nextChange(after t: Instant) -> Instant? {
        let span = DotsEffect.raisedSpan
        return nextEvent(after: t, offsets: [span.first, span.last + 1])
    }

    /// The first instant after `t` at which a dot starts or ends a jump, or nil if none.
    public func nextJumpEdge(after t: Instant) -> Instant? {
        nextEvent(after: t, offsets: [0, DotsEffect.upPhase])
    }

    /// The first instant after `t` of the form (start of an allowed jump) + one of `offsets`.
    private func nextEvent(after t: Instant, offsets: [Int64]) -> Instant? {
        var best: Instant?
        for dot in 0..<DotsEffect.dotCount {
            let first = start &+ Int64(dot) * DotsEffect.stagger
            let wave = max(0, (t &- first).floorDivided(by: DotsEffect.period))
            for k in wave...(wave + 1) {
                if let lastWave, k > lastWave { break }
                for offset in offsets {
                    let instant = first + k * DotsEffect.period + offset
                    if instant > t, instant < (best ?? .max) { best = instant }
                }
            }
        }
        return best
    }
}

extension Int64 {
    /// Floored division (rounds towards −∞) by a positive divisor.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
