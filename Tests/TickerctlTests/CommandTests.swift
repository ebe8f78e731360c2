import Foundation
import Testing
import TestSupport
@testable import tickerctl

/// tickerctl's commands against the real daemon on a private bus, checked with busctl.
@Suite(.serialized) struct CommandTests {
    @Test func postListUpdateRemoveRoundTrip() throws {
        let fixture = try CLIFixture()
        let id = try fixture.ok(["post", "--priority", "4", "--ttl", "1h", "First message"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty)
        #expect(try fixture.property("Text") as? String == "First message")
        #expect(try fixture.property("Messages") as? [String] == [id])

        let custom = try fixture.ok(["post", "--channel", "news", "--id", "weather", "Sunny"])
        #expect(custom == "weather\n")

        let json = try fixture.ok(["list", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let first = try #require(entries.first { $0["id"] as? String == id })
        #expect(first["text"] as? String == "First message")
        #expect(first["priority"] as? Int == 4)
        #expect(first["ttl"] as? Int == 3_600_000_000)
        #expect(entries.contains { $0["id"] as? String == "weather" && $0["channel"] as? String == "news" })

        let table = try fixture.ok(["list", "--channel", "news"])
        #expect(table.split(separator: "\n").count == 2)
        #expect(table.contains("weather") && table.contains("Sunny") && !table.contains("First message"))

        _ = try fixture.ok(["update", id, "--text", "Changed text"])
        #expect(try fixture.property("Text") as? String == "Changed text")

        _ = try fixture.ok(["remove", id])
        #expect(try fixture.property("Messages") as? [String] == [])
    }

    @Test func postReadsStandardInput() throws {
        let fixture = try CLIFixture()
        let output = try ChildProcess.run("bash", [
            "-c", "printf 'from a pipe\\n' | \"$0\" --bus \"$1\" post -", CLIFixture.tickerctl, fixture.address,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try fixture.property("Text") as? String == "from a pipe")
    }

    @Test func postRefusesStandardInputThatIsNotUTF8() throws {
        let fixture = try CLIFixture()
        let output = try ChildProcess.run("bash", [
            "-c", "printf 'caf\\351\\n' | \"$0\" --bus \"$1\" post -", CLIFixture.tickerctl, fixture.address,
        ])
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("standard input is not valid UTF-8"), "\(output.stderr)")
        #expect(try fixture.property("Messages") as? [String] == [])
    }

    /// `configure --reset` brings a channel back to its section of tickerd.toml, then applies the
    /// settings given; on a channel the file does not name, to the defaults.
    @Test func configureResetGoesBackToTheConfiguredSettings() throws {
        let fixture = try CLIFixture(config: "[channel.main]\nmode = \"scroll\"\nspeed = 20\ncolumns = 30\n")
        _ = try fixture.ok(["post", "A ticker message that is much longer than the panel"])
        func mode() throws -> String? { ((try fixture.property("Timeline") as? [String: Any])?["mode"] as? [String: Any])?["data"] as? String }
        func speed() throws -> Double? { ((try fixture.property("Timeline") as? [String: Any])?["speed"] as? [String: Any])?["data"] as? Double }
        _ = try fixture.ok(["configure", "main", "mode=bounce", "speed=5", "columns=50"])
        #expect(try mode() == "bounce" && speed() == 5 && fixture.property("Columns") as? Int == 50)
        _ = try fixture.ok(["configure", "main", "--reset", "speed=12"])
        #expect(try mode() == "scroll" && speed() == 12 && fixture.property("Columns") as? Int == 30)
        _ = try fixture.ok(["configure", "--reset", "main"])
        #expect(try mode() == "scroll" && speed() == 20)
        _ = try fixture.ok(["post", "--channel", "side", "Side"])
        _ = try fixture.ok(["configure", "side", "mode=static", "columns=9"])
        _ = try fixture.ok(["configure", "side", "--reset"])
        #expect(try fixture.property("Columns", channel: "side") as? Int == 80)
        let bad = try fixture.run(["configure", "main", "--reset", "speed=-3"])
        #expect(bad.status == 64 && bad.stderr.contains("speed=-3"), "\(bad.stderr)")
        #expect(try speed() == 20)
        // Every bad word is named on a line of its own, and nothing is applied.
        let worse = try fixture.run(["configure", "main", "speed=-3", "mode=bounce", "easing=wobbly", "columns=0"])
        #expect(worse.status == 64, "\(worse.stderr)")
        #expect(worse.stderr.split(separator: "\n").map { $0.prefix(27) } == [
            "tickerctl: speed=-3: must b", "tickerctl: easing=wobbly: m", "tickerctl: columns=0: must ",
        ], "\(worse.stderr)")
        #expect(try mode() == "scroll" && speed() == 20)
    }

    @Test func configurePauseResumeAndRenderAgreeWithTheDaemon() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "A ticker message that is much longer than the panel"])
        _ = try fixture.ok(["configure", "main", "mode=scroll", "delay=1s", "easing=easeInOutCubic", "columns=24"])
        let timeline = try #require(try fixture.property("Timeline") as? [String: Any])
        #expect((timeline["mode"] as? [String: Any])?["data"] as? String == "scroll")
        #expect((timeline["delay"] as? [String: Any])?["data"] as? Int == 1_000_000)
        #expect((timeline["easing"] as? [String: Any])?["data"] as? String == "easeInOutCubic")
        #expect(try fixture.property("Columns") as? Int == 24)

        _ = try fixture.ok(["pause"])
        #expect(try fixture.property("Paused") as? Bool == true)
        _ = try fixture.ok(["resume", "main"])
        #expect(try fixture.property("Paused") as? Bool == false)

        // render --at gives the daemon's frame at that instant; without --columns, the channel's.
        let at = CLIFixture.nowMicroseconds() + 2_345_678
        let rendered = try fixture.ok(["render", "--at", "@\(Double(at) / 1e6)", "--columns", "15"])
        #expect(rendered == (try fixture.render(columns: 15, at: at)) + "\n")
        let wide = try fixture.ok(["render", "--json", "--at", "@\(Double(at) / 1e6)"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(wide.utf8)) as? [String: Any])
        #expect(object["text"] as? String == (try fixture.render(columns: 24, at: at)))
    }

    @Test func setSendsACounterValueWithTypedOptions() throws {
        let fixture = try CLIFixture()
        let monitor = try ChildProcess("dbus-monitor", [
            "--address", fixture.address, "type='method_call',interface='io.github.tickerd.Ticker1.Control'",
        ])
        defer { monitor.kill() }
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("NameAcquired") || $0.contains("member=Hello") })
        let started = CLIFixture.nowMicroseconds()
        let output = try fixture.run([
            "set", "--decimals", "1", "--prefix", "~", "--suffix", " °C", "--duration", "2s", "--easing", "easeOutCubic",
            "--from", "1000", "--grouping", "temperature", "21.5",
        ])
        #expect(monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("member=SetValue") && $0.contains("\" °C\"") })
        let call = String(try #require(monitor.standardOutput.components(separatedBy: "member=SetValue").last))
        #expect(call.contains("string \"main\""))
        #expect(call.contains("string \"temperature\""))
        #expect(call.contains("double 21.5"))
        #expect(call.contains("variant             uint32 1"))
        #expect(call.contains("variant             int64 2000000"))
        #expect(call.contains("string \"easeOutCubic\"") && call.contains("double 1000"))
        #expect(output.status == 0, "\(output.stderr)")
        // Posted after the value is set, the message's first tape already has the counter's field.
        _ = try fixture.ok(["post", "Outside: {temperature} now"])
        // The daemon shows it so: from ~1,000.0 °C at the start to ~21.5 °C after the two seconds.
        #expect(try fixture.render(columns: 26, at: started) == "Outside: ~1,000.0 °C now  ")
        let done = try fixture.render(columns: 26, at: started + 3_000_000)
        #expect(done.hasPrefix("Outside: ~") && done.contains(" 21.5 °C now") && done.count == 26, "\(done)")
        let bad = try fixture.run(["set", "--decimals", "99", "temperature", "1"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("tickerctl: io.github.tickerd.Ticker1.Error.InvalidOption: ")
            && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }

    /// A script that sets a temperature must not fail at the first frost: a negative VALUE needs
    /// no `--` (swift-argument-parser reads `-4.5` as an option), wherever the options stand.
    @Test func aNegativeValueNeedsNoDoubleDash() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "Outside: {temperature} now"])
        // (A counter keeps the options it was given: one decimal, then a suffix too.)
        for (arguments, shown) in [
            (["set", "temperature", "-4.5", "--decimals", "1"], "-4.5"),
            (["set", "--suffix", " °C", "temperature", "-12"], "-12.0 °C"),
            (["set", "--grouping", "temperature", "-1e4"], "-10,000.0 °C"),
            (["set", "temperature", "--", "-3"], "-3.0 °C"),
            (["set", "--from", "-20", "--prefix", "-", "temperature", "-7"], "--7.0 °C"),
        ] {
            _ = try fixture.ok(arguments)
            let frame = try fixture.render(columns: 30, at: CLIFixture.nowMicroseconds())
            #expect(frame.hasPrefix("Outside: \(shown) now"), "\(arguments): \(frame)")
        }
        // A negative number where an option takes it stays that option's (and a bad one is refused).
        let refused = try fixture.run(["set", "--decimals", "-1", "temperature", "3"])
        #expect(refused.status == 64 && refused.stderr.contains("--decimals"), "\(refused.stderr)")
        #expect(try fixture.render(columns: 30, at: CLIFixture.nowMicroseconds()).hasPrefix("Outside: --7.0 °C now"))
        // A negative number after a flag is the value (the same width: the format stays as it is).
        _ = try fixture.ok(["set", "temperature", "--grouping", "-2"])
        #expect(try fixture.render(columns: 30, at: CLIFixture.nowMicroseconds()).hasPrefix("Outside: --2.0 °C now"))
        // A text that reads as a negative number posts as it is.
        let id = try fixture.ok(["post", "--channel", "side", "-40"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty)
        #expect(try fixture.render(columns: 5, at: CLIFixture.nowMicroseconds(), channel: "side") == "-40  ")
        // An option given a negative value gets that value's own error, not "missing value".
        for (arguments, named) in [
            (["post", "--ttl", "-5s", "x"], "--ttl: invalid time span '-5s': negative spans are not allowed"),
            (["post", "--calendar", "daily", "--duration", "-1h", "x"], "--duration: invalid time span '-1h'"),
            (["render", "--columns", "-3"], "The value '-3' is invalid for '--columns"),
            (["set", "--duration", "-2s", "temperature", "-4"], "--duration: invalid time span '-2s'"),
        ] {
            let result = try fixture.run(arguments)
            #expect(result.status != 0 && result.stderr.contains(named), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        }
        // An option whose value was forgotten still says so.
        let forgotten = try fixture.run(["post", "--ttl", "--priority", "3", "x"])
        #expect(forgotten.status == 64 && forgotten.stderr.contains("Missing value for '--ttl"), "\(forgotten.stderr)")
        #expect(try fixture.render(columns: 5, at: CLIFixture.nowMicroseconds(), channel: "side") == "-40  ")
    }

    @Test func statusShowsVersionChannelsMessagesAndSubscribers() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "one"])
        _ = try fixture.ok(["post", "--channel", "alerts", "two"])
        let text = try fixture.ok(["status"])
        #expect(text.hasPrefix("tickerd "))
        #expect(text.contains("2 channels, 2 active messages"))
        #expect(text.contains("alerts") && text.contains("main"))
        let json = try fixture.ok(["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let channels = try #require(object["channels"] as? [[String: Any]])
        #expect(Set(channels.compactMap { $0["Name"] as? String }) == ["alerts", "main"])
        #expect(channels.allSatisfy { $0["Subscribers"] is Int })
        #expect(object["version"] as? String != nil)
        // A phase-locked channel says so in its MODE column and in its Timeline.
        _ = try fixture.ok(["configure", "alerts", "phase=wall-clock"])
        let row = try fixture.ok(["status"]).split(separator: "\n").first { $0.hasPrefix("alerts ") }
        #expect(row?.contains(" continuous/wall-clock ") == true, "\(row ?? "no row")")
        #expect(try fixture.ok(["status", "--json"]).contains("\"phase\":\"wall-clock\""))
    }

    @Test func daemonErrorsAreOneLineWithTheirNameAndAFailingStatus() throws {
        let fixture = try CLIFixture()
        let missing = try fixture.run(["remove", "no-such-id"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("tickerctl: io.github.tickerd.Ticker1.Error.NoSuchMessage: "))
        #expect(missing.stderr.split(separator: "\n").count == 1)

        // An id that does not exist does not keep the others from being removed (it was the end:
        // `remove a nope b` left b).
        for id in ["a", "b"] { _ = try fixture.ok(["post", "--id", id, "message \(id)"]) }
        let partly = try fixture.run(["remove", "a", "no-such-id", "b"])
        #expect(partly.status == 1)
        #expect(partly.stderr == "tickerctl: io.github.tickerd.Ticker1.Error.NoSuchMessage: "
            + "there is no message with id 'no-such-id'\n", "\(partly.stderr)")
        #expect(try fixture.property("Messages") as? [String] == [])

        let badText = try fixture.run(["post", "bidi \u{202E} override"])
        #expect(badText.status == 1)
        #expect(badText.stderr.hasPrefix("tickerctl: io.github.tickerd.Ticker1.Error.InvalidText: "))

        let badDots = try fixture.run(["post", "--effect", "dots", "no trailing dots"])
        #expect(badDots.stderr.hasPrefix("tickerctl: io.github.tickerd.Ticker1.Error.InvalidText: "))

        let badCalendar = try fixture.run(["post", "--calendar", "Mon..Blursday", "--duration", "1h", "x"])
        #expect(badCalendar.stderr.hasPrefix("tickerctl: io.github.tickerd.Ticker1.Error.InvalidCalendar: "))

        // render and activate read the channel's object: a missing one was
        // "org.freedesktop.DBus.Error.UnknownObject: no object at path /io/github/…/channel/nowhere".
        for arguments in [["render", "--channel", "nowhere"], ["render", "--channel", "nowhere", "--columns", "9"],
                          ["activate", "--print", "--channel", "nowhere"]] {
            let noChannel = try fixture.run(arguments)
            #expect(noChannel.status == 1)
            #expect(noChannel.stderr == "tickerctl: there is no channel 'nowhere' (post or configure creates one)\n",
                    "\(arguments): \(noChannel.stderr)")
        }

        let usage = try fixture.run(["configure", "main", "colour=red"])
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("tickerctl: unknown setting 'colour'"))
    }

    /// `post --start tomorrow --ttl 1h` was refused with two bare microsecond counts ("option
    /// 'start' (1795824000000000) must come before the end (1795772974145897)"), not saying that
    /// the end came from the ttl, counted from posting.
    @Test func aWindowThatCannotOpenSaysWhichEndAndWhen() throws {
        let fixture = try CLIFixture(environment: ["TZ": "UTC"])
        let fromTTL = try fixture.run(["post", "--start", "@4102444800", "--ttl", "1h", "x"])
        #expect(fromTTL.status == 1)
        #expect(fromTTL.stderr.contains("option 'start' (4102444800000000 µs, Fri 2100-01-01 00:00:00 UTC) must come "
            + "before the end, its 'ttl' after posting ("), "\(fromTTL.stderr)")
        let passed = try fixture.run(["post", "--end", "@1700000000", "x"])
        #expect(passed.status == 1)
        #expect(passed.stderr.contains("the message's end, option 'end' (1700000000000000 µs, Tue 2023-11-14 22:13:20 UTC), "
            + "has already passed"), "\(passed.stderr)")
    }

    /// docs/configuration.md: posted messages are not touched by the file, except one whose id a
    /// message of the file has too — the file's replaces it at every reload, and goes with it.
    @Test func aFileMessageReplacesAPostedOneWithItsIdAtEveryReload() throws {
        let fixture = try CLIFixture()
        func listed() throws -> [String: String] {
            let json = try fixture.ok(["list", "--json"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            var result: [String: String] = [:]
            for entry in entries { result[entry["id"] as? String ?? ""] = "\(entry["origin"] ?? ""): \(entry["text"] ?? "")" }
            return result
        }
        _ = try fixture.ok(["post", "--id", "bed", "posted over the bus"])
        _ = try fixture.ok(["post", "--id", "other", "another posted one"])
        try fixture.daemon.writeConfig("[[message]]\nid = \"bed\"\ntext = \"from the file\"\n")
        _ = try fixture.ok(["reload"])
        #expect(try listed() == ["bed": "config: from the file", "other": "posted: another posted one"])
        _ = try fixture.ok(["post", "--id", "bed", "posted again"])
        _ = try fixture.ok(["reload"])
        #expect(try listed()["bed"] == "config: from the file")
        try fixture.daemon.writeConfig("")
        _ = try fixture.ok(["reload"])
        #expect(try listed() == ["other": "posted: another posted one"])
    }

    @Test func aMissingDaemonSaysHowToStartIt() throws {
        let bus = try PrivateBus()
        let output = try ChildProcess.run(CLIFixture.tickerctl, ["--bus", bus.address, "status"])
        #expect(output.status == 69)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("tickerctl: org.freedesktop.DBus.Error.ServiceUnknown: ") == true)
        #expect(lines.last == "tickerctl: tickerd is not running on the bus at \(bus.address); start it with `tickerd --bus \(bus.address)`")
    }

    /// A kiosk admin who forgets `--bus system` is told to add it when the system bus has a
    /// tickerd (running, or installed there for activation), and not told so when it has none:
    /// with no session bus at all, and with a session bus where no tickerd runs. Private buses
    /// stand in for both buses (DBUS_SESSION_BUS_ADDRESS, DBUS_SYSTEM_BUS_ADDRESS).
    @Test func theSessionBusFailuresPointToTheSystemBusWhenItHasTickerd() throws {
        let folder = try TemporaryDirectory(prefix: "tickerctl-nobus")
        let noSessionBus = "unix:path=" + folder.file("no-such-bus")
        let emptySessionBus = try PrivateBus()
        let kiosk = try CLIFixture()
        let installed = try PrivateBus()
        try ("[D-BUS Service]\nName=io.github.tickerd.Ticker1\nExec=/bin/false\n").write(
            toFile: installed.serviceDirectory + "/io.github.tickerd.Ticker1.service", atomically: true, encoding: .utf8)
        try installed.reloadConfig()
        let emptySystemBus = try PrivateBus()
        let cases: [(system: String, hint: String?)] = [
            (kiosk.address, "tickerctl: tickerd runs on the system bus: add `--bus system`"),
            (installed.address, "tickerctl: tickerd is installed for the system bus: add `--bus system`"),
            (emptySystemBus.address, nil),
            ("unix:path=" + folder.file("no-system-bus"), nil),
        ]
        for (system, hint) in cases {
            let noBus = try ChildProcess.run(CLIFixture.tickerctl, ["post", "hello"], environment: [
                "DBUS_SESSION_BUS_ADDRESS": noSessionBus, "DBUS_SYSTEM_BUS_ADDRESS": system,
            ])
            #expect(noBus.status == 69)
            let noBusLines = noBus.stderr.split(separator: "\n").map(String.init)
            #expect(noBusLines.first?.hasPrefix("tickerctl: cannot connect to the session bus: ") == true, "\(noBus.stderr)")
            #expect(noBusLines.count == (hint == nil ? 1 : 2), "\(noBus.stderr)")
            if let hint { #expect(noBusLines.last == hint, "\(noBus.stderr)") }

            let noDaemon = try ChildProcess.run(CLIFixture.tickerctl, ["post", "hello"], environment: [
                "DBUS_SESSION_BUS_ADDRESS": emptySessionBus.address, "DBUS_SYSTEM_BUS_ADDRESS": system,
            ])
            #expect(noDaemon.status == 69)
            let lines = noDaemon.stderr.split(separator: "\n").map(String.init)
            let advice = "tickerctl: tickerd is not running on the session bus; start it with `systemctl --user start tickerd`"
            #expect(lines.count == (hint == nil ? 2 : 3), "\(noDaemon.stderr)")
            #expect(lines.dropFirst().first?.hasPrefix(advice) == true, "\(noDaemon.stderr)")
            if let hint { #expect(lines.last == hint, "\(noDaemon.stderr)") }
        }
        // Another bus than the session bus gets no hint, whatever the system bus holds.
        let addressed = try ChildProcess.run(CLIFixture.tickerctl, ["--bus", emptySessionBus.address, "post", "hello"],
                                             environment: ["DBUS_SYSTEM_BUS_ADDRESS": kiosk.address])
        #expect(addressed.status == 69)
        #expect(!addressed.stderr.contains("--bus system"), "\(addressed.stderr)")
    }

    @Test func withoutASessionBusTheErrorSaysWhereItLookedAndWhatToDo() throws {
        // As from cron or `su`: no address and no bus in the runtime folder. libdbus's own error
        // would be about X11 autolaunch.
        let runtime = try TemporaryDirectory(prefix: "tickerctl-runtime")
        let result = try ChildProcess.run("/usr/bin/env", [
            "-u", "DBUS_SESSION_BUS_ADDRESS", "-u", "DISPLAY", CLIFixture.tickerctl, "post", "hello",
        ], environment: ["XDG_RUNTIME_DIR": runtime.path, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + runtime.file("no-system-bus")])
        #expect(result.status == 69)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "tickerctl: cannot connect to the session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no \(runtime.path)/bus",
                "\(result.stderr)")
        #expect(lines.count == 2 && lines.last?.contains("--bus") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("autolaunch"), "\(result.stderr)")
    }

    @Test func theSessionBusAbsenceNamesWhatIsMissingAndTheUsersBusWhenItRuns() {
        let userBus = "/run/user/1000/bus"
        func absence(_ environment: [String: String], existing: Set<String>) -> SessionBusAbsence? {
            SessionBusAbsence.of(environment: environment, userBus: userBus, exists: existing.contains)
        }
        // A bus is named: libdbus's error about it stands.
        #expect(absence(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/x"], existing: []) == nil)
        #expect(absence(["XDG_RUNTIME_DIR": "/run/user/1000"], existing: [userBus]) == nil)
        // None is: what is missing, and the user's bus when it runs (cron has no XDG_RUNTIME_DIR).
        let cron = absence([:], existing: [userBus])
        #expect(cron?.reason == "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        #expect(cron?.advice == "your session bus is at /run/user/1000/bus: add `--bus unix:path=/run/user/1000/bus`")
        let noSession = absence(["XDG_RUNTIME_DIR": "/run/user/1000"], existing: [])
        #expect(noSession?.reason == "DBUS_SESSION_BUS_ADDRESS is not set and there is no /run/user/1000/bus")
        #expect(noSession?.advice == "run it in your desktop session, or give the bus with `--bus ADDRESS`")
    }

    @Test func everyCommandTakesTheGlobalBusOption() throws {
        // calendar needs no daemon, yet `--bus` before or after the command name must not break it.
        let plain = try ChildProcess.run(CLIFixture.tickerctl, ["calendar", "--base-time", "@1700000000", "daily"],
                                         environment: ["TZ": "UTC"])
        #expect(plain.status == 0, "\(plain.stderr)")
        for arguments in [["--bus", "system", "calendar"], ["calendar", "--bus", "unix:path=/nonexistent"]] {
            let output = try ChildProcess.run(CLIFixture.tickerctl, arguments + ["--base-time", "@1700000000", "daily"],
                                              environment: ["TZ": "UTC"])
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(output.stdout == plain.stdout)
        }
        // Every command lists --bus in its help.
        for command in Tickerctl.configuration.subcommands {
            let name = command.configuration.commandName ?? ""
            let help = try ChildProcess.run(CLIFixture.tickerctl, ["help", name])
            #expect(help.stdout.contains("--bus"), "tickerctl \(name) does not take --bus")
        }
        // `update` takes the id as its argument: its help does not offer an --id it would refuse.
        #expect(try ChildProcess.run(CLIFixture.tickerctl, ["help", "post"]).stdout.contains("--id"))
        #expect(try !ChildProcess.run(CLIFixture.tickerctl, ["help", "update"]).stdout.contains("--id"))
    }

    /// man/tickerctl.1 left `timeline` out; every command has its entry (`.B name …`,
    /// `.BR pause " …, " resume …`), and docs/tickerctl.md its row.
    @Test func everyCommandIsInTheManPageAndTheDoc() throws {
        // The checkout: three levels above this file (Tests/TickerctlTests/CommandTests.swift).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("man/tickerctl.1"), encoding: .utf8)
        let doc = try String(contentsOf: root.appendingPathComponent("docs/tickerctl.md"), encoding: .utf8)
        for command in Tickerctl.configuration.subcommands {
            let name = command.configuration.commandName ?? ""
            let entry = page.split(separator: "\n").contains { line in
                let words = line.split(separator: " ")
                let named = (words.first == ".B" || words.first == ".BR") && words.dropFirst().first.map(String.init) == name
                return named || (line.hasPrefix(".BR pause ") && line.contains("\" \(name) \""))
            }
            #expect(entry, "man/tickerctl.1 has no entry for \(name)")
            #expect(doc.contains("| `\(name)") || doc.contains(", `\(name)"), "docs/tickerctl.md has no row for \(name)")
        }
    }

    /// The bash completion offers the daemon's channels after `--channel` and its message ids to
    /// `remove` and `update`, as a person pressing Tab sees them (the generated script run by bash,
    /// as bash runs it); with no daemon on the bus it offers nothing, and starts none.
    @Test func bashCompletesChannelsAndMessageIDsFromTheDaemon() throws {
        let fixture = try CLIFixture()
        _ = try fixture.ok(["post", "--id", "alpha", "First"])
        _ = try fixture.ok(["post", "--id", "beta", "--channel", "side", "Second"])
        let folder = try TemporaryDirectory(prefix: "tickerctl-completion")
        defer { folder.remove() }
        let script = try ChildProcess.run(CLIFixture.tickerctl, ["--generate-completion-script", "bash"])
        try script.stdout.write(toFile: folder.file("tickerctl.bash"), atomically: true, encoding: .utf8)
        /// What Tab offers for the last of `words` (the word being completed), on `bus`.
        func offered(_ words: [String], bus: String) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let line = words.joined(separator: " ")
            let output = try ChildProcess.run("/bin/bash", ["-c", """
                source '\(folder.file("tickerctl.bash"))'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                _tickerctl tickerctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """], environment: [
                    "PATH": (CLIFixture.tickerctl as NSString).deletingLastPathComponent + ":/usr/bin:/bin",
                    "DBUS_SESSION_BUS_ADDRESS": bus,
                ])
            #expect(output.status == 0, "\(output.stderr)")
            return output.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
        #expect(try offered(["tickerctl", "post", "--channel", ""], bus: fixture.address) == ["main", "side"])
        #expect(try offered(["tickerctl", "follow", "--channel", "s"], bus: fixture.address) == ["side"])
        #expect(try offered(["tickerctl", "pause", ""], bus: fixture.address) == ["main", "side"])
        #expect(try offered(["tickerctl", "remove", "alpha", ""], bus: fixture.address) == ["alpha", "beta"])
        #expect(try offered(["tickerctl", "update", "b"], bus: fixture.address) == ["beta"])
        // A fixed list: the easing curves a count takes.
        #expect(try offered(["tickerctl", "set", "--easing", "easeOutB"], bus: fixture.address) == ["easeOutBounce"])
        // A bus without the daemon: nothing offered, and the daemon is not started for it.
        let empty = try PrivateBus()
        defer { empty.stop() }
        #expect(try offered(["tickerctl", "post", "--channel", ""], bus: empty.address) == [])
    }

    @Test func completionScriptsAreGenerated() throws {
        for shell in ["bash", "zsh", "fish"] {
            let output = try ChildProcess.run(CLIFixture.tickerctl, ["--generate-completion-script", shell])
            #expect(output.status == 0)
            #expect(output.stdout.contains("follow") && output.stdout.contains("configure"))
        }
    }
}

extension CLIFixture {
    /// CLOCK_REALTIME now in µs.
    static func nowMicroseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
