import Foundation
import Testing
import TestSupport

/// Service behaviour (DESIGN §5): readiness, restarts, reloads, bad configuration, losing the bus,
/// idle cost. Each test runs the real binary on its own private bus.
@Suite(.serialized) struct DaemonServiceTests {
    @Test func readyStatusAndStoppingReachTheNotifySocket() throws {
        let fixture = try DaemonFixture()
        let ready = try #require(fixture.daemon.notify.messages.first { $0.contains("READY=1") })
        #expect(ready.contains("STATUS=1 channel"))
        _ = try fixture.post("count me")
        let status = fixture.daemon.notify.wait(timeout: .seconds(10)) { $0.contains("STATUS=1 channel, 1 of 1 message shown") }
        #expect(status != nil)
        #expect(try fixture.daemon.stop() == 0)
        #expect(fixture.daemon.notify.wait(timeout: .seconds(5)) { $0.contains("STOPPING=1") } != nil)
    }

    @Test func sigintSavesSaysStoppingReleasesTheNameAndExitsZero() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("kept across an interrupt", options: ["id", "s", "kept"])
        let mark = fixture.daemon.notify.drain()
        fixture.daemon.signal(SIGINT)
        #expect(try fixture.daemon.process.wait(timeout: .seconds(10)) == 0)
        #expect(fixture.daemon.notify.wait(timeout: .seconds(5), after: mark) { $0.contains("STOPPING=1") } != nil)
        let names = try ChildProcess.run("busctl", ["--address=\(fixture.address)", "list", "--acquired"])
        #expect(names.status == 0)
        #expect(!names.stdout.contains(DaemonFixture.service))
        try fixture.daemon.start()
        #expect(try fixture.property("main", "Messages").value as? [String] == ["kept"])
    }

    @Test func aNotifySocketNobodyReadsNeverStallsTheDaemon() throws {
        // Each post changes STATUS=; the test reads none of it (the queue holds only a few
        // datagrams), and every post must still be answered.
        let fixture = try DaemonFixture()
        for index in 0..<40 {
            _ = try fixture.post("message \(index)", options: ["id", "s", "n\(index)"])
        }
        let list = try fixture.call("List", "s", ["main"])
        #expect((list.data.first as? [Any])?.count == 40)
        #expect(fixture.daemon.notify.wait(timeout: .seconds(5)) { $0.contains("READY=1") } != nil)
    }

    @Test func restartKeepsMessagesAndPhase() throws {
        let fixture = try DaemonFixture()
        let id = try fixture.post("A message that keeps scrolling across restarts of the daemon", options: ["priority", "i", "3"])
        _ = try fixture.post("Second message, shown after the first", channel: "side")
        let future = DaemonFixture.now() + 30_000_000
        let before = try fixture.render(columns: 24, at: future)
        let sideBefore = try fixture.render("side", columns: 7, at: future)
        let timelineBefore = try fixture.property("main", "Timeline").dictionary["anchor"] as? NSNumber

        try fixture.daemon.restart()

        let after = try fixture.render(columns: 24, at: future)
        #expect(after.text == before.text)
        #expect(after.offset == before.offset)
        #expect(try fixture.render("side", columns: 7, at: future).text == sideBefore.text)
        #expect(try fixture.property("main", "Messages").value as? [String] == [id])
        #expect(try fixture.property("main", "Timeline").dictionary["anchor"] as? NSNumber == timelineBefore)
    }

    @Test func sighupWithABrokenConfigKeepsTheOldOne() throws {
        let fixture = try DaemonFixture(config: "[channel.main]\nspeed = 20\n")
        #expect(try fixture.property("main", "Timeline").dictionary["speed"] as? Double == 20)
        try fixture.daemon.writeConfig("[channel.main]\nspeed = 30\nmode = \"sideways\"\n")
        let mark = fixture.daemon.notify.drain()
        fixture.daemon.signal(SIGHUP)
        #expect(fixture.daemon.notify.wait(timeout: .seconds(10), after: mark) { $0.contains("RELOADING=1") } != nil)
        #expect(fixture.daemon.notify.wait(timeout: .seconds(10), after: mark) { $0.contains("READY=1") } != nil)
        #expect(try fixture.property("main", "Timeline").dictionary["speed"] as? Double == 20)
        #expect(fixture.daemon.process.waitForError(timeout: .seconds(10)) { $0.contains("tickerd.toml:3: channel.main.mode") })

        // Reload() answers the same error by name, and a good file then takes effect.
        let error = try fixture.gdbusErrorName(DaemonFixture.managerPath, "\(DaemonFixture.control).Reload", [])
        #expect(error == "io.github.tickerd.Ticker1.Error.InvalidConfig")
        try fixture.daemon.writeConfig("[channel.main]\nspeed = 30\n")
        _ = try fixture.call("Reload")
        #expect(try fixture.property("main", "Timeline").dictionary["speed"] as? Double == 30)
        #expect(!fixture.daemon.process.hasExited)
    }

    /// A file that is right in itself but cannot be applied to what the bus made (its channel
    /// limit is below the channels clients created): Reload() answers InvalidConfig naming the
    /// file, and everything stays, the old limits too. At the next start the same file is a
    /// clear error and exit status 1, not a daemon that runs without its configuration.
    @Test func aFileThatCannotBeAppliedNamesTheFileAndKeepsTheOldLimits() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("on side", channel: "side")
        _ = try fixture.post("on other", channel: "other")
        try fixture.daemon.writeConfig("[limits]\nchannels = 3\n\n[channel.extra]\nmode = \"static\"\n")

        let error = try fixture.gdbus(DaemonFixture.managerPath, "\(DaemonFixture.control).Reload", [])
        #expect(error.status != 0)
        #expect(error.stderr.contains("io.github.tickerd.Ticker1.Error.InvalidConfig"))
        #expect(error.stderr.contains("tickerd.toml: cannot be applied: LimitExceeded"), "\(error.stderr)")
        #expect(error.stderr.contains("the old configuration stays in force"))
        // The old limit (64 channels) is still in force, and no channel of the file appeared.
        _ = try fixture.post("a fourth channel", channel: "fourth")
        let channels = try fixture.busctl(["get-property", DaemonFixture.service, DaemonFixture.managerPath,
                                           DaemonFixture.managerInterface, "Channels"]).stdout
        #expect(!channels.contains("extra") && channels.contains("fourth"), "\(channels)")

        try fixture.daemon.stop()
        let output = try ChildProcess.run(
            TickerdProcess.binary("tickerd"), fixture.daemon.arguments, environment: ["TICKERD_LOG": "stderr"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("tickerd.toml: cannot be applied to the saved state: LimitExceeded"), "\(output.stderr)")
    }

    @Test func badConfigAtStartIsAClearErrorAndExitCodeOne() throws {
        let directory = try TemporaryDirectory()
        let config = directory.file("tickerd.toml")
        try "[[message]]\ntext = \"hi\"\ncalendar = \"daily\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bus = try PrivateBus()
        let output = try ChildProcess.run(
            TickerdProcess.binary("tickerd"),
            ["--bus", bus.address, "--config", config, "--state-dir", directory.file("state")],
            environment: ["TICKERD_LOG": "stderr"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("tickerd.toml:1: message[1].duration: a calendar window needs a duration"))
    }

    @Test func losingTheBusSavesAndExitsOne() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("saved before the bus goes", options: ["id", "s", "keep"])
        fixture.daemon.bus.stop()
        #expect(try fixture.daemon.process.wait(timeout: .seconds(10)) == 1)
        let state = try String(contentsOfFile: fixture.daemon.stateDirectory + "/state.json", encoding: .utf8)
        #expect(state.contains("saved before the bus goes"))
    }

    @Test func corruptStateIsMovedAsideAndTheDaemonStarts() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("about to be corrupted")
        try fixture.daemon.stop()
        let path = fixture.daemon.stateDirectory + "/state.json"
        try "{\"version\": 1, \"chann".write(toFile: path, atomically: true, encoding: .utf8)
        try fixture.daemon.start()
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.daemon.stateDirectory)
        #expect(files.contains { $0.hasPrefix("state.json.corrupt-") })
        // …and the log says where it went.
        #expect(fixture.daemon.process.waitForError(timeout: .seconds(10)) { $0.contains("state.json.corrupt-") })
        #expect(try fixture.property("main", "Text").value as? String == "")
        _ = try fixture.post("fresh start works")
        #expect(try fixture.property("main", "Text").value as? String == "fresh start works")
    }

    @Test func anIdleDaemonDoesNotWakeUp() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Scrolling with nobody watching costs nothing at all, not a single wake-up")
        _ = try fixture.post("A second message", channel: "other")
        let pid = fixture.daemon.process.pid
        // Let the replies and PropertiesChanged go out, then count every thread's switches.
        _ = try fixture.property("main", "Text")
        #expect(try DaemonFixture.waitUntilAsleep(pid: pid), "the daemon never went to sleep after its last reply")
        let before = try DaemonFixture.contextSwitches(pid: pid)
        // The measurement window: nothing here talks to the daemon.
        usleep(10_000_000)
        let after = try DaemonFixture.contextSwitches(pid: pid)
        print("idle daemon: \(after - before) context switches over all its threads in 10 s")
        #expect(after - before == 0, "the idle daemon woke \(after - before) times in 10 s")
    }

    @Test("other clients coming and going on the bus do not wake a daemon nobody subscribes to")
    func otherClientsDoNotWakeAnIdleDaemon() throws {
        let fixture = try DaemonFixture()
        _ = try fixture.post("Still scrolling, still asleep")
        let pid = fixture.daemon.process.pid
        _ = try fixture.property("main", "Text")
        #expect(try DaemonFixture.waitUntilAsleep(pid: pid), "the daemon never went to sleep after its last reply")
        let before = try DaemonFixture.contextSwitches(pid: pid)
        // Five clients connect, ask the bus (not tickerd) something and leave: each departure is a
        // NameOwnerChanged on the bus, which only a daemon with subscribers needs to see.
        for _ in 0..<5 {
            let output = try fixture.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId"])
            #expect(output.status == 0, "\(output.stderr)")
        }
        let after = try DaemonFixture.contextSwitches(pid: pid)
        #expect(after - before == 0, "the idle daemon woke \(after - before) times while other clients came and went")
        // A subscriber that leaves is still forgotten (the watch starts with the first subscription).
        let subscribed = try ChildProcess.run("gdbus", [
            "call", "--address", fixture.address, "--dest", DaemonFixture.service, "--object-path",
            DaemonFixture.channelPath("main"), "--method", "\(DaemonFixture.channelInterface).Subscribe", "{}",
        ])
        #expect(subscribed.status == 0, "\(subscribed.stderr)")
        // gdbus exits right after the reply, maybe before the daemon watches the bus: its
        // subscription must go with it either way.
        #expect(try fixture.waitForProperty("main", "Subscribers") { ($0.value as? Int) == 0 },
                "a subscriber that left the bus is still counted")
    }

    @Test func theWatchdogIsPingedFromTheLoopAtHalfItsInterval() throws {
        let fixture = try DaemonFixture(environment: ["WATCHDOG_USEC": "400000"])
        let mark = fixture.daemon.notify.drain()
        var pings = 0
        let enough = fixture.daemon.notify.wait(timeout: .seconds(10), after: mark) { message in
            if message.contains("WATCHDOG=1") { pings += 1 }
            return pings >= 3
        }
        #expect(enough != nil)
        // A stopped loop stops pinging: freeze the process and no ping arrives.
        fixture.daemon.signal(SIGSTOP)
        let frozen = fixture.daemon.notify.drain()
        #expect(fixture.daemon.notify.wait(timeout: .seconds(1), after: frozen) { $0.contains("WATCHDOG=1") } == nil)
        fixture.daemon.signal(SIGCONT)
        #expect(fixture.daemon.notify.wait(timeout: .seconds(5), after: frozen) { $0.contains("WATCHDOG=1") } != nil)
    }

    @Test func versionAndHelpAnswerWithoutABus() throws {
        let version = try ChildProcess.run(TickerdProcess.binary("tickerd"), ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        let help = try ChildProcess.run(TickerdProcess.binary("tickerd"), ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--bus") && help.stdout.contains("--config") && help.stdout.contains("--state-dir"))
    }
}
