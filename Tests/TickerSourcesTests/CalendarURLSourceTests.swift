import Foundation
import Testing
import TestSupport

/// A calendar `url` as docs/sources.md describes it, end to end: the real tickerd-sources and
/// tickerd on a private bus, the calendar served over HTTP on 127.0.0.1, and the answers a
/// user's calendar server gives on a bad day — an HTML error page with status 200, a 404, a
/// truncated download, a file with a broken rule and an unknown zone. Each is logged naming the
/// source and the URL, and no message is lost; a good calendar afterwards is followed again.
@Suite(.serialized) struct CalendarURLSourceTests {
    static func calendar(_ events: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tickerd//tests//EN"] + events + ["END:VCALENDAR", ""])
            .joined(separator: "\r\n")
    }

    static func event(uid: String, summary: String, from: Date, to: Date, extra: [String] = []) -> String {
        (["BEGIN:VEVENT", "UID:\(uid)", "DTSTART:\(CalendarFeedSourceTests.stamp(from))",
          "DTEND:\(CalendarFeedSourceTests.stamp(to))", "SUMMARY:\(summary)"] + extra + ["END:VEVENT"])
            .joined(separator: "\r\n")
    }

    @Test func aURLCalendarKeepsItsEventsThroughBadAnswers() throws {
        let folder = try TemporaryDirectory(prefix: "calendar-url")
        let path = folder.file("bedtime.ics")
        let now = Date()
        let today = CalendarFeedSourceTests.stamp(now, dateOnly: true)
        let birthday = ["BEGIN:VEVENT", "UID:birthday", "DTSTART;VALUE=DATE:\(today)", "RRULE:FREQ=YEARLY",
                        "SUMMARY:Johnny's birthday", "END:VEVENT"].joined(separator: "\r\n")
        // Starts in 5 minutes: shown now, as `lead` is 10 minutes.
        let soon = Self.event(uid: "soon", summary: "Lights out soon", from: now + 300, to: now + 900)
        let good = Self.calendar([Self.event(uid: "bed", summary: "Bedtime", from: now - 3600, to: now + 3600), soon, birthday])
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        try "text/calendar; charset=utf-8".write(toFile: path + ".content-type", atomically: true, encoding: .utf8)
        let (server, port) = try CalendarFeedSourceTests.serve(folder)
        defer { server.kill(SIGTERM) }
        let url = "http://127.0.0.1:\(port)/bedtime.ics"
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "bedtime"
            type = "calendar"
            url = "\(url)"
            interval = "1s"
            lead = "10min"
            timezone = "UTC"
            template = "{summary} ({start})"
            """)
        try fixture.startService()
        let clock = DateFormatter()
        clock.locale = Locale(identifier: "en_US_POSIX")
        clock.timeZone = TimeZone(identifier: "UTC")
        clock.dateFormat = "HH:mm"
        let day = "\(today.prefix(4))-\(today.dropFirst(4).prefix(2))-\(today.suffix(2))"
        let both = ["Bedtime (\(clock.string(from: now - 3600)))", "Johnny's birthday (\(day))",
                    "Lights out soon (\(clock.string(from: now + 300)))"]
        #expect(try fixture.wait { try fixture.messages(of: "bedtime").map(\.text).sorted() == both }, "\(fixture.log)")

        /// Serves `body` (or nothing: a 404), waits until the service logged `expected`, and
        /// checks that both messages are still there.
        func serveBadly(_ body: String?, _ expected: String) throws {
            if let body {
                try body.write(toFile: path, atomically: true, encoding: .utf8)
            } else {
                try FileManager.default.removeItem(atPath: path)
            }
            #expect(fixture.wait { fixture.log.contains(expected) }, "expected '\(expected)' in:\n\(fixture.log)")
            #expect(try fixture.messages(of: "bedtime").map(\.text).sorted() == both)
        }
        // A server that answers its login or error page with 200.
        try serveBadly("<!DOCTYPE html>\n<html><body><h1>Please sign in</h1></body></html>\n",
                       "\(url): not iCalendar data")
        try serveBadly(nil, "\(url): HTTP 404")
        // A download cut off in the middle of an event: not the calendar minus its end.
        var truncated = good
        truncated.removeLast(good.count - good.range(of: "SUMMARY:Johnny")!.lowerBound.utf16Offset(in: good))
        let notICalendar = fixture.log.components(separatedBy: "not iCalendar data").count
        try truncated.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(fixture.wait { fixture.log.components(separatedBy: "not iCalendar data").count > notICalendar },
                "\(fixture.log)")
        #expect(try fixture.messages(of: "bedtime").map(\.text).sorted() == both)

        // A broken rule and an unknown zone are warnings naming the URL; the rest of the file
        // is read (the event of the broken rule still happens once, at its DTSTART).
        let odd = Self.calendar([
            Self.event(uid: "bed", summary: "Bedtime", from: now - 3600, to: now + 3600, extra: ["RRULE:FREQ=DAILY;BYDAY=XX"]),
            ["BEGIN:VEVENT", "UID:mars", "DTSTART;TZID=Mars/Olympus:\(CalendarFeedSourceTests.stamp(now + 86_400).dropLast())",
             "SUMMARY:Tomorrow on Mars", "END:VEVENT"].joined(separator: "\r\n"),
            soon, birthday,
        ])
        try odd.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(fixture.wait { fixture.log.contains("\(url): VEVENT:") && fixture.log.contains("RRULE") }, "\(fixture.log)")
        #expect(fixture.wait { fixture.log.contains("\(url): unknown TZID 'Mars/Olympus'") }, "\(fixture.log)")
        #expect(try fixture.messages(of: "bedtime").map(\.text).sorted() == both)

        // A good calendar again: followed at the next fetch.
        try Self.calendar([Self.event(uid: "bed", summary: "Reading", from: now - 3600, to: now + 3600), soon, birthday])
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try fixture.wait {
            try fixture.messages(of: "bedtime").map(\.text).sorted() == ["Johnny's birthday (\(day))", "Lights out soon (\(clock.string(from: now + 300)))",
                                                                       "Reading (\(clock.string(from: now - 3600)))"]
        }, "\(fixture.log)")
        #expect(fixture.service?.hasExited == false)
    }

    /// Without `timezone`, times are placed in the service's own zone, read from `TZ` as glibc
    /// reads it (as tickerd does): a name, `:name`, a path into the zoneinfo directory. A `TZ`
    /// that names no zone (a POSIX rule) places them in UTC and says so in the log.
    @Test func withoutATimezoneTheServiceZoneIsReadLikeGlibc() throws {
        let folder = try TemporaryDirectory(prefix: "calendar-zone")
        let path = folder.file("cal.ics")
        let now = Date()
        try Self.calendar([Self.event(uid: "bed", summary: "Bedtime", from: now - 3600, to: now + 3600)])
            .write(toFile: path, atomically: true, encoding: .utf8)
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "cal"
            type = "calendar"
            file = "\(path)"
            template = "{summary} {start}"
            """)
        func start(in zone: String) -> String {
            let clock = DateFormatter()
            clock.locale = Locale(identifier: "en_US_POSIX")
            clock.timeZone = TimeZone(identifier: zone)
            clock.dateFormat = "HH:mm"
            return "Bedtime " + clock.string(from: now - 3600)
        }
        for (tz, zone) in [(":Australia/Lord_Howe", "Australia/Lord_Howe"), ("/usr/share/zoneinfo/America/New_York", "America/New_York"),
                           ("Asia/Kolkata", "Asia/Kolkata"), ("EST5EDT,M3.2.0,M11.1.0", "UTC")] {
            try fixture.killService()
            try fixture.startService(environment: ["TZ": tz])
            let shown = try fixture.wait { try fixture.messages(of: "cal").map(\.text) == [start(in: zone)] }
            let texts = try fixture.messages(of: "cal").map(\.text)
            #expect(shown, "TZ=\(tz): \(texts)\n\(fixture.log)")
        }
        #expect(fixture.log.contains("TZ='EST5EDT,M3.2.0,M11.1.0' is not a zone name"), "\(fixture.log)")
    }
}
