import Testing
import TickerModel

/// The config file's recurring windows (docs/configuration.md) on the days that are hard for a
/// calendar: clocks going forward and back (an hour in Berlin and New York, half an hour on Lord
/// Howe), the day Pacific/Apia skipped, 29 February, and a machine that slept through a change.
/// Each case asks, at instants just before and after an edge, whether the message is shown.
@Suite struct HardDayWindowTests {
    /// One check: in `zone`, the message of `calendar` + `duration` is shown at `instant` or not.
    struct Check: CustomTestStringConvertible, Sendable {
        let zone: String
        let calendar: String
        let duration: Int64
        /// A timestamp as `TimestampParser` reads it, in `zone` unless it names another.
        let instant: String
        let shown: Bool

        var testDescription: String { "\(calendar) + \(duration / Microseconds.perMinute)min in \(zone) at \(instant)" }
    }

    static let hour = Microseconds.perHour
    static let day = Microseconds.perDay

    /// "It's night-time right now" from 21:00 for 10 h, the nights the clocks change: the window
    /// is 10 h of elapsed time, so it ends an hour (half an hour on Lord Howe) later by the clock
    /// on the night they go forward and earlier on the night they go back.
    static let nights: [Check] = [
        // Berlin: forward on 30 March 2025, back on 26 October 2025.
        Check(zone: "Europe/Berlin", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-03-29 20:59:59", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-03-29 21:00:00", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-03-30 07:59:59", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-03-30 08:00:00", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-03-30 21:00:00", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-10-26 05:59:59", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-10-26 06:00:00", shown: false),
        // New York: forward on 9 March 2025, back on 2 November 2025.
        Check(zone: "America/New_York", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-03-09 07:59:59", shown: true),
        Check(zone: "America/New_York", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-03-09 08:00:00", shown: false),
        Check(zone: "America/New_York", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-11-02 05:59:59", shown: true),
        Check(zone: "America/New_York", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-11-02 06:00:00", shown: false),
        // Lord Howe: half an hour forward on 5 October 2025, back on 6 April 2025.
        Check(zone: "Australia/Lord_Howe", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-10-05 07:29:59", shown: true),
        Check(zone: "Australia/Lord_Howe", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-10-05 07:30:00", shown: false),
        Check(zone: "Australia/Lord_Howe", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-04-06 06:29:59", shown: true),
        Check(zone: "Australia/Lord_Howe", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2025-04-06 06:30:00", shown: false),
        // Apia: 29 December 2011 21:00 −10 is followed by 31 December 07:00 +14, ten hours later.
        Check(zone: "Pacific/Apia", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2011-12-31 06:59:59", shown: true),
        Check(zone: "Pacific/Apia", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2011-12-31 07:00:00", shown: false),
        Check(zone: "Pacific/Apia", calendar: "*-*-* 21:00", duration: 10 * hour, instant: "2011-12-31 21:00:00", shown: true),
    ]

    /// A time in the spring gap does not happen that day; one in the autumn fold happens once,
    /// the first time (systemd's rule).
    static let gapsAndFolds: [Check] = [
        Check(zone: "Europe/Berlin", calendar: "*-*-* 02:30", duration: hour / 2, instant: "2025-03-30 03:30:00", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 02:30", duration: hour / 2, instant: "2025-03-31 02:30:00", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 02:30", duration: hour / 2, instant: "2025-10-26 00:30:00 UTC", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-*-* 02:30", duration: hour / 2, instant: "2025-10-26 01:30:00 UTC", shown: false),
        Check(zone: "America/New_York", calendar: "*-*-* 02:30", duration: hour / 2, instant: "2025-03-09 03:30:00", shown: false),
        Check(zone: "America/New_York", calendar: "*-*-* 01:30", duration: hour / 2, instant: "2025-11-02 05:30:00 UTC", shown: true),
        Check(zone: "America/New_York", calendar: "*-*-* 01:30", duration: hour / 2, instant: "2025-11-02 06:30:00 UTC", shown: false),
        Check(zone: "Australia/Lord_Howe", calendar: "*-*-* 02:15", duration: hour / 4, instant: "2025-10-05 02:45:00", shown: false),
        Check(zone: "Australia/Lord_Howe", calendar: "*-*-* 01:45", duration: hour / 4, instant: "2025-04-05 14:45:00 UTC", shown: true),
        Check(zone: "Australia/Lord_Howe", calendar: "*-*-* 01:45", duration: hour / 4, instant: "2025-04-05 15:15:00 UTC", shown: false),
    ]

    /// A birthday on 29 February is shown in leap years only, midnight to midnight; and a `1d`
    /// window is 24 hours, so a birthday on a day the clocks change ends an hour after midnight
    /// (spring) or an hour before (autumn) — docs/configuration.md says so and points to the
    /// calendar source, whose all-day events last the local day.
    static let birthdays: [Check] = [
        Check(zone: "Europe/Berlin", calendar: "*-02-29", duration: day, instant: "2028-02-28 23:59:59", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-02-29", duration: day, instant: "2028-02-29 00:00:00", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-02-29", duration: day, instant: "2028-02-29 23:59:59", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-02-29", duration: day, instant: "2028-03-01 00:00:00", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-02-29", duration: day, instant: "2027-02-28 12:00:00", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-02-29", duration: day, instant: "2027-03-01 00:00:00", shown: false),
        Check(zone: "America/New_York", calendar: "*-02-29", duration: day, instant: "2028-02-29 23:59:59", shown: true),
        // The last day of February, every year.
        Check(zone: "Europe/Berlin", calendar: "*-02~1", duration: day, instant: "2027-02-28 00:00:00", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-02~1", duration: day, instant: "2028-02-28 12:00:00", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-02~1", duration: day, instant: "2028-02-29 12:00:00", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-03-30", duration: day, instant: "2025-03-31 00:59:59", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-03-30", duration: day, instant: "2025-03-31 01:00:00", shown: false),
        Check(zone: "Europe/Berlin", calendar: "*-10-26", duration: day, instant: "2025-10-26 22:59:59", shown: true),
        Check(zone: "Europe/Berlin", calendar: "*-10-26", duration: day, instant: "2025-10-26 23:00:00", shown: false),
        // A birthday on the day Apia skipped is not shown that year; it is the next.
        Check(zone: "Pacific/Apia", calendar: "*-12-30", duration: day, instant: "2011-12-31 00:00:00", shown: false),
        Check(zone: "Pacific/Apia", calendar: "*-12-30", duration: day, instant: "2012-12-30 12:00:00", shown: true),
    ]

    static func shown(_ check: Check) throws -> Bool {
        let zones = SystemZones(local: check.zone)
        let calendar = try CalendarSpec(parsing: check.calendar, zones: zones)
        let at = try TimestampParser.parse(check.instant, zones: zones)
        let entry = ScheduleEntry(id: "m", window: .recurring(calendar: calendar, duration: check.duration),
                                  postedAt: at - 400 * day)
        return entry.state(at: at).isActive
    }

    @Test(arguments: nights + gapsAndFolds + birthdays)
    func shownAtTheEdges(_ check: Check) throws {
        #expect(try Self.shown(check) == check.shown)
    }

    /// The evenings before the clocks change (forward, then back) in each zone.
    static let changeEves = [
        ("Europe/Berlin", "2025-03-29 20:00:00"), ("Europe/Berlin", "2025-10-25 20:00:00"),
        ("America/New_York", "2025-03-08 20:00:00"), ("America/New_York", "2025-11-01 20:00:00"),
        ("Australia/Lord_Howe", "2025-10-04 20:00:00"), ("Australia/Lord_Howe", "2025-04-05 20:00:00"),
        ("Pacific/Apia", "2011-12-29 20:00:00"), ("Pacific/Apia", "2012-03-31 20:00:00"),
    ]

    /// Through the night the clocks change, every 10 minutes: a schedule kept awake (stepped
    /// from change to change), one that slept from the evening before, and one built afresh all
    /// show the same messages with the same next change — also for times the fold repeats,
    /// which open one window, the first — and after a jump back of a day or ahead of a year.
    @Test(arguments: changeEves.indices)
    func awakeSleptAndFreshSchedulesAgree(eve: Int) throws {
        let (zone, evening) = Self.changeEves[eve]
        let zones = SystemZones(local: zone)
        let entries = try [("night", "*-*-* 21:00", 10 * Self.hour), ("half-past-two", "*-*-* 02:30", Self.hour / 2),
                           ("quarter-to-two", "*-*-* 01:45", Self.hour / 4), ("hourly", "*:30", 20 * Microseconds.perMinute),
                           ("leap", "*-02-29", Self.day), ("daily", "daily", Self.day)].map {
            ScheduleEntry(id: $0.0, window: .recurring(calendar: try CalendarSpec(parsing: $0.1, zones: zones), duration: $0.2),
                          postedAt: 0)
        }
        let start = try TimestampParser.parse(evening, zones: zones)
        var awake = Schedule(entries)
        var slept = Schedule(entries)
        _ = slept.activeEntries(at: start)
        var windowsOfHalfPastTwo = Set<Instant>()
        for step in 0...(14 * 6) {
            let t = start + Int64(step) * 10 * Microseconds.perMinute + 1
            var fresh = Schedule(entries)
            let shown = fresh.activeEntries(at: t)
            #expect(awake.activeEntries(at: t) == shown, "\(zone) at \(t)")
            #expect(awake.nextBoundary(after: t) == fresh.nextBoundary(after: t), "\(zone) at \(t)")
            windowsOfHalfPastTwo.formUnion(shown.filter { $0.id == "half-past-two" }.map(\.windowStart))
        }
        #expect(windowsOfHalfPastTwo.count <= 1, "02:30 opens at most one window a night in \(zone)")
        for t in [start + 10 * Self.hour + 7, start + 9 * Self.hour, start - Self.day, start + 400 * Self.day] {
            var fresh = Schedule(entries)
            #expect(slept.activeEntries(at: t) == fresh.activeEntries(at: t), "\(zone) at \(t)")
            #expect(slept.nextBoundary(after: t) == fresh.nextBoundary(after: t), "\(zone) at \(t)")
        }
    }
}
