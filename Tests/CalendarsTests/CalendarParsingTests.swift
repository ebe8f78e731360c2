import Testing
@testable import Calendars

/// Bad input gets an error or a warning that says what was wrong, and the rest is kept.
@Suite struct CalendarParsingTests {
    static func ics(_ lines: String...) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tickerd//tests//EN"] + lines + ["END:VCALENDAR", ""])
            .joined(separator: "\r\n")
    }

    /// 2028-01-01T00:00:00Z ..< 2029-01-01T00:00:00Z in microseconds.
    static let year2028 = Int64(1_830_297_600) * 1_000_000..<Int64(1_861_920_000) * 1_000_000

    @Test(arguments: ["", "hello", "BEGIN:VEVENT\r\nEND:VEVENT\r\n", "\u{0}\u{1}BEGIN"])
    func textWithoutACalendarIsAnError(text: String) {
        #expect(throws: CalendarParseError.self) { try ICalendar(parsing: text) }
    }

    @Test func anEventWithoutDTSTARTIsSkippedWithAWarningAndTheOthersKept() throws {
        let calendar = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:broken", "SUMMARY:No start", "END:VEVENT",
            "BEGIN:VEVENT", "UID:fine", "DTSTART:20280301T100000Z", "SUMMARY:Fine", "END:VEVENT"))
        var warnings: [String] = []
        let found = calendar.occurrences(in: Self.year2028, timeZone: "UTC", warnings: &warnings)
        #expect(found.map(\.uid) == ["fine"])
        #expect(warnings.contains { $0.contains("'broken'") && $0.contains("DTSTART") }, "\(warnings)")
    }

    @Test func aLineLibicalCannotParseBecomesAWarning() throws {
        let calendar = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:x", "DTSTART:not-a-time", "END:VEVENT"))
        #expect(!calendar.warnings.isEmpty)
        #expect(calendar.occurrences(in: Self.year2028, timeZone: "UTC").isEmpty)
    }

    /// A time in the spring gap of a VTIMEZONE of the file (Outlook's "Lord Howe Standard Time",
    /// half an hour forward at 02:00 on 5 October 2025) is read with the offset before the gap
    /// (RFC 5545 3.3.5), as in the IANA zone: 02:15 +10:30, 15:45 UTC the day before, and the
    /// next day at 02:15 +11 again. (python's icalendar reads it with the offset after the gap,
    /// which is why the comparison's fixture keeps this case out.)
    @Test func aTimeInTheGapOfAFilesVTIMEZONEHasTheOffsetBeforeIt() throws {
        let text = try String(contentsOfFile: CalendarComparisonTests.fixtures + "/outlook-lord-howe.ics", encoding: .utf8)
            .replacingOccurrences(of: "Lord Howe Standard Time:20250320T014500", with: "Lord Howe Standard Time:20250320T021500")
        let calendar = try ICalendar(parsing: text)
        let october = Int64(1_759_449_600) * 1_000_000..<Int64(1_759_708_800) * 1_000_000  // 3 ..< 6 Oct 2025 UTC
        let starts = calendar.occurrences(in: october, timeZone: "UTC").filter { $0.uid == "lh-quarter-to-two" }.map { $0.start / 1_000_000 }
        // 4 Oct 02:15 +10:30, 5 Oct 02:15 (in the gap) +10:30, 6 Oct 02:15 +11.
        #expect(starts == [1_759_506_300, 1_759_592_700, 1_759_677_300])
    }

    @Test func anUnknownTZIDIsReadAsLocalTimeWithAWarning() throws {
        let calendar = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:x", "DTSTART;TZID=Mars/Olympus:20280301T100000", "END:VEVENT"))
        var warnings: [String] = []
        let found = calendar.occurrences(in: Self.year2028, timeZone: "Europe/Berlin", warnings: &warnings)
        // 10:00 in Berlin (CET, +01:00) is 09:00 UTC.
        #expect(found.map { $0.start / 1_000_000 } == [1_835_514_000])
        #expect(warnings.contains { $0.contains("Mars/Olympus") }, "\(warnings)")
    }

    @Test(arguments: [("Europe/Berlin", Int64(1_835_391_600)), ("America/New_York", Int64(1_835_413_200))])
    func aBirthdayLastsItsWholeLocalDay(zone: String, midnight: Int64) throws {
        let calendar = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:b", "DTSTART;VALUE=DATE:20000229", "RRULE:FREQ=YEARLY",
            "SUMMARY:Johnny's birthday", "URL:https://example.org/johnny", "END:VEVENT"))
        let found = calendar.occurrences(in: Self.year2028, timeZone: zone)
        try #require(found.count == 1)
        #expect(found[0].start / 1_000_000 == midnight)
        #expect(found[0].end / 1_000_000 == midnight + 86_400)
        #expect(found[0].days == CalendarDay(year: 2028, month: 2, day: 29)..<CalendarDay(year: 2028, month: 3, day: 1))
        #expect(found[0].url == "https://example.org/johnny")
        #expect(found[0].summary == "Johnny's birthday")
    }

    /// Found by the `ics` fuzz target: libical takes a month 19, and its iterator searched far
    /// from a DTSTART after UNTIL; both now end at once (Fuzz/corpus/ics/regress-*).
    @Test func anInvalidOrUnreachableStartEndsAtOnce() throws {
        let month19 = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:m", "DTSTART:20251918T090000Z", "RRULE:FREQ=WEEKLY;UNTIL=20261231T230000Z", "END:VEVENT"))
        var warnings: [String] = []
        #expect(month19.occurrences(in: Self.year2028, timeZone: "UTC", warnings: &warnings).isEmpty)
        #expect(warnings.contains { $0.contains("'m'") && $0.contains("not a valid time") }, "\(warnings)")
        let far = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:f", "DTSTART;TZID=America/New_York:40500210T013000",
            "RRULE:FREQ=WEEKLY;BYDAY=SU;UNTIL=20261231T000000Z", "END:VEVENT"))
        #expect(far.occurrences(in: Self.year2028, timeZone: "UTC").isEmpty)
    }

    /// Found by the `ics` fuzz target: a timed series with an all-day RDATE gave that date an
    /// occurrence of no day at all (the series' length is 0 days); a date covers its whole day.
    @Test func anAllDayRDateOfATimedSeriesCoversItsDay() throws {
        let calendar = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:bins", "DTSTART:20280131T070000Z", "RDATE;VALUE=DATE:20280302",
            "SUMMARY:Bins out", "END:VEVENT"))
        let found = calendar.occurrences(in: Self.year2028, timeZone: "UTC").sorted { $0.start < $1.start }
        try #require(found.count == 2)
        #expect(found[0].days == nil)
        #expect(found[1].days == CalendarDay(year: 2028, month: 3, day: 2)..<CalendarDay(year: 2028, month: 3, day: 3))
        #expect(found[1].end - found[1].start == 86_400 * 1_000_000)
    }

    /// Found by the `ics` fuzz target: a warning about a rule read the event's UID, which moved
    /// libical's property cursor back before that rule, so the walk met the same rule again for
    /// ever (a hang, warnings piling up). Each rule is walked once and warned about once.
    @Test func aRuleThatIsCutIsWarnedAboutOnce() throws {
        let calendar = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:daily", "DTSTART:20200101T090000Z", "RRULE:FREQ=DAILY;COUNT=5000",
            "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Often", "END:VEVENT"))
        var warnings: [String] = []
        let found = calendar.occurrences(in: Self.year2028, timeZone: "UTC", warnings: &warnings)
        #expect(warnings.filter { $0.contains("'daily'") && $0.contains("cut") }.count == 1, "\(warnings)")
        // The first 2,000 daily starts end in 2025, before the window; the weekly rule ends in 2020.
        #expect(found.isEmpty)
    }

    /// Found by the `ics` fuzz target: an RDATE, EXDATE or DTEND with a month 55 or a day 93 made
    /// an instant past what fits in 64 bits of microseconds (a trap). It is skipped with a warning.
    @Test func anInvalidRDateOrEndIsSkipped() throws {
        let calendar = try ICalendar(parsing: Self.ics(
            "BEGIN:VEVENT", "UID:r", "DTSTART:20280601T080000Z", "DTEND:20285593T170000Z",
            "RDATE;VALUE=PERIOD:09255593T080000Z/20280602T120000Z", "RDATE:20281399T080000Z",
            "EXDATE:99991399T080000Z", "END:VEVENT"))
        var warnings: [String] = []
        let found = calendar.occurrences(in: Self.year2028, timeZone: "UTC", warnings: &warnings)
        #expect(found.map { $0.start / 1_000_000 } == [1_843_459_200])
        #expect(found.map { $0.end - $0.start } == [0])
        #expect(warnings.filter { $0.contains("'r'") && $0.contains("RDATE") }.count == 2, "\(warnings)")
    }
}
