import Foundation
import Testing
import TestSupport

/// `Configure` with `reset`: a channel back to its configured settings (its `[channel.NAME]`
/// section of the configuration file, else the defaults), then the keys given — on a real tickerd
/// on a private bus, called with gdbus and read back with busctl.
@Suite struct ConfigureResetTests {
    static let configure = "\(DaemonFixture.control).Configure"
    static let lobby = "[channel.lobby]\nmode = \"scroll\"\nspeed = 20\ncolumns = 30\nseparator = \" | \"\n"

    /// The lobby's Timeline keys a viewer sees (mode, speed, the tape's separator) with its
    /// columns and frame rate.
    func settings(_ fixture: DaemonFixture, _ channel: String) throws -> String {
        let timeline = try fixture.property(channel, "Timeline").dictionary
        let columns = try fixture.property(channel, "Columns").value as? Int ?? -1
        let rate = try fixture.property(channel, "FrameRate").value as? Double ?? -1
        let speed = (timeline["speed"] as? NSNumber)?.doubleValue ?? -1
        return "mode=\(timeline["mode"] ?? "?") speed=\(speed) tape=[\(timeline["tape"] ?? "?")] "
            + "columns=\(columns) frame-rate=\(rate)"
    }

    /// `Configure(channel, settings)` through gdbus (settings in GVariant text).
    func configure(_ fixture: DaemonFixture, _ channel: String, _ settings: String) throws {
        let output = try fixture.gdbus(DaemonFixture.managerPath, Self.configure, [channel, settings])
        #expect(output.status == 0, "Configure \(settings): \(output.stderr)")
    }

    @Test func resetStartsFromTheConfiguredSectionThenAppliesTheKeys() throws {
        let fixture = try DaemonFixture(config: Self.lobby)
        _ = try fixture.post("Lobby open", channel: "lobby")
        _ = try fixture.post("Main hall")
        let configured = "mode=scroll speed=20.0 tape=[Lobby open | ] columns=30 frame-rate=0.0"
        #expect(try settings(fixture, "lobby") == configured)

        // Runtime changes pile up on the current settings...
        try configure(fixture, "lobby", "{'mode': <'bounce'>, 'speed': <5.0>, 'columns': <uint32 50>, 'frame-rate': <10.0>}")
        try configure(fixture, "lobby", "{'separator': <' / '>}")
        #expect(try settings(fixture, "lobby") == "mode=bounce speed=5.0 tape=[Lobby open / ] columns=50 frame-rate=10.0")
        // ...a reset with keys starts from the section: only `speed` differs from it.
        try configure(fixture, "lobby", "{'reset': <true>, 'speed': <8.0>}")
        #expect(try settings(fixture, "lobby") == "mode=scroll speed=8.0 tape=[Lobby open | ] columns=30 frame-rate=0.0")
        // `reset` false is a plain Configure; `reset` alone is the section itself.
        try configure(fixture, "lobby", "{'reset': <false>, 'mode': <'bounce'>}")
        #expect(try settings(fixture, "lobby") == "mode=bounce speed=8.0 tape=[Lobby open | ] columns=30 frame-rate=0.0")
        try configure(fixture, "lobby", "{'reset': <true>}")
        #expect(try settings(fixture, "lobby") == configured)

        // A channel without a section goes back to the defaults.
        let defaults = "mode=continuous speed=8.0 tape=[Main hall  •  ] columns=80 frame-rate=0.0"
        #expect(try settings(fixture, "main") == defaults)
        _ = try fixture.call("Configure", "sa{sv}", ["main", "3", "mode", "s", "static", "separator", "s", "+", "columns", "u", "24"])
        try configure(fixture, "main", "{'reset': <true>}")
        #expect(try settings(fixture, "main") == defaults)

        // Stored like every Configure: a restart keeps the reset settings.
        try configure(fixture, "lobby", "{'reset': <true>, 'direction': <'right'>, 'speed': <12.0>}")
        let reset = try settings(fixture, "lobby")
        try fixture.daemon.restart()
        #expect(try settings(fixture, "lobby") == reset)
        #expect(try fixture.property("lobby", "Timeline").dictionary["direction"] as? String == "right")

        // A reload that changes the section changes what a reset goes back to.
        try fixture.daemon.writeConfig(Self.lobby.replacingOccurrences(of: "speed = 20", with: "speed = 16"))
        _ = try fixture.call("Reload")
        try configure(fixture, "lobby", "{'reset': <true>}")
        #expect(try settings(fixture, "lobby") == configured.replacingOccurrences(of: "speed=20.0", with: "speed=16.0"))
    }

    /// A reset that changes nothing restarts no motion and announces nothing: the fleet source
    /// sends its settings with `reset` again after every reconnection.
    @Test func aResetToTheSettingsTheChannelHasChangesNothing() throws {
        let fixture = try DaemonFixture(config: Self.lobby)
        _ = try fixture.post("Lobby open, all welcome", channel: "lobby")
        try configure(fixture, "lobby", "{'reset': <true>, 'speed': <12.0>}")
        let anchor = try #require(try fixture.property("lobby", "Timeline").dictionary["anchor"] as? NSNumber)
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='signal',member='PropertiesChanged'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("NameAcquired") }, "dbus-monitor is listening")
        try configure(fixture, "lobby", "{'reset': <true>, 'speed': <12.0>}")
        #expect(try fixture.property("lobby", "Timeline").dictionary["anchor"] as? NSNumber == anchor)
        // A change that is announced, after the one that must not be: once its signal is seen,
        // the monitor has seen everything sent before it.
        _ = try fixture.post("Later", channel: "lobby")
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("Later") })
        let announced = monitor.standardOutput.components(separatedBy: "member=PropertiesChanged").count - 1
        #expect(announced == 1, "one PropertiesChanged (the post's), got \(announced):\n\(monitor.standardOutput)")
    }

    @Test func badResetsAreRefusedByNameAndChangeNothing() throws {
        let fixture = try DaemonFixture(config: Self.lobby + "\n[channel.wall]\nphase = \"wall-clock\"\n")
        _ = try fixture.post("Lobby open", channel: "lobby")
        try configure(fixture, "lobby", "{'speed': <5.0>}")
        let before = try settings(fixture, "lobby")

        // The wrong type, a variant in the variant, an unknown key or a bad value with it.
        let refusals: [(String, String)] = [
            ("{'reset': <'yes'>}", "'reset'"),
            ("{'reset': <uint32 1>}", "'reset'"),
            ("{'reset': <<true>>}", "'reset'"),
            ("{'reset': <true>, 'colour': <'red'>}", "colour"),
            ("{'reset': <true>, 'speed': <-1.0>}", "speed"),
            ("{'reset': <true>, 'speed': <5.0>, 'cycle': <int64 1000000>}", "not both"),
        ]
        for (arguments, named) in refusals {
            let output = try fixture.gdbus(DaemonFixture.managerPath, Self.configure, ["lobby", arguments])
            #expect(output.status != 0, "\(arguments) was accepted")
            #expect(output.stderr.contains("io.github.tickerd.Ticker1.Error.InvalidOption"), "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains(named), "\(arguments): \(output.stderr)")
        }
        #expect(try settings(fixture, "lobby") == before)

        // A bad channel name, and a reset to a phase-locked section while the channel is paused.
        let name = try fixture.gdbusErrorName(DaemonFixture.managerPath, Self.configure, ["no-such!", "{'reset': <true>}"])
        #expect(name == "io.github.tickerd.Ticker1.Error.InvalidChannel")
        _ = try fixture.post("Wall text", channel: "wall")
        try configure(fixture, "wall", "{'phase': <'local'>}")
        _ = try fixture.call("Pause", "s", ["wall"])
        let locked = try fixture.gdbusErrorName(DaemonFixture.managerPath, Self.configure, ["wall", "{'reset': <true>}"])
        #expect(locked == "io.github.tickerd.Ticker1.Error.PhaseLocked")
        #expect(try fixture.property("wall", "Timeline").dictionary["phase"] == nil)
        #expect(try fixture.property("wall", "Paused").value as? Bool == true)

        // `reset` is a Configure key, not a setting of the file.
        try fixture.daemon.writeConfig("[channel.lobby]\nreset = true\n")
        let reload = try fixture.gdbus(DaemonFixture.managerPath, "\(DaemonFixture.control).Reload", [])
        #expect(reload.stderr.contains("io.github.tickerd.Ticker1.Error.InvalidConfig") && reload.stderr.contains("reset"),
                "\(reload.stderr)")
    }
}
