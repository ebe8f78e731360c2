import Foundation
import Testing
import TestSupport

/// The calendar and feed sources end to end: the real service and a real tickerd; an .ics file
/// the test rewrites, and feeds served over HTTP on 127.0.0.1.
@Suite(.serialized) struct CalendarFeedSourceTests {
    /// `YYYYMMDDTHHMMSSZ` and `YYYYMMDD` (UTC) of `date`.
    static func stamp(_ date: Date, dateOnly: Bool = false) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = dateOnly ? "yyyyMMdd" : "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    static func ics(summary: String, from: Date, to: Date) -> String {
        let today = Date()
        return [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tickerd//tests//EN",
            "BEGIN:VEVENT", "UID:meeting", "DTSTART:\(stamp(from))", "DTEND:\(stamp(to))",
            "SUMMARY:\(summary)", "URL:https://example.org/meeting", "END:VEVENT",
            "BEGIN:VEVENT", "UID:birthday", "DTSTART;VALUE=DATE:\(stamp(today, dateOnly: true))",
            "RRULE:FREQ=YEARLY", "SUMMARY:Johnny's birthday", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    @Test func eventsOnNowAreMessagesAndFollowTheFile() throws {
        let files = try TemporaryDirectory(prefix: "calendar-source")
        let path = files.file("cal.ics")
        let now = Date()
        try Self.ics(summary: "Standup", from: now - 3600, to: now + 3600).write(toFile: path, atomically: true, encoding: .utf8)
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "cal"
            type = "calendar"
            file = "\(path)"
            timezone = "UTC"
            poll = "200ms"
            template = "It's {summary}!"
            """)
        try fixture.startService()
        #expect(try fixture.wait {
            try fixture.messages(of: "cal").map(\.text).sorted() == ["It's Johnny's birthday!", "It's Standup!"]
        })
        let meeting = try fixture.messages(of: "cal").first { $0.text == "It's Standup!" }
        #expect(meeting?.link == "https://example.org/meeting")

        // The file changes: the message follows (same id: same UID and start).
        try Self.ics(summary: "Retro", from: now - 3600, to: now + 3600).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try fixture.wait { try fixture.messages(of: "cal").map(\.text).contains("It's Retro!") })
        #expect(try fixture.messages(of: "cal").count == 2)

        // A broken file is logged with the source's name; the messages stay.
        try "BEGIN:VEVENT\r\nnot a calendar".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(fixture.wait { fixture.log.contains("expected a VCALENDAR") || fixture.log.contains("not iCalendar data") })
        #expect(fixture.log.contains("cal"), "\(fixture.log)")
        #expect(try fixture.messages(of: "cal").count == 2)

        // The meeting moves into the past: its message goes, the birthday stays.
        try Self.ics(summary: "Retro", from: now - 7200, to: now - 3600).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try fixture.wait { try fixture.messages(of: "cal").map(\.text) == ["It's Johnny's birthday!"] })
    }

    @Test func allDayEventsNameTheirFirstAndLastDay() throws {
        let files = try TemporaryDirectory(prefix: "calendar-source")
        let path = files.file("cal.ics")
        let today = Date()
        let day = 86_400.0
        // A one-day birthday (DTEND the next day, as RFC 5545 writes it) and a three-day trip.
        try [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tickerd//tests//EN",
            "BEGIN:VEVENT", "UID:birthday", "DTSTART;VALUE=DATE:\(Self.stamp(today, dateOnly: true))",
            "DTEND;VALUE=DATE:\(Self.stamp(today + day, dateOnly: true))", "SUMMARY:Johnny's birthday", "END:VEVENT",
            "BEGIN:VEVENT", "UID:trip", "DTSTART;VALUE=DATE:\(Self.stamp(today, dateOnly: true))",
            "DTEND;VALUE=DATE:\(Self.stamp(today + 3 * day, dateOnly: true))", "SUMMARY:Trip", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "cal"
            type = "calendar"
            file = "\(path)"
            timezone = "UTC"
            template = "{summary} {start} to {end}"
            """)
        try fixture.startService()
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withFullDate]
        let first = iso.string(from: today)
        let last = iso.string(from: today + 2 * day)
        #expect(try fixture.wait {
            try fixture.messages(of: "cal").map(\.text).sorted()
                == ["Johnny's birthday \(first) to \(first)", "Trip \(first) to \(last)"]
        }, "\(fixture.log)")
    }

    @Test func twoEventsWithoutUIDOnOneDayAreTwoMessages() throws {
        let files = try TemporaryDirectory(prefix: "calendar-source")
        let path = files.file("cal.ics")
        let today = Self.stamp(Date(), dateOnly: true)
        // Written by hand: no UIDs, two birthdays on the same day.
        try [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hand//EN",
            "BEGIN:VEVENT", "DTSTART;VALUE=DATE:\(today)", "SUMMARY:Johnny's birthday", "END:VEVENT",
            "BEGIN:VEVENT", "DTSTART;VALUE=DATE:\(today)", "SUMMARY:Mary's birthday", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "cal"
            type = "calendar"
            file = "\(path)"
            timezone = "UTC"
            template = "It's {summary}!"
            """)
        try fixture.startService()
        #expect(try fixture.wait {
            try fixture.messages(of: "cal").map(\.text).sorted() == ["It's Johnny's birthday!", "It's Mary's birthday!"]
        }, "\(fixture.log)")
        #expect(!fixture.log.contains("same key"), "\(fixture.log)")
    }

    @Test func aWindows1252CalendarIsReadAndAnUnreadableFileSaysWhy() throws {
        let files = try TemporaryDirectory(prefix: "calendar-source")
        let now = Date()
        // An older program's export: "Café" in Windows-1252 (0xE9), not UTF-8.
        var latin = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:cafe\r\n".utf8)
        latin += Data("DTSTART:\(Self.stamp(now - 3600))\r\nDTEND:\(Self.stamp(now + 3600))\r\nSUMMARY:Caf".utf8)
        latin += Data([0xE9]) + Data(" open\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        try latin.write(to: URL(fileURLWithPath: files.file("latin.ics")))
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "latin"
            type = "calendar"
            file = "\(files.file("latin.ics"))"
            template = "{summary}"

            [[source]]
            name = "folder"
            type = "calendar"
            file = "\(files.path)"
            template = "{summary}"
            """)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "latin").map(\.text) == ["Café open"] }, "\(fixture.log)")
        #expect(fixture.log.contains("latin.ics: line 8 is not UTF-8"), "\(fixture.log)")
        #expect(fixture.wait { fixture.log.contains("cannot read \(files.path): Is a directory") }, "\(fixture.log)")
    }

    @Test func theNewestFeedItemsAreMessagesWithTheirLinks() throws {
        let folder = try TemporaryDirectory(prefix: "feed-source")
        let fixtures = PythonVenv.repositoryRoot + "/Tests/Fixtures/feeds"
        try FileManager.default.copyItem(atPath: fixtures + "/blog-atom.xml", toPath: folder.file("blog.xml"))
        let (server, port) = try Self.serve(folder)
        defer { server.kill(SIGTERM); _ = try? server.wait(timeout: .seconds(30)) }
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "blog"
            type = "feed"
            url = "http://127.0.0.1:\(port)/blog.xml"
            count = 2
            interval = "1s"
            template = "{feed}: {title}"
            """)
        try fixture.startService()
        #expect(try fixture.wait {
            try fixture.messages(of: "blog").map(\.text).sorted() == ["A Blog: Fixing the build", "A Blog: Release 2.0 is out"]
        })
        let links = try fixture.messages(of: "blog").compactMap(\.link).sorted()
        #expect(links == ["https://blog.example.net/archive/2026/fixing-the-build.html", "https://blog.example.net/posts/release-2"])
        // Conditional GETs: the next fetches are answered 304 and the messages stay.
        #expect(server.waitForOutput(timeout: .seconds(10)) { $0.contains("-> 304") })
        #expect(try fixture.messages(of: "blog").count == 2)

        // The feed breaks: logged with what is wrong; the items stay (until their TTL).
        try "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>".write(toFile: folder.file("blog.xml"), atomically: true, encoding: .utf8)
        #expect(fixture.wait { fixture.log.contains("not well-formed XML") }, "\(fixture.log)")
        #expect(try fixture.messages(of: "blog").count == 2)
    }

    /// Starts `serve.py` on `folder` (with `arguments` first); returns the server and its port.
    static func serve(_ folder: TemporaryDirectory, _ arguments: [String] = []) throws -> (ChildProcess, Int) {
        let script = PythonVenv.repositoryRoot + "/Tests/Fixtures/feeds/serve.py"
        let server = try ChildProcess(try PythonVenv.python(), [script] + arguments + [folder.path])
        #expect(server.waitForOutput(timeout: .seconds(30)) { $0.contains("\n") })
        let port = try #require(server.standardOutput.split(separator: "\n").first.flatMap { Int($0.dropFirst(5)) })
        return (server, port)
    }

    /// How many requests the server's log `output` shows answered with `status`.
    static func answered(_ output: String, _ status: Int) -> Int {
        output.split(separator: "\n").filter { $0.hasSuffix("-> \(status)") }.count
    }

    @Test func aFeedFetchedAgainUnchangedPostsNothingAndOnlyRenews() throws {
        let folder = try TemporaryDirectory(prefix: "feed-unchanged")
        let fixtures = PythonVenv.repositoryRoot + "/Tests/Fixtures/feeds"
        try FileManager.default.copyItem(atPath: fixtures + "/news-rss2.xml", toPath: folder.file("news.xml"))
        // No validators: every fetch gets the whole (same) document with a 200.
        let (server, port) = try Self.serve(folder, ["--no-validators"])
        defer { server.kill(SIGTERM); _ = try? server.wait(timeout: .seconds(30)) }
        let fixture = try SourcesFixture(sources: """
            lease = "3s"

            [[source]]
            name = "news"
            type = "feed"
            url = "http://127.0.0.1:\(port)/news.xml"
            count = 3
            interval = "1s"
            template = "{title}"
            """)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "news").count == 3 }, "\(fixture.log)")
        let texts = try fixture.messages(of: "news").map(\.text).sorted()
        let ends = Dictionary(try fixture.messages(of: "news").map { ($0.id, $0.end ?? 0) }) { first, _ in first }

        // Everything tickerd signals from now on.
        let monitor = try ChildProcess("dbus-monitor", ["--address", fixture.address, "type='signal'"])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })
        let fetched = Self.answered(server.standardOutput, 200)

        // Three more whole fetches of the same items, and a lease renewal.
        #expect(server.waitForOutput(timeout: .seconds(15)) { Self.answered($0, 200) >= fetched + 3 })
        #expect(try fixture.wait(.seconds(5)) {
            try fixture.messages(of: "news").allSatisfy { ($0.end ?? 0) > (ends[$0.id] ?? .max) }
        })
        #expect(try fixture.messages(of: "news").map(\.text).sorted() == texts)
        let signals = monitor.standardOutput
        for member in ["MessageStarted", "MessageEnded", "PropertiesChanged"] {
            #expect(!signals.contains("member=\(member)"), "\(member) on an unchanged fetch:\n\(signals)")
        }

        // A restarted service adopts the feed's messages: it does not drop them while it fetches
        // the feed again, and posts nothing new for the same items.
        try fixture.killService()
        let served = Self.answered(server.standardOutput, 200)
        try fixture.startService()
        #expect(server.waitForOutput(timeout: .seconds(15)) { Self.answered($0, 200) >= served + 2 })
        #expect(try fixture.messages(of: "news").map(\.text).sorted() == texts)
        let again = monitor.standardOutput
        for member in ["MessageStarted", "MessageEnded"] {
            #expect(!again.contains("member=\(member)"), "\(member) after a restart:\n\(again)")
        }
    }

    @Test func aFeedRestartedWhileItsServerIsDownKeepsItsItemsUntilTheirTTL() throws {
        let folder = try TemporaryDirectory(prefix: "feed-restart")
        let fixtures = PythonVenv.repositoryRoot + "/Tests/Fixtures/feeds"
        try FileManager.default.copyItem(atPath: fixtures + "/news-rss2.xml", toPath: folder.file("news.xml"))
        let (server, port) = try Self.serve(folder)
        defer { server.kill(SIGTERM); _ = try? server.wait(timeout: .seconds(30)) }
        let fixture = try SourcesFixture(sources: """
            lease = "2s"

            [[source]]
            name = "news"
            type = "feed"
            url = "http://127.0.0.1:\(port)/news.xml"
            count = 2
            interval = "1s"
            ttl = "8s"
            template = "{title}"
            """)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "news").count == 2 }, "\(fixture.log)")
        let texts = try fixture.messages(of: "news").map(\.text).sorted()
        #expect(server.waitForOutput(timeout: .seconds(10)) { Self.answered($0, 304) >= 1 })

        // The server goes away, then the service restarts: the last success was at most one
        // interval before the server stopped.
        server.kill(SIGTERM)
        _ = try server.wait(timeout: .seconds(30))
        let stopped = ContinuousClock.now
        try fixture.killService()
        try fixture.startService()
        #expect(fixture.wait { fixture.log.contains("keeping the last good items") }, "\(fixture.log)")

        // The items stay past two leases of the new run (the adopted messages' leases ran out
        // long before), as long as the ttl after the last success says.
        var kept = true
        fixture.wait(.seconds(10)) {
            kept = kept && ((try? fixture.messages(of: "news").map(\.text).sorted()) == texts)
            return !kept || ContinuousClock.now - stopped >= .seconds(5)
        }
        #expect(kept, "the feed's items went before their ttl:\n\(fixture.log)")
        // And they end when that ttl is over.
        #expect(try fixture.wait(.seconds(10)) { try fixture.messages(of: "news").isEmpty })
        #expect(ContinuousClock.now - stopped >= .seconds(6))
    }

    /// A feed whose document order, id order and date order all differ (two dates in other zones
    /// than UTC, two undated entries).
    static let unorderedFeed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Week</title><link>https://week.example.org/</link>
        <item><guid>a</guid><title>Tuesday</title><pubDate>Tue, 24 Nov 2026 09:00:00 +0100</pubDate></item>
        <item><guid>d</guid><title>Undated first</title></item>
        <item><guid>b</guid><title>Early Thursday in London</title><pubDate>Thu, 26 Nov 2026 02:00:00 GMT</pubDate></item>
        <item><guid>c</guid><title>Monday</title><pubDate>Mon, 23 Nov 2026 12:00:00 GMT</pubDate></item>
        <item><guid>e</guid><title>Late Wednesday in New York</title><pubDate>Wed, 25 Nov 2026 23:30:00 -0500</pubDate></item>
        <item><guid>0</guid><title>Undated second</title></item>
        </channel></rss>
        """

    @Test func feedEntriesAreOnTheTapeNewestFirstAsFeedparserDatesThem() throws {
        let folder = try TemporaryDirectory(prefix: "feed-order")
        try Self.unorderedFeed.write(toFile: folder.file("week.xml"), atomically: true, encoding: .utf8)
        let (server, port) = try Self.serve(folder)
        defer { server.kill(SIGTERM); _ = try? server.wait(timeout: .seconds(30)) }
        let url = "http://127.0.0.1:\(port)/week.xml"

        // feedparser's dates, newest first; undated entries after them in the feed's order.
        let parsed = try ChildProcess.run(
            try PythonVenv.python(), [PythonVenv.repositoryRoot + "/Tests/Fixtures/feeds/parse.py", url], timeout: .seconds(120))
        #expect(parsed.status == 0, "parse.py failed: \(parsed.stderr)")
        let entries = try parsed.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let dated = entries.filter { $0["date"] is Int }.enumerated()
            .sorted { a, b in
                let (da, db) = (a.element["date"] as? Int ?? 0, b.element["date"] as? Int ?? 0)
                return da != db ? da > db : a.offset < b.offset
            }
            .map(\.element)
        let expected = (dated + entries.filter { !($0["date"] is Int) }).compactMap { $0["title"] as? String }
        #expect(expected.count == 6)
        #expect(expected != entries.compactMap { $0["title"] as? String }, "the fixture's dates must reorder it")

        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "week"
            type = "feed"
            url = "\(url)"
            count = 6
            template = "{title}"
            """)
        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "week").count == 6 }, "\(fixture.log)")
        let sampler = try FrameSampler(address: fixture.address)
        let now = Int64(Date().timeIntervalSince1970 * 1e6)
        let frame = try #require(try sampler.frames(channel: "main", columns: 400, at: [now]).first)
        let tape = frame.text.trimmingCharacters(in: .whitespaces).components(separatedBy: "  •  ")
        #expect(tape == expected)
    }
}
