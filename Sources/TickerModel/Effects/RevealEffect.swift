/// A typewriter entrance (DESIGN §4 "Effects", `reveal`): from ``start`` the message's clusters
/// appear in order over ``duration``.
///
/// Progress p(t) = clamp((t − start) / duration, 0, 1). Of a message of n clusters, the first
/// ⌊(t − start) · n / duration⌋ (clamped to 0…n, computed exactly in integers) are shown; the others
/// show as spaces, one per cell, so the width never changes. Pixel clients get p as
/// `extras["reveal"]` and, per word of the message, `extras["reveal-words"]`: the stroke label
/// this comes from strokes every word at once over the whole duration, so each word's progress
/// is p (the array's length tells the client how many words there are).
public struct RevealEffect: Sendable, Hashable {
    /// When the reveal begins (the message's start).
    public let start: Instant
    /// How long it takes, in microseconds (> 0).
    public let duration: Int64

    /// A reveal from `start` over `duration`; throws unless the duration is above 0.
    public init(start: Instant, duration: Int64) throws(EffectError) {
        guard duration > 0 else { throw .durationNotPositive(option: "reveal", value: duration) }
        self.start = start
        self.duration = duration
    }

    /// When the whole message is shown.
    public var endInstant: Instant { start &+ duration }

    /// Progress at `t`, in [0, 1].
    public func progress(at t: Instant) -> Double {
        Double(elapsed(at: t)) / Double(duration)
    }

    /// How many of a message's `clusters` clusters are shown at `t` (the first ones).
    public func revealedClusters(of clusters: Int, at t: Instant) -> Int {
        let n = Int64(max(0, clusters))
        let (product, overflow) = elapsed(at: t).multipliedReportingOverflow(by: n)
        if overflow { return Int((Double(elapsed(at: t)) * Double(n) / Double(duration)).rounded(.down)) }
        return Int(product / duration)
    }

    /// The first instant after `t` at which another cluster of a `clusters`-cluster message
    /// appears, or nil when all are shown.
    public func nextChange(after t: Instant, clusters: Int) -> Instant? {
        let shown = revealedClusters(of: clusters, at: t)
        guard clusters > 0, shown < clusters else { return nil }
        // Cluster `shown` appears at the first t' with (t' − start) · n ≥ (shown + 1) · duration.
        let n = Int64(clusters)
        let (product, overflow) = Int64(shown + 1).multipliedReportingOverflow(by: duration)
        let elapsed = overflow
            ? Int64((Double(shown + 1) * Double(duration) / Double(n)).rounded(.up))
            : (product + n - 1) / n
        return max(t + 1, start + elapsed)
    }

    /// Microseconds since the start, clamped to [0, duration].
    func elapsed(at t: Instant) -> Int64 {
        min(max(0, t &- start), duration)
    }
}
