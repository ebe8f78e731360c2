@testable import TickerModel

/// The zones the time targets parse in: a local zone with daylight saving time (so DST gaps,
/// folds and zone abbreviations are reachable) and a few named ones, all from POSIX TZ rules so
/// the targets read no files and behave the same on every machine.
enum FuzzZones {
    static let berlin = zone("Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3")
    static let newYork = zone("America/New_York", "EST5EDT,M3.2.0,M11.1.0")
    static let lordHowe = zone("Australia/Lord_Howe", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
    static let kolkata = zone("Asia/Kolkata", "IST-5:30")

    /// Berlin as the local zone, the others by name.
    static let table = ZoneTable(
        localZone: berlin,
        zones: Dictionary(uniqueKeysWithValues: [berlin, newYork, lordHowe, kolkata].map { ($0.name, $0) }))

    private static func zone(_ name: String, _ rule: String) -> ZoneRules {
        guard let parsed = PosixTimeZone(parsing: rule) else { fatalError("fuzz zone rule '\(rule)' does not parse") }
        return ZoneRules(name: name, rule: parsed)
    }
}
