import Foundation
import Testing
import TestSupport

/// A source taken out of `sources.toml` used to leave its state file behind for good. The real
/// service with a real tickerd on a private bus: at start and at a SIGHUP reload it removes the
/// state files of sources no longer configured, and nothing else.
@Suite(.serialized) struct StateTidyingTests {
    static let notes = """

        [[source]]
        name = "notes"
        type = "notifications"
        channel = "alerts"
        template = "{summary}"

        """

    static let keep = """

        [[source]]
        name = "keep"
        type = "command"
        command = "echo kept"
        interval = "1s"
        template = "{output}"

        """

    /// The names in the state folder.
    static func files(_ fixture: SourcesFixture) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: fixture.statePath))
    }

    @Test func stateFilesOfSourcesNoLongerConfiguredGoAtStartAndAtReload() throws {
        let fixture = try SourcesFixture(sources: Self.keep + Self.notes)
        let files = FileManager.default
        try files.createDirectory(atPath: fixture.statePath, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String = "{}") throws {
            try text.write(toFile: fixture.statePath + "/" + name, atomically: false, encoding: .utf8)
        }
        // An earlier run's notifications, under a configured source: kept, and taken up; a
        // further file of that source is kept too.
        try write("notifications-notes.json", #"{"entries":[],"nextID":70}"#)
        try write("notifications-notes.extra.json")
        // Left by sources that are gone: a feed, an mqtt source, a half-written save, and `keep`
        // when it was a feed (now a command).
        let orphans = ["feed-news.json", "mqtt-fleet.json", "mqtt-fleet.settings.json", ".feed-old.json.new", "feed-keep.json"]
        for name in orphans { try write(name) }
        // Not named as the service names its files, or not a plain file: never touched.
        let others = ["notes.txt", "feed-.json", "feed-a b.json", "feed-news.json.bak", "weather-news.json", "state.json",
                      "mqtt-fleet.Settings.json", "mqtt-fleet..json", "mqtt-fleet.v2.json"]
        for name in others { try write(name) }
        try files.createDirectory(atPath: fixture.statePath + "/feed-folder.json", withIntermediateDirectories: false)
        let outside = fixture.directory.file("outside.json")
        try "{}".write(toFile: outside, atomically: false, encoding: .utf8)
        try files.createSymbolicLink(atPath: fixture.statePath + "/mqtt-link.json", withDestinationPath: outside)

        try fixture.startService()
        #expect(try fixture.wait { try fixture.messages(of: "keep").map(\.text) == ["kept"] }, "\(fixture.log)")
        try NotificationTests.waitForServer(fixture)
        let kept = Set(["notifications-notes.json", "notifications-notes.extra.json", "feed-folder.json", "mqtt-link.json"] + others)
        #expect(try Self.files(fixture) == kept, "\(fixture.log)")
        #expect(files.fileExists(atPath: outside))
        for name in orphans {
            #expect(fixture.wait { fixture.log.contains("removed \(fixture.statePath)/\(name): the saved state of a source no longer configured") },
                    "\(fixture.log)")
        }
        // The configured source's file was read, not replaced: its next id goes on.
        let id = try fixture.ok("notify-send", ["-p", "-t", "0", "-a", "Mail", "Kept", "state"])
        #expect(id.trimmingCharacters(in: .whitespacesAndNewlines) == "70")
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["Kept"] })

        // The notifications source is taken out; SIGHUP: its file goes, the rest stays.
        try Self.keep.write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
        fixture.service?.kill(SIGHUP)
        #expect(fixture.wait { fixture.log.contains("reloaded: 0 started, 0 restarted, 1 removed, 1 running") }, "\(fixture.log)")
        #expect(fixture.log.contains("removed \(fixture.statePath)/notifications-notes.json"), "\(fixture.log)")
        #expect(try Self.files(fixture) == kept.subtracting(["notifications-notes.json", "notifications-notes.extra.json"]), "\(fixture.log)")
        #expect(try fixture.wait { try fixture.messages(of: "notes").isEmpty })
        #expect(try fixture.messages(of: "keep").map(\.text) == ["kept"])
        #expect(fixture.service?.hasExited == false)
    }
}
