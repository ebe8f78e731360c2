/// One named value of a channel, counting from ``from`` to ``to`` as a pure function of time
/// (DESIGN §4 "Effects", counters).
///
/// From ``start`` the value moves over ``duration`` microseconds along ``easing``:
/// `value(t) = from + (to − from) · easing((t − start) / duration)`, `from` before the start and
/// exactly `to` from ``endInstant`` on. A duration of 0 jumps at the start. Every curve of the model
/// stays within [0, 1], and the value is clamped to the range between `from` and `to` as well, so
/// the widest number of the count is the wider of the two ends: that is ``countingWidth``, the
/// width of the number's field while the count runs, so the tape does not change width.
public struct Counter: Sendable, Hashable {
    /// The largest magnitude a counter value may have.
    public static let maxMagnitude = 1.0e12

    /// The value at ``start``.
    public let from: Double
    /// The value from ``endInstant`` on.
    public let to: Double
    /// When the count begins.
    public let start: Instant
    /// How long the count takes, in microseconds (0 jumps).
    public let duration: Int64
    /// The curve of the count.
    public let easing: Easing
    /// How the value is written.
    public let format: NumberFormat

    /// A count from `from` to `to` starting at `start`; throws for values that are not finite or
    /// beyond ±``maxMagnitude`` and for a negative duration.
    public init(
        from: Double, to: Double, start: Instant, duration: Int64 = 0, easing: Easing = .linear,
        format: NumberFormat = .plain
    ) throws(EffectError) {
        // The value first: a new counter without `from` starts at it, and its error names what
        // the caller gave.
        try Counter.check(to, option: "value")
        try Counter.check(from, option: "from")
        guard duration >= 0 else { throw .negativeDuration(option: "duration", value: duration) }
        self.from = from
        self.to = to
        self.start = start
        self.duration = duration
        self.easing = easing
        self.format = format
    }

    /// A value that is simply `value` (no count).
    public init(value: Double, at t: Instant, format: NumberFormat = .plain) throws(EffectError) {
        try self.init(from: value, to: value, start: t, format: format)
    }

    /// When the count reaches ``to`` (the instant to signal `ValueReached`).
    public var endInstant: Instant { start &+ duration }

    /// The value at `t`.
    public func value(at t: Instant) -> Double {
        if t >= endInstant { return to }
        if t <= start { return from }
        let progress = easing(Double(t - start) / Double(duration))
        let value = from + (to - from) * progress
        return min(max(value, min(from, to)), max(from, to))
    }

    /// True while the count is under way at `t` (from its start, up to but not including its end).
    public func isCounting(at t: Instant) -> Bool {
        t < endInstant && from != to
    }

    /// The number of `t` as written (no prefix or suffix).
    public func number(at t: Instant) -> String {
        format.number(value(at: t))
    }

    /// Prefix, number and suffix at `t`, unpadded (for the channel's `Text` property).
    public func text(at t: Instant) -> String {
        format.text(value(at: t))
    }

    /// Width of the number's field while the count runs: the wider of the two ends.
    public var countingWidth: Int {
        max(format.width(from), format.width(to))
    }

    /// Width of the number's field for a tape built at `t`: ``countingWidth`` while counting, the
    /// width of ``to`` once the count has ended.
    public func fieldWidth(at t: Instant) -> Int {
        isCounting(at: t) ? countingWidth : format.width(to)
    }

    /// A new count to `value` from `t`: it starts from the value shown at `t` (no jump back), or
    /// from `from` when given, over `duration` with `easing`; `format` replaces the format when given.
    public func counting(
        to value: Double, at t: Instant, duration: Int64 = 0, easing: Easing = .linear,
        from: Double? = nil, format: NumberFormat? = nil
    ) throws(EffectError) -> Counter {
        try Counter(
            from: from ?? self.value(at: t), to: value, start: t, duration: duration, easing: easing,
            format: format ?? self.format)
    }

    /// The first instant after `t` at which the written number differs from the one at `t`, or nil
    /// when it does not change any more. Exact to the microsecond: the count is cut into pieces on
    /// which the curve is monotonic, and each is bisected.
    public func nextChange(after t: Instant) -> Instant? {
        guard t < endInstant, from != to else { return nil }
        let original = format.key(value(at: t))
        let keyAt = { (instant: Instant) in self.format.key(self.value(at: instant)) }
        var low = max(t, start)
        for breakpoint in easing.monotonicPieceEnds {
            let high = breakpoint >= 1 ? endInstant : start + Int64((Double(duration) * breakpoint).rounded(.down))
            guard high > low else { continue }
            // The instants low + 1 … high lie on one monotonic piece of the curve (low itself may
            // lie on the piece before), so once the key at low + 1 equals the original, "differs"
            // is false then true along the piece, and bisection finds the first change.
            if keyAt(low + 1) != original { return low + 1 }
            if keyAt(high) != original {
                var a = low + 1
                var b = high
                while b - a > 1 {
                    let mid = a + (b - a) / 2
                    if keyAt(mid) != original { b = mid } else { a = mid }
                }
                return b
            }
            low = high
        }
        return nil
    }

    static func check(_ value: Double, option: String) throws(EffectError) {
        guard value.isFinite, value.magnitude <= maxMagnitude else {
            throw .valueOutOfRange(option: option, value: value)
        }
    }
}
