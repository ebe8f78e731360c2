extension Easing {
    /// Where the curve's monotonic pieces end, in (0, 1], ascending and ending with 1: on each
    /// interval between consecutive ends (from 0) the curve only rises or only falls. One piece for
    /// the monotonic curves; the bounce curves turn at the top and bottom of each arc.
    var monotonicPieceEnds: [Double] {
        let d = 2.75
        // easeOutBounce turns at the tops (1/d, 2/d, 2.5/d) and bottoms (1.5/d, 2.25/d, 2.625/d).
        let outTurns = [1 / d, 1.5 / d, 2 / d, 2.25 / d, 2.5 / d, 2.625 / d]
        switch self {
        case .easeOutBounce:
            return outTurns + [1]
        case .easeInBounce:
            return outTurns.reversed().map { 1 - $0 } + [1]
        case .easeInOutBounce:
            let firstHalf = outTurns.reversed().map { (1 - $0) / 2 }
            let secondHalf = outTurns.map { 0.5 + $0 / 2 }
            return firstHalf + [0.5] + secondHalf + [1]
        default:
            return [1]
        }
    }
}
