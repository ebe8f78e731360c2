import Foundation
import Testing
import TestSupport

/// SIGHUP reads `sources.toml` again: the real service and a real tickerd on a private bus,
/// with dbus-monitor as the independent witness of every message that starts or ends.
@Suite(.serialized) struct ReloadTests {
    /// A command source `name` printing `text`, as a `[[source]]` table.
    static func command(_ name: String, _ text: String, comment: String = "") -> String {
        """

        [[source]]\(comment)
        name = "\(name)"
        type = "command"
        command = "echo \(text)"
        interval = "300ms"
        template = "{output}"

        """
    }

    /// The texts tickerd holds of the service's sources, by message id.
    static func texts(_ fixture: SourcesFixture) throws -> [String: String] {
        Dictionary(try fixture.list().filter { $0.id.hasPrefix("src/") }.map { ($0.id, $0.text) }) { first, _ in first }
    }

    /// Watches tickerd's `MessageStarted` and `MessageEnded` signals.
    static func monitor(_ fixture: SourcesFixture) throws -> ChildProcess {
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',interface='io.github.tickerd.Ticker1.Manager'",
        ])
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })
        return monitor
    }

    @Test func sighupStartsAddedStopsRemovedAndRestartsChangedSources() throws {
        let fixture = try SourcesFixture(sources: Self.command("keep", "kept") + Self.command("gone", "going")
            + Self.command("change", "before"))
        try fixture.startService()
        #expect(try fixture.wait { try Self.texts(fixture) == [
            "src/keep/output": "kept", "src/gone/output": "going", "src/change/output": "before",
        ] })
        let monitor = try Self.monitor(fixture)
        defer { monitor.kill() }

        // `keep` moves and gains a comment (same keys and values: not a change), `gone` goes,
        // `change` runs another command, `added` is new.
        try (Self.command("change", "after") + Self.command("added", "new")
            + Self.command("keep", "kept", comment: "  # unchanged"))
            .write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
        fixture.service?.kill(SIGHUP)
        #expect(try fixture.wait { try Self.texts(fixture) == [
            "src/keep/output": "kept", "src/change/output": "after", "src/added/output": "new",
        ] }, "\((try? Self.texts(fixture)) ?? [:])\n\(fixture.log)")
        #expect(fixture.wait { fixture.log.contains("reloaded: 1 started, 1 restarted, 1 removed, 3 running") }, "\(fixture.log)")

        // Removed at once (the lease is 30 s), announced as ended; the new one started.
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("src/gone/output") && $0.contains("src/added/output") })
        // The unchanged source and the restarted one keep their messages: no end, no new start
        // over a few of their commands' runs.
        let deadline = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < deadline {
            #expect(try Self.texts(fixture)["src/keep/output"] == "kept")
        }
        #expect(!monitor.standardOutput.contains("src/keep/output"), "\(monitor.standardOutput)")
        #expect(!monitor.standardOutput.contains("src/change/output"), "\(monitor.standardOutput)")
        #expect(fixture.service?.hasExited == false)
    }

    @Test func aBrokenFileIsLoggedWithFileLineAndKeyAndTheSourcesRunOn() throws {
        let lease = "lease = \"3s\"\n"
        let fixture = try SourcesFixture(sources: lease + Self.command("keep", "kept"))
        try fixture.startService()
        #expect(try fixture.wait { try Self.texts(fixture) == ["src/keep/output": "kept"] })
        let monitor = try Self.monitor(fixture)
        defer { monitor.kill() }

        // A misspelt key of the second source.
        let broken = lease + Self.command("keep", "other") + """
            [[source]]
            name = "typo"
            commnd = "echo x"
            type = "command"
            template = "{output}"
            """
        try broken.write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
        fixture.service?.kill(SIGHUP)
        let line = try #require(broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("commnd") }) + 1
        let expected = "\(fixture.configPath):\(line): source[2].commnd:"
        #expect(fixture.wait { fixture.log.contains(expected) }, "\(fixture.log)")
        #expect(fixture.log.contains("reload refused"), "\(fixture.log)")
        // The running configuration stays: the old text, renewed, never ended.
        let end = try #require(try fixture.messages(of: "keep").first?.end)
        #expect(try fixture.wait(.seconds(5)) { (try fixture.messages(of: "keep").first?.end ?? 0) > end })
        #expect(try Self.texts(fixture) == ["src/keep/output": "kept"])
        #expect(!monitor.standardOutput.contains("src/keep/output"), "\(monitor.standardOutput)")

        // Mended: the next SIGHUP takes it.
        try (lease + Self.command("keep", "mended")).write(toFile: fixture.configPath, atomically: true, encoding: .utf8)
        fixture.service?.kill(SIGHUP)
        #expect(try fixture.wait { try Self.texts(fixture) == ["src/keep/output": "mended"] }, "\(fixture.log)")
        #expect(fixture.service?.hasExited == false)
    }
}
