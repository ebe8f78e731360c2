import Foundation
import Testing
import TickerModel

/// Behaviour a user notices directly: error messages, zones, the CLI, the relative "From now" text.
@Suite struct CalendarBehaviourTests {
    static let berlin = SystemZones(local: "Europe/Berlin")

    @Test func invalidExpressionsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("*-*-* 25:00", "hour"), ("*-13-01", "month"), ("Mon..", "range"), ("*:0/0", "/0"),
            ("12", "HH:MM"), ("bogus", "bogus"), ("*-*-* 12:00 Moon", "Moon"),
            // A misspelt zone is named as such, not as "expected ':' at ' Europe/Berlinn'".
            ("*-*-* 21:00 Europe/Berlinn", "'Europe/Berlinn' is not a known time zone"),
            ("daily Mars/Olympus", "'Mars/Olympus' is not a known time zone"),
        ]
        for (expression, hint) in cases {
            do {
                _ = try CalendarSpec(parsing: expression, zones: Self.berlin)
                Issue.record("'\(expression)' was accepted")
            } catch {
                #expect(error.description.contains(hint), "'\(expression)': \(error.description)")
                #expect(error.expression == expression)
            }
        }
    }

    @Test func springForwardGapIsSkippedLikeSystemd() throws {
        // 02:30 does not exist in Berlin on 2024-03-31; systemd skips that day.
        let spec = try CalendarSpec(parsing: "*-*-* 02:30", zones: Self.berlin)
        let base = try TimestampParser.parse("2024-03-31 01:00:00", zones: Self.berlin)
        let next = try #require(spec.nextElapse(after: base))
        #expect(TimestampFormat.timestamp(next, in: Self.berlin.localZone) == "Mon 2024-04-01 02:30:00 CEST")
    }

    @Test func lordHoweHalfHourShift() throws {
        let zones = SystemZones(local: "Australia/Lord_Howe")
        let spec = try CalendarSpec(parsing: "*:4/23", zones: zones)
        let base = try TimestampParser.parse("2024-10-06 01:50:00", zones: zones)
        let next = spec.elapses(after: base, count: 2).map { TimestampFormat.timestamp($0, in: zones.localZone) }
        #expect(next == ["Sun 2024-10-06 02:50:00 +11", "Sun 2024-10-06 03:04:00 +11"])
    }

    @Test func relativeTimesReadLikeSystemd() {
        let now: Instant = 1_700_000_000 * Microseconds.perSecond
        #expect(TimestampFormat.relative(now + 90 * Microseconds.perSecond, now: now) == "1min 30s left")
        #expect(TimestampFormat.relative(now - 400 * Microseconds.perDay, now: now) == "1 year 1 month ago")
        #expect(TimestampFormat.relative(now + 8 * Microseconds.perDay, now: now) == "1 week 1 day left")
        #expect(TimestampFormat.relative(now, now: now) == "now")
    }

    @Test func malformedZoneDataIsAnError() {
        #expect(throws: TZifError.self) { try TZifParser.parse(Array("TZif2".utf8), name: "broken") }
        #expect(throws: TZifError.self) { try TZifParser.parse([1, 2, 3], name: "junk") }
    }

    @Test func tickerctlCalendarPrintsWhatSystemdPrints() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tickerctl").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build tickerctl first: \(binary)")
        let expressions = CalendarCorpus.syntaxElements + CalendarCorpus.invalid.filter { !$0.isEmpty }
        for zone in ["Europe/Berlin", "Australia/Lord_Howe"] {
            let arguments = ["calendar", "--iterations=3", "--base-time=2024-10-06 01:50:00", "--"] + expressions
            let mine = try runProcess(binary, arguments, environment: ["TZ": zone])
            let reference = try runProcess("/usr/bin/systemd-analyze", arguments, environment: ["TZ": zone])
            func stable(_ text: String) -> String {
                text.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("       From now:") }.joined(separator: "\n")
            }
            #expect(stable(mine.standardOutput) == stable(reference.standardOutput), "in \(zone)")
            #expect(mine.status != 0 && reference.status != 0)
            // "From now:" is printed, relative to the real clock as systemd does.
            #expect(mine.standardOutput.contains("       From now: "))
        }
        let valid = try runProcess(binary, ["calendar", "--base-time=@1700000000", "daily"], environment: ["TZ": "UTC"])
        #expect(valid.status == 0)
        #expect(valid.standardOutput.hasPrefix("  Original form: daily\nNormalized form: *-*-* 00:00:00\n    Next elapse: Wed 2023-11-15 00:00:00 UTC\n"))
    }

    /// The local zone comes from TZ the way glibc reads it (a zone name, `:name`, a path, a POSIX
    /// rule, empty for UTC, unset for /etc/localtime), and a TZ value glibc cannot use is UTC named
    /// after its leading letters: `tickerctl calendar` prints what `systemd-analyze calendar` does.
    @Test(arguments: [
        "Europe/Berlin", ":Australia/Lord_Howe", "/usr/share/zoneinfo/America/New_York", "",
        "EST5EDT,M3.2.0,M11.1.0", "<+0530>-5:30", "IST-5:30", "Foo+3", "NoSuch/Zone", "Europe/Nowhere", "ab",
        "12345", "<ABC>x", nil,
    ] as [String?])
    func localZoneFollowsTZLikeGlibc(_ tz: String?) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tickerctl").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build tickerctl first: \(binary)")
        let expressions = ["daily", "*-*-* 02:30", "Mon *-*~1 12:00 Europe/Berlin", "*:0/20 UTC"]
        for base in ["2024-03-31 01:30:00", "@1730597400", "2024-10-06 01:50:00"] {
            let arguments = ["calendar", "--iterations=3", "--base-time=\(base)", "--"] + expressions
            let environment = tz.map { ["TZ": $0] } ?? [:]
            var mine = try runProcess(binary, arguments, environment: environment, unset: tz == nil ? ["TZ"] : [])
            var reference = try runProcess("/usr/bin/systemd-analyze", arguments, environment: environment,
                                           unset: tz == nil ? ["TZ"] : [])
            func stable(_ text: String) -> String {
                text.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("       From now:") }.joined(separator: "\n")
            }
            mine = ProcessOutput(standardOutput: stable(mine.standardOutput), standardError: "", status: mine.status)
            reference = ProcessOutput(standardOutput: stable(reference.standardOutput), standardError: "",
                                      status: reference.status)
            #expect(mine.standardOutput == reference.standardOutput, "TZ=\(tz ?? "(unset)") from \(base)")
            #expect(mine.status == 0 && reference.status == 0)
        }
    }

    /// `--base-time` takes systemd's relative forms too (`now`, `today`, `yesterday`, `tomorrow`,
    /// `+SPAN`, `-SPAN`), counted from the real clock like `systemd-analyze` counts them.
    @Test(arguments: ["now", "today", "yesterday", "tomorrow", "+1h 30min", "-2d", "+0"])
    func relativeBaseTimesReadLikeSystemd(_ base: String) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tickerctl").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build tickerctl first: \(binary)")
        let arguments = ["calendar", "--iterations=2", "--base-time=\(base)", "--", "daily", "Mon *-*-* 00:00 UTC"]
        for zone in ["Europe/Berlin", "Australia/Lord_Howe"] {
            let mine = try runProcess(binary, arguments, environment: ["TZ": zone])
            let reference = try runProcess("/usr/bin/systemd-analyze", arguments, environment: ["TZ": zone])
            func stable(_ text: String) -> String {
                text.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("       From now:") }.joined(separator: "\n")
            }
            #expect(mine.status == 0 && reference.status == 0, "\(mine.standardError)")
            #expect(stable(mine.standardOutput) == stable(reference.standardOutput), "--base-time=\(base) in \(zone)")
        }
    }
}
