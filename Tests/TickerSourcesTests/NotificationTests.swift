import Foundation
import Testing
import TestSupport

/// The notification server against real clients: notify-send (libnotify) and gdbus.
@Suite(.serialized) struct NotificationTests {
    static let config = """
        [[source]]
        name = "notes"
        type = "notifications"
        channel = "alerts"
        template = "{app}: {summary} / {body}"
        default_ttl = "3s"
        """

    /// Waits until tickerd-sources owns org.freedesktop.Notifications on the fixture's bus.
    static func waitForServer(_ fixture: SourcesFixture) throws {
        let owned = try fixture.wait {
            try ChildProcess.run("busctl", ["--address=\(fixture.address)", "status", "org.freedesktop.Notifications"]).status == 0
        }
        #expect(owned, "\(fixture.log)")
    }

    func notifySend(_ fixture: SourcesFixture, _ arguments: [String]) throws -> String {
        try fixture.ok("notify-send", arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func notificationsBecomeMessagesWithTheirTimeoutUrgencyAndReplacement() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        try Self.waitForServer(fixture)

        // Markup is stripped, entities decoded, whitespace made single.
        let id = try notifySend(fixture, ["-p", "-a", "Mail", "New <b>mail</b>", "from Ann &amp; Bob\n<i>see</i> inbox"])
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["Mail: New mail / from Ann & Bob see inbox"] })
        let posted = try #require(try fixture.messages(of: "notes").first)
        #expect(posted.id == "src/notes/\(id)" && posted.channel == "alerts" && !posted.urgent)
        // Timeout -1 (notify-send's default): the configured 3 s.
        let now = Int64(Date().timeIntervalSince1970 * 1e6)
        #expect(try #require(posted.end) <= now + 3_000_000)

        // replaces_id updates in place.
        _ = try notifySend(fixture, ["-r", id, "-a", "Mail", "Two new mails", "Ann, Bob"])
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["Mail: Two new mails / Ann, Bob"] })
        #expect(try fixture.messages(of: "notes").map(\.id) == ["src/notes/\(id)"])

        // Critical is urgent; an explicit timeout ends it by itself (long enough to be seen first
        // on a machine slowed by sanitizers: 600 ms could pass before the first look).
        _ = try notifySend(fixture, ["-u", "critical", "-t", "2500", "-a", "Power", "Battery low", "5%"])
        #expect(try fixture.wait { try fixture.messages(of: "notes").contains { $0.text == "Power: Battery low / 5%" && $0.urgent } })
        #expect(try fixture.wait(.seconds(8)) { try !fixture.messages(of: "notes").contains { $0.text.hasPrefix("Power") } })
        // And the default timeout ends the first one.
        #expect(try fixture.wait(.seconds(5)) { try fixture.messages(of: "notes").isEmpty })
    }

    @Test func aNotificationUntilClosedOutlivesARestartUntilItIsClosed() throws {
        let fixture = try SourcesFixture(sources: "lease = \"2s\"\n\n" + Self.config)
        try fixture.startService()
        try Self.waitForServer(fixture)
        let shown = ["Backup: Disk full / free some space"]
        let id = try notifySend(fixture, ["-p", "-t", "0", "-a", "Backup", "Disk full", "free some space"])
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == shown })
        // What it said is kept where only the user can read it.
        let saved = try FileManager.default.attributesOfItem(atPath: fixture.statePath + "/notifications-notes.json")
        let folder = try FileManager.default.attributesOfItem(atPath: fixture.statePath)
        #expect((saved[.posixPermissions] as? Int) == 0o600 && (folder[.posixPermissions] as? Int) == 0o700)

        // The service restarts (killed: no chance to tidy up): the notification stays past two
        // leases of the new run, under its id.
        try fixture.killService()
        let restarted = ContinuousClock.now
        try fixture.startService()
        try Self.waitForServer(fixture)
        var kept = true
        fixture.wait(.seconds(10)) {
            kept = kept && ((try? fixture.messages(of: "notes").map(\.id)) == ["src/notes/\(id)"])
            return !kept || ContinuousClock.now - restarted >= .seconds(5)
        }
        #expect(kept, "the notification went at the restart:\n\(fixture.log)")
        #expect(try fixture.messages(of: "notes").map(\.text) == shown)

        // Its sender closes it with the id it was given: it goes, and is signalled closed (3).
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',interface='org.freedesktop.Notifications'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })
        try fixture.ok("gdbus", [
            "call", "--address", fixture.address, "--dest", "org.freedesktop.Notifications",
            "--object-path", "/org/freedesktop/Notifications",
            "--method", "org.freedesktop.Notifications.CloseNotification", id,
        ])
        #expect(try fixture.wait { try fixture.messages(of: "notes").isEmpty })
        #expect(monitor.waitForOutput(timeout: .seconds(5)) {
            $0.contains("member=NotificationClosed\n   uint32 \(id)\n   uint32 3")
        }, "\(monitor.standardOutput)")
    }

    @Test func aRestartedAppHearsTheActionAndCloseOfItsRestoredNotifications() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        try Self.waitForServer(fixture)
        // The app (gdbus: one connection per call, so its unique name goes when it exits) posts
        // two notifications that stay until closed, one with a default action.
        let gdbus = ["call", "--address", fixture.address, "--dest", "org.freedesktop.Notifications",
                     "--object-path", "/org/freedesktop/Notifications", "--method"]
        func notify(_ summary: String, actions: String) throws -> String {
            let reply = try fixture.ok("gdbus", gdbus + [
                "org.freedesktop.Notifications.Notify", "Mail", "0", "", summary, "", actions, "{}", "0",
            ])
            return try #require(reply.split(separator: " ").last.map { $0.filter(\.isNumber) })
        }
        let clicked = try notify("Clicked later", actions: "['default', 'Open']")
        let closed = try notify("Closed later", actions: "[]")
        #expect(try fixture.wait { try fixture.messages(of: "notes").count == 2 })

        // tickerd-sources restarts and takes them up under the same ids.
        try fixture.killService()
        try fixture.startService()
        try Self.waitForServer(fixture)
        #expect(fixture.wait { fixture.log.contains("went on with 2 notifications") }, "\(fixture.log)")

        // The app, started again, is a new connection with a new unique name: an ordinary match
        // rule on the server's signals (gdbus monitor; not an eavesdropping dbus-monitor).
        let app = try ChildProcess("gdbus", [
            "monitor", "--address", fixture.address, "--dest", "org.freedesktop.Notifications",
            "--object-path", "/org/freedesktop/Notifications",
        ])
        defer { app.kill() }
        #expect(app.waitForOutput(timeout: .seconds(5)) { $0.contains("org.freedesktop.Notifications is owned by") },
                "\(app.standardOutput)")

        // A click on the message: the app hears ActionInvoked and NotificationClosed (2).
        try fixture.ok("busctl", ["--address=\(fixture.address)", "call", "io.github.tickerd.Ticker1",
                                  "/io/github/tickerd/Ticker1/channel/alerts", "io.github.tickerd.Ticker1.Channel",
                                  "Activate", "s", "src/notes/\(clicked)"])
        #expect(app.waitForOutput(timeout: .seconds(5)) {
            $0.contains("org.freedesktop.Notifications.ActionInvoked (uint32 \(clicked), 'default')")
                && $0.contains("org.freedesktop.Notifications.NotificationClosed (uint32 \(clicked), uint32 2)")
        }, "\(app.standardOutput)\n\(fixture.log)")
        // The app closes the other by the id it kept: it hears NotificationClosed (3).
        try fixture.ok("gdbus", gdbus + ["org.freedesktop.Notifications.CloseNotification", closed])
        #expect(app.waitForOutput(timeout: .seconds(5)) {
            $0.contains("org.freedesktop.Notifications.NotificationClosed (uint32 \(closed), uint32 3)")
        }, "\(app.standardOutput)")
        #expect(try fixture.wait { try fixture.messages(of: "notes").isEmpty })
    }

    @Test func aLongOrBidiMarkedNotificationIsShownNotRefused() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        try Self.waitForServer(fixture)
        // A build log of 5000 characters: over tickerd's 4096, so it is cut, not lost.
        _ = try notifySend(fixture, ["-a", "CI", "Build failed", String(repeating: "e", count: 5000)])
        // Chat clients wrap user names in bidi isolates, which tickerd refuses.
        _ = try notifySend(fixture, ["-a", "Chat", "\u{2068}Ann\u{2069}", "says \u{200E}hi"])
        #expect(try fixture.wait { try fixture.messages(of: "notes").count == 2 }, "\(fixture.log)")
        let texts = try fixture.messages(of: "notes").map(\.text)
        #expect(texts.contains("Chat: Ann / says hi"))
        let long = try #require(texts.first { $0.hasPrefix("CI: Build failed / eee") })
        #expect(long.count == 4096 && long.hasSuffix("e…"))
        #expect(!fixture.log.contains("refused"))
    }

    @Test func aFixedReplacesIDOrAStackTagShowsOneMessage() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        try Self.waitForServer(fixture)
        // A volume key script: every press sends `notify-send -r 4242`, whether or not the last
        // one is still shown.
        for level in ["50%", "55%", "60%"] {
            #expect(try notifySend(fixture, ["-p", "-r", "4242", "-a", "Volume", "Volume", level]) == "4242")
        }
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["Volume: Volume / 60%"] })
        #expect(try fixture.messages(of: "notes").map(\.id) == ["src/notes/4242"])
        // New notifications still get ids of their own, never one in use.
        let other = try notifySend(fixture, ["-p", "-a", "Mail", "New mail", "Ann"])
        #expect(other != "4242")
        #expect(try fixture.wait { try fixture.messages(of: "notes").count == 2 })

        // Other scripts send a stack tag instead (dunst's, or notify-osd's synchronous hint): the
        // app's notification with that tag is replaced; another app's tag is its own.
        var ids: Set<String> = []
        for level in ["10%", "20%"] {
            ids.insert(try notifySend(fixture, ["-p", "-a", "Light", "-h", "string:x-dunst-stack-tag:level", "Brightness", level]))
        }
        ids.insert(try notifySend(fixture, ["-p", "-a", "Light", "-h", "string:x-canonical-private-synchronous:level", "Brightness", "30%"]))
        #expect(ids.count == 1)
        _ = try notifySend(fixture, ["-p", "-a", "Sound", "-h", "string:x-dunst-stack-tag:level", "Volume", "70%"])
        #expect(try fixture.wait {
            try fixture.messages(of: "notes").map(\.text).sorted()
                == ["Light: Brightness / 30%", "Mail: New mail / Ann", "Sound: Volume / 70%", "Volume: Volume / 60%"]
        }, "\(fixture.log)")
    }

    @Test func gdbusSeesTheSpecMethodsAndSignals() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        try Self.waitForServer(fixture)
        let gdbus = ["call", "--address", fixture.address, "--dest", "org.freedesktop.Notifications",
                     "--object-path", "/org/freedesktop/Notifications", "--method"]
        let capabilities = try fixture.ok("gdbus", gdbus + ["org.freedesktop.Notifications.GetCapabilities"])
        #expect(capabilities.contains("'body'") && capabilities.contains("'actions'"))
        // The body's markup is read (tags removed, entities decoded), so the server says so: a
        // client that follows the spec then escapes a literal '<' as &lt; rather than sending
        // plain text whose "<ann@example.org>" would be taken for a tag and lost.
        #expect(capabilities.contains("'body-markup'"))
        let escaped = try fixture.ok("gdbus", gdbus + [
            "org.freedesktop.Notifications.Notify", "Mail", "0", "", "New mail",
            "From Ann &lt;ann@example.org&gt; &amp; Bob", "[]", "{}", "5000",
        ])
        let escapedID = try #require(escaped.split(separator: " ").last.map { $0.filter(\.isNumber) })
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["Mail: New mail / From Ann <ann@example.org> & Bob"] })
        try fixture.ok("gdbus", gdbus + ["org.freedesktop.Notifications.CloseNotification", escapedID])
        #expect(try fixture.wait { try fixture.messages(of: "notes").isEmpty })
        let information = try fixture.ok("gdbus", gdbus + ["org.freedesktop.Notifications.GetServerInformation"])
        #expect(information.contains("'tickerd-sources'") && information.contains("'1.2'"))

        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',interface='org.freedesktop.Notifications'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("NameAcquired") })
        let reply = try fixture.ok("gdbus", gdbus + [
            "org.freedesktop.Notifications.Notify", "gdbus", "0", "", "Build finished", "all green",
            "['default', 'Open']", "{'urgency': <byte 2>}", "0",
        ])
        let id = try #require(reply.split(separator: " ").last.map { $0.filter(\.isNumber) })
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["gdbus: Build finished / all green"] })
        #expect(try fixture.messages(of: "notes").first?.urgent == true)

        // A click on the message invokes the default action and closes it (reason 2).
        try fixture.ok("busctl", ["--address=\(fixture.address)", "call", "io.github.tickerd.Ticker1",
                                  "/io/github/tickerd/Ticker1/channel/alerts", "io.github.tickerd.Ticker1.Channel",
                                  "Activate", "s", "src/notes/\(id)"])
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("member=ActionInvoked") && $0.contains("string \"default\"") })
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("member=NotificationClosed") })
        #expect(try fixture.wait { try fixture.messages(of: "notes").isEmpty })

        // CloseNotification ends a notification that never expires (timeout 0) with reason 3.
        let second = try fixture.ok("gdbus", gdbus + [
            "org.freedesktop.Notifications.Notify", "gdbus", "0", "", "Pinned", "", "[]", "{}", "0",
        ])
        let secondID = try #require(second.split(separator: " ").last.map { $0.filter(\.isNumber) })
        #expect(try fixture.wait { try fixture.messages(of: "notes").count == 1 })
        try fixture.ok("gdbus", gdbus + ["org.freedesktop.Notifications.CloseNotification", secondID])
        #expect(try fixture.wait { try fixture.messages(of: "notes").isEmpty })
        #expect(monitor.waitForOutput(timeout: .seconds(5)) { $0.contains("uint32 \(secondID)\n   uint32 3") })

        // A malformed hint is logged, naming the source and what was wrong; the notification shows.
        try fixture.ok("gdbus", gdbus + [
            "org.freedesktop.Notifications.Notify", "odd", "0", "", "Odd hint", "", "['default']",
            "{'urgency': <'very'>}", "int32 -1",
        ])
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["odd: Odd hint / "] })
        #expect(fixture.log.contains("source=notes") && fixture.log.contains("hint 'urgency' is s, not a byte"), "\(fixture.log)")
        #expect(fixture.log.contains("the odd last one is ignored"))
        #expect(fixture.service?.hasExited == false)
    }

    @Test func anotherServerKeepsTheNameAndThisSourceStaysIdle() throws {
        let fixture = try SourcesFixture(sources: Self.config)
        try fixture.startService()
        try Self.waitForServer(fixture)
        let directory = try TemporaryDirectory(prefix: "second-sources")
        try """
            [[source]]
            name = "other"
            type = "notifications"
            template = "{summary}"

            [[source]]
            name = "still"
            type = "command"
            command = "echo still here"
            interval = "1s"
            template = "{output}"
            """.write(toFile: directory.file("sources.toml"), atomically: true, encoding: .utf8)
        // Its own state folder, never the user's.
        let second = try ChildProcess(TickerdProcess.binary("tickerd-sources"), [
            "--bus", fixture.address, "--config", directory.file("sources.toml"), "--state", directory.file("state"),
        ])
        defer { second.kill(SIGKILL) }
        #expect(second.waitForError(timeout: .seconds(10)) { $0.contains("owns org.freedesktop.Notifications; this source stays idle") })
        // Its other sources run; the notification goes to the first server only.
        #expect(try fixture.wait { try fixture.messages(of: "still").map(\.text) == ["still here"] })
        _ = try notifySend(fixture, ["-a", "Chat", "Hi", "there"])
        #expect(try fixture.wait { try fixture.messages(of: "notes").map(\.text) == ["Chat: Hi / there"] })
        #expect(try fixture.messages(of: "other").isEmpty)
    }

    @Test func aNotificationWithoutABodyHasNoDanglingSeparator() throws {
        let fixture = try SourcesFixture(sources: """
            [[source]]
            name = "notes"
            type = "notifications"
            template = "{app}: {summary}[ — {body}]"
            """)
        try fixture.startService()
        try Self.waitForServer(fixture)
        let texts = { try fixture.messages(of: "notes").map(\.text) }

        let bare = try notifySend(fixture, ["-p", "-a", "Firefox", "Download complete"])
        #expect(try fixture.wait { try texts() == ["Firefox: Download complete"] }, "\(String(describing: try? texts()))")
        // The same notification given a body shows it after the separator.
        _ = try notifySend(fixture, ["-r", bare, "-a", "Firefox", "Download complete", "report.pdf"])
        #expect(try fixture.wait { try texts() == ["Firefox: Download complete — report.pdf"] },
                "\(String(describing: try? texts()))")
        // A body that is only markup or white space is empty once made plain text.
        _ = try notifySend(fixture, ["-r", bare, "-a", "Firefox", "Download complete", "<b> </b>"])
        #expect(try fixture.wait { try texts() == ["Firefox: Download complete"] }, "\(String(describing: try? texts()))")
    }
}
