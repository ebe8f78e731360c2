/// The piece of a motion that contains an instant: a hold or a move, and when it ends.
enum MotionPhase: Equatable {
    /// The position does not change until `until` (nil: never).
    case hold(until: Instant?)
    /// The position changes until `until` (nil: never stops); `monotonic` when it never turns back.
    case move(until: Instant?, monotonic: Bool)
}

/// Finds the first instant after `start` at which a cell index, as a function of time, differs from
/// its value at `start`, walking the motion's holds and moves.
struct ChangeSearch {
    /// The cell index shown at an instant.
    let cell: (Instant) -> Int
    /// The phase that contains an instant (a phase ending at t does not contain t).
    let phase: (Instant) -> MotionPhase

    /// How far ahead an unbounded move is searched.
    static let horizon: Int64 = 366 * 24 * 3600 * microsecondsPerSecond
    /// Sampling step inside moves that may turn back.
    static let scanStep: Int64 = 1000
    /// Most phases walked before giving up (returning a conservative instant).
    static let maxPhases = 10_000

    /// The first instant after `start` where `cell` differs from `cell(start)`, or nil if never.
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
