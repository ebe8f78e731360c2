@testable import TickerModel

/// Absolute timestamps (`2024-04-01 12:00`, `@1711929600`, `... UTC`, `... Europe/Berlin`).
/// Properties: an accepted timestamp is not before 1970; formatted in UTC and in the local zone
/// (as `tickerctl list` shows it), it parses back to the same second.
enum TimestampTarget {
    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 256 else { return }
        let text = input.text
        guard let instant = try? TimestampParser.parse(text, zones: FuzzZones.table) else { return }
        require(instant >= 0, "'\(text)' parses to \(instant), before 1970")
        let second = instant - instant % Microseconds.perSecond
        for zone in [ZoneRules.utc, FuzzZones.berlin] {
            let formatted = TimestampFormat.timestamp(instant, in: zone)
            do {
                let again = try TimestampParser.parse(formatted, zones: FuzzZones.table)
                require(again == second, "'\(text)' is \(instant), formats in \(zone.name) as '\(formatted)', which is \(again)")
            } catch {
                require(false, "'\(text)' is \(instant), formats in \(zone.name) as '\(formatted)', which does not parse: \(error)")
            }
        }
    }
}
