import Foundation
import Testing
import TickerModel

/// `systemd-analyze timespan` is the reference for parsing ("μs:") and formatting ("Human:").
@Suite struct TimeSpanTests {
    static let valid = [
        "10h", "1min 30s", "2d", "500ms", "1.5h", ".5s", "5 10", "1M", "1m", "1.2345678s", "2d 3h 4min 5.5s",
        "0", "1y 1month", "+5s", "1 hour", "3μs", "3µs", "5.000001s", "59.5s", "61.5s", "1hr", "1w", "2 weeks",
        "1.5", " 7 ", "1 s 2", "12.34 .56", "12.34s.56", "1.5msec", "1d1h", "1 y", "1years", "3seconds",
        "90min", "36h", "1usec", "100us", "7d 23h 59min 59s 999ms 999us", "0.1", "1.999999999s",
    ]
    static let invalid = ["", "   ", "1secs", "1.s", "1us 1ns", "-1s", "12.34.56", "1mins", "abc", "1 parsec",
                          "infinity 5s", "5s -1s", "1..2s"]

    @Test func parsingAndFormattingAgreeWithSystemd() throws {
        for text in Self.valid {
            let result = try runProcess("/usr/bin/systemd-analyze", ["timespan", "--", text])
            try #require(result.status == 0, "systemd rejected '\(text)'")
            let lines = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            // The label is "μs:" in UTF-8 locales and "us:" in the C locale.
            let microLine = try #require(lines.first { $0.hasPrefix("μs:") || $0.hasPrefix("us:") })
            let micro = microLine.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            let human = try #require(lines.first { $0.hasPrefix("Human:") }).dropFirst(6).trimmingCharacters(in: .whitespaces)
            let span = try TimeSpan(parsing: text)
            #expect(String(span.microseconds) == micro, "'\(text)'")
            #expect(span.formatted() == human, "'\(text)'")
        }
    }

    @Test func invalidSpansAreRejectedByBoth() throws {
        for text in Self.invalid {
            let result = try runProcess("/usr/bin/systemd-analyze", ["timespan", "--", text])
            #expect(result.status != 0, "systemd accepted '\(text)'")
            #expect(throws: TimeSpanParseError.self, "'\(text)'") { try TimeSpan(parsing: text) }
        }
    }

    @Test func infinityAndErrorsSayWhatIsWrong() throws {
        #expect(try TimeSpan(parsing: "infinity").isInfinite)
        #expect(TimeSpan.infinity.formatted() == "infinity")
        do {
            _ = try TimeSpan(parsing: "10 parsecs")
            Issue.record("accepted an unknown unit")
        } catch {
            #expect(error.description.contains("'parsecs'"))
        }
    }
}
