import ArgumentParser
import DBus
import Testing
import TickerModel
@testable import tickerctl

/// Command-line options become the `a{sv}` the daemon expects, with the right D-Bus types.
@Suite struct OptionMappingTests {
    static let now: Instant = 1_750_000_000_000_000

    @Test func configureMapsEachKeyToItsDBusType() throws {
        let dictionary = try ChannelSettingArguments.parse([
            "mode=scroll", "speed=12.5", "cycle=1min 30s", "delay=2s", "easing=easeInOutCubic", "loops=3",
            "direction=right", "align=center", "separator= | ", "gap=   ", "columns=40", "frame-rate=0",
            "phase=wall-clock",
        ])
        #expect(dictionary == [
            "mode": .string("scroll"), "speed": .double(12.5), "cycle": .int64(90_000_000),
            "delay": .int64(2_000_000), "easing": .string("easeInOutCubic"), "loops": .uint32(3),
            "direction": .string("right"), "align": .string("center"), "separator": .string(" | "),
            "gap": .string("   "), "columns": .uint32(40), "frame-rate": .double(0),
            "phase": .string("wall-clock"),
        ])
        #expect(Set(ChannelSettingArguments.keys.map(\.name)).count == 13)
        #expect(throws: UsageError.self) { try ChannelSettingArguments.parse(["phase=sundial"]) }
    }

    @Test(arguments: [
        ("colour=red", "unknown setting 'colour'"),
        ("mode", "is not key=value"),
        ("mode=sideways", "must be one of"),
        ("speed=-1", "above 0"),
        ("speed=fast", "above 0"),
        ("loops=-2", "whole number"),
        ("delay=soon", "delay=soon: invalid time span 'soon'"),
        ("cycle=infinity", "cycle=infinity: 'infinity' is not allowed"),
        // The daemon's ranges, checked before anything is sent (they went to the daemon, which
        // answered InvalidOption with status 1).
        ("columns=0", "columns=0: must be a whole number from 1 to 4096"),
        ("columns=5000", "from 1 to 4096"),
        ("frame-rate=61", "frame-rate=61: must be 0 (none) or a number from 1 to 60"),
        ("frame-rate=0.5", "0 (none) or a number from 1 to 60"),
        ("speed=20000", "speed=20000: must be a number above 0 and at most 10000"),
        ("cycle=50us", "cycle=50us: must be at least 100us"),
        ("delay=2y", "delay=2y: must be at most 365d"),
    ])
    func configureRefusesBadWordsWithAMessageNamingThem(word: String, message: String) {
        #expect {
            try ChannelSettingArguments.parse([word])
        } throws: { error in
            (error as? UsageError)?.description.contains(message) == true
        }
    }

    /// A command line with several bad words names each of them, in order, so a person fixes
    /// them in one round; the list of keys comes once.
    @Test func configureNamesEveryBadWordAtOnce() {
        #expect {
            try ChannelSettingArguments.parse([
                "speed=abc", "mode=zig", "colour=red", "loops=2", "align", "loops=3", "shade=1",
            ])
        } throws: { error in
            guard let lines = (error as? UsageError)?.lines else { return false }
            let expected = [
                "speed=abc: must be a number above 0 and at most 10000 (cells per second)",
                "mode=zig: must be one of continuous, scroll, bounce, static, pages",
                "unknown setting 'colour' (keys: \(ChannelSettingArguments.keyList))",
                "'align' is not key=value",
                "setting 'loops' is given twice",
                "unknown setting 'shade'",
            ]
            #expect(lines == expected)
            return lines == expected
        }
        // A bad value given twice is named, and so is its repetition.
        #expect {
            try ChannelSettingArguments.parse(["delay=soon", "delay=later"])
        } throws: { error in
            (error as? UsageError)?.lines.count == 2
                && (error as? UsageError)?.lines.last == "setting 'delay' is given twice"
        }
    }

    @Test func configureRefusesAKeyGivenTwice() {
        #expect(throws: UsageError.self) { try ChannelSettingArguments.parse(["loops=1", "loops=2"]) }
    }

    @Test func postOptionsTravelAsTheTypesOfDesign() throws {
        let options = try MessageOptions.parse([
            "--priority=-3", "--urgent", "--ttl", "10min", "--start", "+5min",
            "--effect", "reveal", "--reveal", "1.5s",
        ])
        let dictionary = try options.dictionary(now: Self.now, zones: ZoneTable())
        #expect(dictionary == [
            "priority": .int32(-3), "urgent": .bool(true), "ttl": .int64(600_000_000),
            "start": .int64(Self.now + 300_000_000), "effect": .string("reveal"), "reveal": .int64(1_500_000),
        ])
        // `--id` is post's alone (update takes the id as its argument).
        #expect(try PostCommand.parse(["--id", "standup", "hello"]).id == "standup")
        #expect(throws: (any Error).self) { try UpdateCommand.parse(["standup", "--id", "other", "--urgent"]) }
    }

    /// docs/tickerctl.md: a TIME may be `-SPAN` (before now). `--end -1h` was read as an option
    /// named `-1h` ("Missing value for '--end <TIME>'"); so was a negative `--priority` or `--from`.
    @Test func valuesStartingWithAMinusAreValuesNotOptions() throws {
        let options = try MessageOptions.parse(["--start", "-2h", "--end", "-1h", "--priority", "-3"])
        #expect(try options.dictionary(now: Self.now, zones: ZoneTable()) == [
            "start": .int64(Self.now - 7_200_000_000), "end": .int64(Self.now - 3_600_000_000), "priority": .int32(-3),
        ])
        let frame = try FrameOptions.parse(["--at", "-90s"])
        #expect(frame.at == "-90s")
        #expect(try ValueOptions.parse(["--from", "-4.5"]).dictionary() == ["from": .double(-4.5)])
        let calendar = try CalendarCommand.parse(["--base-time", "-1d", "daily"])
        #expect(calendar.baseTime == "-1d")
    }

    @Test func absoluteTimesUseTheGivenZone() throws {
        let options = try MessageOptions.parse([
            "--start", "2025-06-01 09:00:00 UTC", "--end", "@1748772000", "--no-urgent",
        ])
        let dictionary = try options.dictionary(now: Self.now, zones: ZoneTable())
        #expect(dictionary["start"] == .int64(1_748_768_400_000_000))
        #expect(dictionary["end"] == .int64(1_748_772_000_000_000))
        #expect(dictionary["urgent"] == .bool(false))
    }

    @Test func calendarNeedsDurationAndTtlExcludesEnd() {
        #expect(throws: (any Error).self) { try MessageOptions.parse(["--calendar", "daily"]) }
        #expect(throws: (any Error).self) { try MessageOptions.parse(["--ttl", "1h", "--end", "+2h"]) }
        #expect(throws: UsageError.self) {
            try MessageOptions.parse(["--ttl", "soon"]).dictionary(now: Self.now, zones: ZoneTable())
        }
    }

    @Test func calendarWindowTravelsAsExpressionAndMicroseconds() throws {
        let options = try MessageOptions.parse(["--calendar", "Mon..Fri 09:00", "--duration", "15min"])
        #expect(try options.dictionary(now: Self.now, zones: ZoneTable()) == [
            "calendar": .string("Mon..Fri 09:00"), "duration": .int64(900_000_000),
        ])
    }

    @Test func setValueOptions() throws {
        let options = try ValueOptions.parse([
            "--duration", "2s", "--easing", "easeOutExpo", "--from", "1.5", "--decimals", "2", "--grouping",
            "--prefix", "$", "--suffix", " users",
        ])
        #expect(try options.dictionary() == [
            "duration": .int64(2_000_000), "easing": .string("easeOutExpo"), "from": .double(1.5),
            "decimals": .uint32(2), "grouping": .bool(true), "prefix": .string("$"), "suffix": .string(" users"),
        ])
        #expect(throws: (any Error).self) { try ValueOptions.parse(["--easing", "wobbly"]) }
    }

    @Test func relativeAndNamedInstants() throws {
        let zones = ZoneTable()
        #expect(try TimeArgument.instant("now", option: "at", now: Self.now, zones: zones) == Self.now)
        #expect(try TimeArgument.instant("-1h", option: "at", now: Self.now, zones: zones) == Self.now - 3_600_000_000)
        // What is not a timestamp names every word the option takes instead.
        #expect {
            try TimeArgument.instant("yesterday-ish", option: "at", now: Self.now, zones: zones)
        } throws: { error in
            (error as? UsageError)?.description.hasSuffix("(or use 'now', 'today', 'tomorrow', 'yesterday', '+SPAN', '-SPAN')") == true
        }
    }

    @Test func busMayComeBeforeTheCommandName() {
        #expect(GlobalArguments.reorder(["--bus", "system", "status"]) == ["status", "--bus", "system"])
        #expect(GlobalArguments.reorder(["--bus=unix:path=/x", "post", "hi"]) == ["post", "--bus=unix:path=/x", "hi"])
        #expect(GlobalArguments.reorder(["post", "--bus", "system", "hi"]) == ["post", "--bus", "system", "hi"])
        #expect(GlobalArguments.reorder(["--help"]) == ["--help"])
        #expect(GlobalArguments.reorder(["--bus", "system"]) == [])
        // `tickerctl --bus system help post` was "Unknown option '--bus'".
        #expect(GlobalArguments.reorder(["--bus", "system", "help", "post"]) == ["help", "post"])
        #expect(BusSelection(argument: "session") == .session)
        #expect(BusSelection(argument: "unix:path=/run/bus") == .address("unix:path=/run/bus"))
        #expect(BusSelection(argument: "bogus") == nil)
    }

    @Test func missingDaemonErrorsSayHowToStartIt() {
        let failure = ClientFailure.daemon(
            DBusError(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: "The name is not activatable"),
            .session)
        #expect(failure.lines.first == "org.freedesktop.DBus.Error.ServiceUnknown: The name is not activatable")
        #expect(failure.lines.dropFirst().first?.contains("systemctl --user start tickerd") == true)
        #expect(failure.lines.count == 2)
        #expect(failure.pointsToTheSystemBus)
        #expect(failure.exitStatus == 69)
        let daemonError = ClientFailure.daemon(
            DBusError(name: "io.github.tickerd.Ticker1.Error.NoSuchMessage", message: "there is no message with id 'x'"),
            .address("unix:path=/tmp/bus"))
        #expect(daemonError.lines == ["io.github.tickerd.Ticker1.Error.NoSuchMessage: there is no message with id 'x'"])
        #expect(daemonError.exitStatus == 1)
        #expect(!daemonError.pointsToTheSystemBus)
    }
}
