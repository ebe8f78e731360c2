@testable import TickerModel

/// Calendar expressions (`OnCalendar=` syntax). Properties:
/// - an expression that parses has a normalised form that parses again to the same form (and so
///   the same zone) — what `tickerctl calendar` prints can be pasted back;
/// - the original and the normalised spec elapse at the same instants;
/// - every elapse is strictly after its base, and successive elapses strictly increase.
enum CalendarTarget {
    /// Bases: the epoch, 2024-03-31 00:30 UTC (a DST change in the local zone), 2038-01-19, 9999-12-31.
    static let bases: [Instant] = [0, 1_711_845_000_000_000, 2_147_483_647_000_000, 253_402_214_400_000_000 - 1]

    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 256 else { return }
        let text = input.text
        guard let spec = try? CalendarSpec(parsing: text, zones: FuzzZones.table) else { return }
        let normalized = spec.normalizedForm
        let again: CalendarSpec
        do {
            again = try CalendarSpec(parsing: normalized, zones: FuzzZones.table)
        } catch {
            require(false, "'\(text)' normalises to '\(normalized)', which does not parse: \(error)")
            return
        }
        require(again.normalizedForm == normalized,
                "'\(text)' normalises to '\(normalized)', which normalises to '\(again.normalizedForm)'")
        for base in bases {
            let first = spec.elapses(after: base, count: 3)
            var previous = base
            for next in first {
                require(next > previous, "'\(text)' after \(previous) elapses at \(next), not later")
                previous = next
            }
            let second = again.elapses(after: base, count: 3)
            require(first == second, "'\(text)' elapses at \(first) after \(base), its normal form '\(normalized)' at \(second)")
        }
    }
}
