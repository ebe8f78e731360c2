/// The piece of a motion that contains an instant: a hold or a move, and when it ends.
enum MotionPhase: Equatable {
    /// The position does not change until `until` (nil: never).
    case hold(until: Instant?)
    /// The position changes until `until` (nil: never stops); `monotonic` when it never turns back.
    case move(until: Instant?, monotonic: Bool)
}

/// Finds the first instant after `start` at which the cell shown — the floor of a position, as a
/// function of time — differs from the cell at `start`, walking the motion's holds and moves.
struct ChangeSearch {
    /// The position at an instant; the cell shown is its floor.
    let position: (Instant) -> Double
    /// The phase that contains an instant (a phase ending at t does not contain t).
    let phase: (Instant) -> MotionPhase
    /// Whether a straight move's next cell boundary is computed (and checked) before it is
    /// searched for. Off only to compare the two ways in tests; both give the same instant.
    var computesCrossings = true

    /// How far ahead an unbounded move is searched.
    static let horizon: Int64 = 366 * 24 * 3600 * microsecondsPerSecond
    /// Sampling step inside moves that may turn back.
    static let scanStep: Int64 = 1000
    /// Most phases walked before giving up (returning a conservative instant).
    static let maxPhases = 10_000

    /// The cell shown at an instant.
    private func cell(_ t: Instant) -> Int {
        Timeline.split(position(t)).cell
    }

    /// The first instant after `start` where the cell differs from the cell at `start`, or nil if
    /// never.
    func firstChange(after start: Instant) -> Instant? {
        let original = cell(start)
        var current = start
        for _ in 0..<ChangeSearch.maxPhases {
            switch phase(current) {
            case let .hold(until):
                guard let until, until > current else { return nil }
                current = until
                if cell(current) != original { return current }
            case let .move(until, monotonic):
                let end = until ?? (current &+ ChangeSearch.horizon)
                guard end > current else { return nil }
                if monotonic {
                    if let crossing = checkedStraightCrossing(from: current, to: end, original: original) {
                        return crossing
                    }
                    if cell(end) != original {
                        return bisect(from: current, to: end, original: original)
                    }
                } else {
                    var low = current
                    while low < end {
                        let high = min(low + ChangeSearch.scanStep, end)
                        if cell(high) != original {
                            return bisect(from: low, to: high, original: original)
                        }
                        low = high
                    }
                }
                if until == nil { return nil }
                current = end
            }
        }
        return current
    }

    /// Where a monotonic move from `start` crosses into another cell if it goes on at the speed it
    /// has over its first step — the usual case, a constant speed — or nil. The answer is
    /// checked, so it is exact whatever the motion: the cell differs at it and not a microsecond
    /// before (a monotonic move does not come back, so it is the first change). An eased move
    /// whose guess misses is searched as before.
    private func checkedStraightCrossing(from start: Instant, to end: Instant, original: Int) -> Instant? {
        guard computesCrossings else { return nil }
        let probe = min(end, start + ChangeSearch.scanStep)
        guard probe > start else { return nil }
        let from = position(start)
        let velocity = (position(probe) - from) / Double(probe - start)
        guard velocity.isFinite, velocity != 0 else { return nil }
        let boundary = velocity > 0 ? from.rounded(.down) + 1 : from.rounded(.down)
        let wait = ((boundary - from) / velocity).rounded(.up)
        guard wait.isFinite, wait >= 1, wait <= Double(end - start) else { return nil }
        // Rounding may put the computed instant a microsecond or two off the true crossing.
        var guess = start + Int64(wait)
        for _ in 0..<4 {
            if cell(guess) == original {
                guard guess < end else { return nil }
                guess += 1
            } else if guess - 1 > start, cell(guess - 1) != original {
                guess -= 1
            } else {
                return guess
            }
        }
        return nil
    }

    /// Smallest instant in (low, high] whose cell differs, assuming it does at `high`.
    private func bisect(from low: Instant, to high: Instant, original: Int) -> Instant {
        var low = low
        var high = high
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if cell(mid) != original {
                high = mid
            } else {
                low = mid
            }
        }
        return high
    }
}
