/// The motion of bounce mode for one viewer: the window travels the overflow (content width − c)
/// and back, holding `delay` at each end; moves use `easing`.
///
/// With T = overflow / speed (µs, rounded, ≥ 1) and P = 2·(delay + T), cycle k = ⌊(t − anchor) / P⌋
/// goes: hold at home for delay, move to the far end over T, hold for delay, move home over T.
/// Home is the start of the text for direction left and its end for direction right. After `loops`
/// cycles (when > 0) it holds at home for ever; before `anchor` it holds at home.
struct BounceMotion {
    var anchor: Instant
    var speed: Double
    var delay: Int64
    var easing: Easing
    var loops: UInt32
    var direction: Direction
    var overflow: Int

    var moveDuration: Int64 { StreamMotion.duration(cells: Double(overflow), speed: speed) }
    var period: Int64 { 2 * (delay + moveDuration) }

    /// Fraction of the overflow travelled from home, in [0, 1].
    func progress(at t: Instant) -> Double {
        let elapsed = t &- anchor
        guard elapsed >= 0 else { return 0 }
        let cycle = elapsed / period
        if loops > 0, cycle >= Int64(loops) { return 0 }
        let r = elapsed - cycle * period
        let move = moveDuration
        if r < delay { return 0 }
        if r < delay + move { return easing(Double(r - delay) / Double(move)) }
        if r < 2 * delay + move { return 1 }
        return 1 - easing(Double(r - 2 * delay - move) / Double(move))
    }

    /// The window's left edge, in content cells, at `t`.
    func position(at t: Instant) -> Double {
        let p = progress(at: t)
        return Double(overflow) * (direction == .left ? p : 1 - p)
    }

    /// The hold or move that contains `t`.
    func phase(at t: Instant) -> MotionPhase {
        let elapsed = t &- anchor
        if elapsed < 0 { return .hold(until: anchor) }
        let cycle = elapsed / period
        if loops > 0, cycle >= Int64(loops) { return .hold(until: nil) }
        let start = anchor + cycle * period
        let r = elapsed - cycle * period
        let move = moveDuration
        let monotonic = easing.isMonotonic
        if r < delay { return .hold(until: start + delay) }
        if r < delay + move { return .move(until: start + delay + move, monotonic: monotonic) }
        if r < 2 * delay + move { return .hold(until: start + 2 * delay + move) }
        return .move(until: start + period, monotonic: monotonic)
    }
}
