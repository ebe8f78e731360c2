/// The motion of the stream position in continuous and scroll mode: s(t) for one tape.
///
/// Continuous: s(t) = position + sign · min(speed · max(0, t − anchor − delay), loops · width)
/// (no cap when loops is 0). Scroll: with T the move time (width / speed, rounded to µs) and
/// P = delay + T, cycle k = ⌊(t − anchor) / P⌋ holds at position + sign·k·width for `delay`, then
/// moves one width with `easing` over T; after `loops` cycles it holds for ever.
struct StreamMotion: Equatable {
    var mode: Mode
    var anchor: Instant
    var position: Double
    var speed: Double
    var delay: Int64
    var easing: Easing
    var loops: UInt32
    var direction: Direction
    var width: Int

    /// Time of one scroll move: width / speed in µs, at least 1.
    var moveDuration: Int64 {
        StreamMotion.duration(cells: Double(width), speed: speed)
    }

    /// Durations at or above this many µs are capped to `Int64.max / 4`.
    static let longest = Double(Int64.max / 4)

    /// `cells / speed` seconds in µs, rounded, at least 1.
    static func duration(cells: Double, speed: Double) -> Int64 {
        let micros = (cells / speed * Double(microsecondsPerSecond)).rounded()
        // Capped at Int64.max / 4 (not just below Int64.max): motions add a delay to it and
        // double the sum, which overflowed for durations from a huge `cycle` (D-Bus fuzz, seed 2).
        guard micros.isFinite, micros < Self.longest else { return Int64.max / 4 }
        return max(1, Int64(micros))
    }

    /// `cells / speed` seconds in µs, rounded up.
    static func durationUp(cells: Double, speed: Double) -> Int64 {
        let micros = (cells / speed * Double(microsecondsPerSecond)).rounded(.up)
        guard micros.isFinite, micros < Self.longest else { return Int64.max / 4 }
        return max(0, Int64(micros))
    }

    /// The stream position at `t`.
    func position(at t: Instant) -> Double {
        let elapsed = t &- anchor
        let sign = direction.sign
        if mode == .scroll {
            guard width > 0, elapsed >= 0 else { return position }
            let period = delay + moveDuration
            let cycle = elapsed / period
            if loops > 0, cycle >= Int64(loops) {
                return position + sign * Double(width) * Double(loops)
            }
            let inCycle = elapsed - cycle * period
            let progress = inCycle < delay ? 0 : easing(Double(inCycle - delay) / Double(moveDuration))
            return position + sign * Double(width) * (Double(cycle) + progress)
        }
        let moving = max(0, elapsed - delay)
        var distance = speed * Double(moving) / Double(microsecondsPerSecond)
        if loops > 0 { distance = min(distance, Double(width) * Double(loops)) }
        return position + sign * distance
    }

    /// The hold or move that contains `t`.
    func phase(at t: Instant) -> MotionPhase {
        let elapsed = t &- anchor
        if mode == .scroll {
            guard width > 0 else { return .hold(until: nil) }
            if elapsed < 0 { return .hold(until: anchor) }
            let period = delay + moveDuration
            let cycle = elapsed / period
            if loops > 0, cycle >= Int64(loops) { return .hold(until: nil) }
            let cycleStart = anchor + cycle * period
            if elapsed - cycle * period < delay { return .hold(until: cycleStart + delay) }
            return .move(until: cycleStart + period, monotonic: easing.isMonotonic)
        }
        if elapsed < delay { return .hold(until: anchor + delay) }
        guard loops > 0 else { return .move(until: nil, monotonic: true) }
        let end = anchor + delay + StreamMotion.durationUp(cells: Double(width) * Double(loops), speed: speed)
        return t >= end ? .hold(until: nil) : .move(until: end, monotonic: true)
    }

    /// The instant the motion arrives at stream position `target` (a multiple of the width ahead
    /// in the direction of motion), or nil when it never does (behind, or past the last loop).
    func arrival(at target: Int) -> Instant? {
        let distance = (Double(target) - position) * direction.sign
        guard distance >= 0 else { return nil }
        if mode == .scroll {
            guard width > 0 else { return nil }
            let cycles = Int64((distance / Double(width)).rounded())
            if loops > 0, cycles > Int64(loops) { return nil }
            return anchor + cycles * (delay + moveDuration)
        }
        if loops > 0, distance > Double(width) * Double(loops) { return nil }
        return anchor + delay + StreamMotion.durationUp(cells: distance, speed: speed)
    }
}
