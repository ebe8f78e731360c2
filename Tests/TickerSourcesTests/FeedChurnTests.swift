import Foundation
import Testing
import TestSupport

/// A feed source against a real HTTP server whose feeds change the way real ones do, with the
/// real service and tickerd, watched with busctl and dbus-monitor: what did not change is not
/// dropped and posted again, and one feed's trouble is no other source's.
@Suite(.serialized) struct FeedChurnTests {
    /// An RSS document of `items` (title, guid or nil, link or nil), undated, in that order.
    static func rss(_ items: [(String, String?, String?)]) -> String {
        let entries = items.map { title, guid, link in
            "<item><title>\(title)</title>" + (guid.map { "<guid isPermaLink=\"false\">\($0)</guid>" } ?? "")
                + (link.map { "<link>\($0)</link>" } ?? "") + "</item>"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Churn</title>\n"
            + entries.joined(separator: "\n") + "\n</channel></rss>\n"
    }

    /// How many lines of a server's log `output` show `path` answered with 200.
    static func served(_ output: String, _ path: String) -> Int {
        output.split(separator: "\n").filter { $0.hasPrefix(path + " ") && $0.hasSuffix("-> 200") }.count
    }

    /// The tape of channel main as its Timeline says (read with busctl), or nil.
    static func tape(_ fixture: SourcesFixture) throws -> String? {
        let output = try ChildProcess.run("busctl", [
            "--address=\(fixture.address)", "--json=short", "get-property", "io.github.tickerd.Ticker1",
            "/io/github/tickerd/Ticker1/channel/main", "io.github.tickerd.Ticker1.Channel", "Timeline",
        ])
        let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let timeline = json?["data"] as? [String: [String: Any]]
        return timeline?["tape"]?["data"] as? String
    }

    @Test func reorderedRepeatedAndEditedItemsChangeOnlyWhatChanged() throws {
        let folder = try TemporaryDirectory(prefix: "feed-churn")
        let path = folder.file("churn.xml")
        // Two entries share a GUID (a feed that repeats one), one has no GUID (keyed by its
        // link); five entries, four distinct, and count = 4.
        let first: [(String, String?, String?)] = [
            ("Alpha", "a", "https://churn.example.org/a"), ("Beta", "b", "https://churn.example.org/b"),
            ("Repeated first", "dup", "https://churn.example.org/d1"), ("Repeated second", "dup", "https://churn.example.org/d2"),
            ("No GUID", nil, "https://churn.example.org/n"),
        ]
        try Self.rss(first).write(toFile: path, atomically: true, encoding: .utf8)
        let (server, port) = try CalendarFeedSourceTests.serve(folder)
        defer { server.kill(SIGTERM); _ = try? server.wait(timeout: .seconds(30)) }
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "churn"
            type = "feed"
            url = "http://127.0.0.1:\(port)/churn.xml"
            count = 4
            interval = "1s"
            template = "{title}"
            """)
        try fixture.startService()
        let expected = ["Alpha", "Beta", "No GUID", "Repeated first"]
        #expect(try fixture.wait { try fixture.messages(of: "churn").map(\.text).sorted() == expected }, "\(fixture.log)")
        let ids = try fixture.messages(of: "churn").map(\.id).sorted()
        #expect(ids == ["src/churn/a", "src/churn/b", "src/churn/dup", "src/churn/https://churn.example.org/n"])

        // Posted messages join the tape when the pending change settles: watch from then on.
        #expect(try fixture.wait { try Self.tape(fixture).map { tape in expected.allSatisfy(tape.contains) } == true })
        let monitor = try ChildProcess("dbus-monitor", ["--address", fixture.address, "type='signal'"])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })

        // The same entries in another order (the repeated GUID keeps its first): nothing changes.
        try Self.rss([first[4], first[1], first[2], first[0], first[3]]).write(toFile: path, atomically: true, encoding: .utf8)
        // The new document is served (200), then fetched once more (304).
        let before = Self.served(server.standardOutput, "/churn.xml")
        #expect(server.waitForOutput(timeout: .seconds(10)) { Self.served($0, "/churn.xml") > before })
        let requests = server.standardOutput.split(separator: "\n").count
        #expect(server.waitForOutput(timeout: .seconds(10)) { $0.split(separator: "\n").count > requests })
        #expect(try fixture.messages(of: "churn").map(\.text).sorted() == expected)
        for member in ["MessageStarted", "MessageEnded", "PropertiesChanged"] {
            #expect(!monitor.standardOutput.contains("member=\(member)"), "\(member) on a reordered feed:\n\(monitor.standardOutput)")
        }

        // Entries edited in place (by GUID, and by link without one): the same messages, new text.
        try Self.rss([first[4], ("Beta, corrected", "b", "https://churn.example.org/b"), first[2], first[0], first[3]]
                .map { $0.1 == nil ? ("No GUID, corrected", nil, $0.2) : $0 })
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try fixture.wait {
            try fixture.messages(of: "churn").map(\.text).sorted() == ["Alpha", "Beta, corrected", "No GUID, corrected", "Repeated first"]
        }, "\(fixture.log)")
        #expect(try fixture.messages(of: "churn").map(\.id).sorted() == ids)
        for member in ["MessageStarted", "MessageEnded"] {
            #expect(!monitor.standardOutput.contains("member=\(member)"), "\(member) on an edited entry:\n\(monitor.standardOutput)")
        }
        #expect(!fixture.log.contains("same key"), "\(fixture.log)")
    }

    @Test func aFeedWhoseServerHangsHoldsUpNoOtherFeedOnThatServer() throws {
        let folder = try TemporaryDirectory(prefix: "feed-slow")
        let fixtures = PythonVenv.repositoryRoot + "/Tests/Fixtures/feeds"
        try FileManager.default.copyItem(atPath: fixtures + "/news-rss2.xml", toPath: folder.file("slow.xml"))
        try FileManager.default.copyItem(atPath: fixtures + "/blog-atom.xml", toPath: folder.file("blog.xml"))
        try "".write(toFile: folder.file("slow.xml.trickle"), atomically: true, encoding: .utf8)
        let (server, port) = try CalendarFeedSourceTests.serve(folder)
        defer { server.kill(SIGTERM); _ = try? server.wait(timeout: .seconds(30)) }
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "slow"
            type = "feed"
            url = "http://127.0.0.1:\(port)/slow.xml"
            interval = "1s"
            template = "{title}"

            [[source]]
            name = "blog"
            type = "feed"
            url = "http://127.0.0.1:\(port)/blog.xml"
            count = 2
            interval = "1s"
            template = "{title}"
            """)
        try fixture.startService()
        #expect(server.waitForOutput(timeout: .seconds(10)) { $0.contains("/slow.xml trickling") })
        // While the slow feed's answer trickles in, the other feed is shown and fetched every
        // interval, as if the slow one were not there.
        #expect(try fixture.wait { try fixture.messages(of: "blog").count == 2 }, "\(fixture.log)")
        let fetches = server.standardOutput.split(separator: "\n").filter { $0.hasPrefix("/blog.xml ") }.count
        #expect(server.waitForOutput(timeout: .seconds(15)) { output in
            output.split(separator: "\n").filter { $0.hasPrefix("/blog.xml ") }.count >= fetches + 3
        }, "\(server.standardOutput)")
        #expect(!server.standardOutput.contains("/slow.xml if-none-match"), "the slow feed's answer finished")
        #expect(try fixture.messages(of: "slow").isEmpty)
    }
}
