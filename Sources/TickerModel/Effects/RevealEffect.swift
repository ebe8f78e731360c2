/// A typewriter entrance (DESIGN §4 "Effects", `reveal`): from ``start`` the message's clusters
/// appear in order over ``duration``.
///
/// Progress p(t) = clamp((t − start) / duration, 0, 1). Of a message of n clusters, the first
/// ⌊(t − start) · n / duration⌋ (clamped to 0…n, computed exactly in integers) are shown; the others
/// show as spaces, one per cell, so the width never changes. Pixel clients get p as
/// `extras["reveal"]` and, per word of the message, `extras["reveal-words"]`: the stroke label
/// this comes from strokes every word at once over the whole duration, so each word's progress
/// is p (the array's length tells the client how many words there are).
///
/// A message that waits for a seam comes into view at different instants for different viewers
/// (docs/rendering.md §6, §11.4): scrolling viewers see it at the switch (``start``), viewers for
/// whom the old and the new content both fit see it still from the change (``still``). Such a
/// reveal carries both starts, and ``forViewer(columns:)`` picks a viewer's.
public struct RevealEffect: Sendable, Hashable {
    /// When the reveal begins for a viewer whose text scrolls: when the message comes into view
    /// (its Post, or the switch when it waits for a seam).
    public let start: Instant
    /// How long it takes, in microseconds (> 0).
    public let duration: Int64
    /// The earlier start (never later than ``start``) of viewers of at least its `columns` cells,
    /// who show the message still from the instant of the change; nil when every viewer starts at
    /// ``start``.
    public let still: StillStart?

    /// The start of viewers that show a content change still (docs/rendering.md §11.4).
    public struct StillStart: Sendable, Hashable {
        /// The instant of the change (real time, as effects are): from it such viewers see the message.
        public let start: Instant
        /// The narrowest such viewer: the wider of the old and the new content at the change.
        public let columns: Int

        /// A still start at `start` for viewers of at least `columns` cells.
        public init(start: Instant, columns: Int) {
            self.start = start
            self.columns = max(0, columns)
        }
    }

    /// A reveal from `start` over `duration` (from `still.start` for viewers of at least
    /// `still.columns` cells); throws unless the duration is above 0. A still start later than
    /// `start` is taken as `start`.
    public init(start: Instant, duration: Int64, still: StillStart? = nil) throws(EffectError) {
        guard duration > 0 else { throw .durationNotPositive(option: "reveal", value: duration) }
        self.start = start
        self.duration = duration
        self.still = still.map { StillStart(start: min($0.start, start), columns: $0.columns) }
    }

    /// The reveal as a viewer of `columns` cells sees it: from ``StillStart/start`` when it is at
    /// least ``StillStart/columns`` wide, else from ``start``; with no still start either way.
    public func forViewer(columns: Int) -> RevealEffect {
        guard let still else { return self }
        let viewerStart = columns >= still.columns ? still.start : start
        // A duration above 0 was checked when self was made.
        return (try? RevealEffect(start: viewerStart, duration: duration)) ?? self
    }

    /// The same reveal whose still start also requires `columns` cells (a later change replacing
    /// the pending one: viewers narrower than its content no longer show the message still).
    public func requiringStill(columns: Int) -> RevealEffect {
        guard let still else { return self }
        return (try? RevealEffect(
            start: start, duration: duration, still: StillStart(start: still.start, columns: max(still.columns, columns))))
            ?? self
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
