/// Order statistics of a sample.
struct Percentiles {
    private let sorted: [Double]

    /// The statistics of `values`.
    init(_ values: [Double]) { sorted = values.sorted() }

    /// The `p`-th percentile (0…100), nearest rank; 0 for an empty sample.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// The median.
    var median: Double { percentile(50) }
    /// The smallest value.
    var minimum: Double { sorted.first ?? 0 }
    /// The largest value.
    var maximum: Double { sorted.last ?? 0 }
}
