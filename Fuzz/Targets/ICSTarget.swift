import Calendars

/// iCalendar text through libical (the `Calendars` wrapper). Properties: parsing never traps;
/// a calendar that parses expands in a two-year window (in Europe/Berlin) into occurrences that
/// each overlap the window, end no earlier than they start, and, all-day, cover at least one day.
enum ICSTarget {
    /// 2025-01-01T00:00:00Z ..< 2027-01-01T00:00:00Z in microseconds.
    static let window = Int64(1_735_689_600_000_000)..<Int64(1_798_761_600_000_000)

    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 4096 else { return }
        guard let calendar = try? ICalendar(parsing: input.text) else { return }
        var warnings: [String] = []
        for occurrence in calendar.occurrences(in: window, timeZone: "Europe/Berlin", warnings: &warnings) {
            require(occurrence.overlaps(window), "occurrence \(occurrence.start)–\(occurrence.end) outside the window")
            require(occurrence.end >= occurrence.start, "occurrence ends at \(occurrence.end) before its start \(occurrence.start)")
            if let days = occurrence.days {
                require(days.lowerBound < days.upperBound, "all-day occurrence with no day: \(days)")
            }
        }
    }
}
