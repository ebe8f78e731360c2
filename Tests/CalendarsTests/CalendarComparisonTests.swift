import Foundation
import Testing
import TestSupport
@testable import Calendars

/// Occurrences over four years (2025–2028, so a 29 February falls in) agree with python's
/// recurring-ical-events on the fixtures in Tests/Fixtures/calendars, with all-day and floating
/// times placed in Europe/Berlin, America/New_York, Australia/Lord_Howe (a 30-minute shift) and
/// Pacific/Apia: DST changes, VTIMEZONEs under Outlook's names, a yearly birthday on 29 February,
/// RECURRENCE-ID overrides (single, into a gap, and RANGE=THISANDFUTURE moving the rest of a
/// series later or earlier), EXDATE, RDATE (dates, times, periods), all-day events (on 23- and
/// 25-hour days, and daily ones begun years before the window), DURATION in days and weeks
/// across a DST change, COUNT and UNTIL (an instant, and a date with a timed DTSTART), EXDATE
/// (also a date in a timed series) and RECURRENCE-ID written in UTC for a zoned series, BYDAY=-1FR, BYSETPOS, and a birthday
/// on the last day of February.
@Suite struct CalendarComparisonTests {
    /// 2025-01-01T00:00:00Z ..< 2029-01-01T00:00:00Z, in seconds.
    static let window = Int64(1_735_689_600)..<Int64(1_861_920_000)
    static let fixtures = PythonVenv.repositoryRoot + "/Tests/Fixtures/calendars"

    /// One occurrence as both sides report it.
    struct Row: Hashable, CustomStringConvertible {
        let file: String
        let uid: String
        let summary: String
        let start: Int64
        let end: Int64
        let days: String?

        var description: String {
            "\(file) \(uid) '\(summary)' \(start)–\(end)" + (days.map { " [\($0)]" } ?? "")
        }
    }

    static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixtures).filter { $0.hasSuffix(".ics") }.sorted()
    }

    /// What recurring-ical-events finds, cut to the window by the same overlap rule.
    static func reference(zone: String, window: Range<Int64> = window, files: [String]? = nil) throws -> Set<Row> {
        let paths = try (files ?? self.files()).map { fixtures + "/" + $0 }
        let output = try ChildProcess.run(
            try PythonVenv.python(),
            [fixtures + "/expand.py", zone, String(window.lowerBound), String(window.upperBound)] + paths,
            timeout: .seconds(120))
        #expect(output.status == 0, "expand.py failed: \(output.stderr)")
        var rows = Set<Row>()
        for line in output.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let start = try #require(object["start"] as? Int)
            let end = try #require(object["end"] as? Int)
            let overlaps = start == end ? window.contains(Int64(start))
                : Int64(start) < window.upperBound && Int64(end) > window.lowerBound
            guard overlaps else { continue }
            let days = (object["firstDay"] as? String).map { "\($0)..<\(object["endDay"] as? String ?? "?")" }
            rows.insert(Row(file: object["file"] as? String ?? "", uid: object["uid"] as? String ?? "",
                            summary: object["summary"] as? String ?? "", start: Int64(start), end: Int64(end),
                            days: days))
        }
        return rows
    }

    /// What the Calendars library finds.
    static func ours(zone: String, window: Range<Int64> = window, files: [String]? = nil) throws -> Set<Row> {
        var rows = Set<Row>()
        for file in try files ?? self.files() {
            let text = try String(contentsOfFile: fixtures + "/" + file, encoding: .utf8)
            let calendar = try ICalendar(parsing: text)
            #expect(calendar.warnings.isEmpty, "\(file): \(calendar.warnings)")
            var warnings: [String] = []
            let found = calendar.occurrences(in: window.lowerBound * 1_000_000..<window.upperBound * 1_000_000,
                                             timeZone: zone, warnings: &warnings)
            #expect(warnings.isEmpty, "\(file): \(warnings)")
            for occurrence in found {
                rows.insert(Row(file: file, uid: occurrence.uid, summary: occurrence.summary ?? "",
                                start: occurrence.start / 1_000_000, end: occurrence.end / 1_000_000,
                                days: occurrence.days.map { "\($0.lowerBound)..<\($0.upperBound)" }))
            }
        }
        return rows
    }

    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia"])
    func occurrencesAgreeWithRecurringIcalEvents(zone: String) throws {
        let reference = try Self.reference(zone: zone)
        let ours = try Self.ours(zone: zone)
        #expect(reference.count > 300, "the fixtures give \(reference.count) occurrences")
        let missing = reference.subtracting(ours).sorted { $0.start < $1.start }
        let extra = ours.subtracting(reference).sorted { $0.start < $1.start }
        #expect(missing.isEmpty, "recurring-ical-events has, we lack:\n\(missing.map(\.description).joined(separator: "\n"))")
        #expect(extra.isEmpty, "we have, recurring-ical-events lacks:\n\(extra.map(\.description).joined(separator: "\n"))")
    }

    /// Pacific/Apia skipped 30 December 2011 (from UTC−10 to UTC+14). A daily 21:00, a daily
    /// all-day event and a daily noon-for-a-day (DURATION:P1D) there agree with
    /// recurring-ical-events, except where RFC 5545 3.8.5.3 says duplicates count once: the
    /// skipped day's start, read with the offset before the gap, is the next day's start, and
    /// recurring-ical-events lists both. The library keeps one, the longer — so 31 December is a
    /// whole day, not the skipped day's empty one.
    @Test func aSkippedDayIsOneOccurrenceOfTheDayAfter() throws {
        let window = Int64(1_324_339_200)..<Int64(1_326_412_800)  // 2011-12-20 ..< 2012-01-13
        let files = ["apia-2011.ics"]
        let reference = try Self.reference(zone: "Pacific/Apia", window: window, files: files)
        var longest: [String: Row] = [:]
        for row in reference {
            let key = "\(row.uid)@\(row.start)"
            if let other = longest[key], other.end >= row.end { continue }
            longest[key] = row
        }
        #expect(longest.count < reference.count, "recurring-ical-events lists the skipped day too")
        let ours = try Self.ours(zone: "Pacific/Apia", window: window, files: files)
        let expected = Set(longest.values)
        #expect(ours == expected, "recurring-ical-events has, we lack: \(expected.subtracting(ours)); we have, it lacks: \(ours.subtracting(expected))")
        // 31 December 2011: the whole day, and noon to noon, not nothing.
        let december31 = Int64(1_325_239_200)  // 2011-12-31 00:00 +14
        #expect(ours.contains { $0.uid == "apia-days" && $0.start == december31 && $0.end == december31 + 86_400
            && $0.days == "2011-12-31..<2012-01-01" })
        #expect(ours.contains { $0.uid == "apia-floating" && $0.start == december31 + 43_200
            && $0.end == december31 + 43_200 + 86_400 })
        #expect(!ours.contains { $0.start == $0.end })
    }
}
