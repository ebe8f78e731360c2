import Foundation
import Testing
import TestSupport

/// Windows that have closed for good, or never close: a Post whose window can never show is refused
/// (whatever the kind of window), the file's closed messages are skipped, and an endless TTL is
/// listed with the latest possible end rather than a wrapped-around one.
@Suite struct ClosedWindowTests {
    static let invalidOption = "io.github.tickerd.Ticker1.Error.InvalidOption"

    @Test func aPostWhoseWindowHasClosedForGoodIsRefused() throws {
        let fixture = try DaemonFixture()
        let manager = DaemonFixture.managerPath
        let post = "\(DaemonFixture.control).Post"
        let past = DaemonFixture.now() - 3_600_000_000
        #expect(try fixture.gdbusErrorName(manager, post, ["main", "over", "{'end': <int64 \(past)>}"]) == Self.invalidOption)
        // A calendar whose last elapse (2020-01-01 00:00 UTC) and its hour have passed.
        #expect(try fixture.gdbusErrorName(manager, post, [
            "main", "new year 2020", "{'calendar': <'2020-01-01 UTC'>, 'duration': <int64 3600000000>}",
        ]) == Self.invalidOption)
        let message = try fixture.callFailing(
            "Post", "ssa{sv}", ["main", "new year 2020", "2", "calendar", "s", "2020-01-01 UTC", "duration", "x", "3600000000"])
        #expect(message.contains("never elapses again"), "\(message)")
        // Nothing was created.
        #expect((try fixture.call("List", "s", [""]).data.first as? [Any])?.isEmpty == true)
        // A calendar that elapsed for the last time but whose window is still open is fine.
        let open = try fixture.post("still open", options: [
            "calendar", "s", "2020-01-01 UTC", "duration", "x", "\(Int64.max)",
        ])
        #expect(try fixture.property("main", "Messages").value as? [String] == [open])
    }

    @Test func theFilesClosedMessagesAreSkipped() throws {
        let fixture = try DaemonFixture(config: """
            [[message]]
            id = "past-calendar"
            text = "New year 2020"
            calendar = "2020-01-01 UTC"
            duration = "1h"

            [[message]]
            id = "past-end"
            text = "Over"
            end = "@1600000000"

            [[message]]
            id = "daily"
            text = "Every day"
            calendar = "*-*-* 00:00:00 UTC"
            duration = "1d"
            """)
        #expect(try fixture.property("main", "Messages").value as? [String] == ["daily"])
        #expect((try fixture.call("List", "s", [""]).data.first as? [Any])?.count == 1)
        // Skipped without a word, a message that does not show left the person guessing: the
        // log names each one.
        let log = fixture.daemon.process.standardError
        for id in ["past-calendar", "past-end"] {
            #expect(log.contains("message '\(id)' skipped: its window has closed for good or can never open"), "\(log)")
        }
        #expect(!log.contains("message 'daily' skipped"))
    }

    @Test func anEndlessTimeToLiveListsTheLatestEnd() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("for ever, nearly", options: ["ttl", "x", "\(Int64.max)"])
        let list = try #require(try fixture.call("List", "s", [""]).data.first as? [Any])
        let entry = try #require(list.first as? [Any])
        let fields = try #require(entry.last as? [String: Any])
        #expect(((fields["end"] as? [String: Any])?["data"] as? NSNumber)?.int64Value == Int64.max, "\(fields)")
        #expect((fields["active"] as? [String: Any])?["data"] as? Bool == true, "\(fields)")
    }
}
