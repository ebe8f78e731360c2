import Foundation
import Testing
import TickerModel

/// `systemd-analyze calendar` (systemd 252) is the reference: the normalised forms, the elapses
/// and the rejections of TickerModel must be the same, line for line.
@Suite struct CalendarReferenceTests {
    /// Base times around DST changes (Berlin, New York, Lord Howe's 30-minute shift), month ends,
    /// leap days and the year's end, in the local zone of each run, plus epoch seconds.
    static let baseTimes = [
        "2024-03-31 01:30:00", "2024-10-27 01:59:59", "2024-03-10 01:45:00", "2024-11-03 01:30:00",
        "2024-04-07 01:45:00", "2024-10-06 01:50:00", "2024-02-28 23:59:59", "2023-12-31 23:59:00",
        "2025-01-31 12:00:00", "2028-02-29 00:00:00", "@1709251199", "@1730597400",
    ]
    static let iterations = 5
    static let expressions = CalendarCorpus.syntaxElements + CalendarCorpus.invalid
        + CalendarCorpus.random(seed: 2024, count: 400)

    /// Runs `systemd-analyze calendar` and returns its standard output without the "From now:" lines
    /// (systemd measures those from the real clock) and the expressions it rejected.
    static func reference(zone: String, base: String, expressions: [String]) throws
        -> (output: String, rejected: [String], status: Int32) {
        let result = try runProcess("/usr/bin/systemd-analyze",
                                    ["calendar", "--base-time=\(base)", "--iterations=\(iterations)", "--"]
                                        + expressions,
                                    environment: ["TZ": zone])
        let output = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("       From now:") }.joined(separator: "\n")
        let prefix = "Failed to parse calendar specification '"
        let rejected = result.standardError.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix(prefix), let end = line.range(of: "': ", options: .backwards) else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: prefix.count)..<end.lowerBound])
        }
        return (output, rejected, result.status)
    }

    @Test(arguments: referenceZones)
    func corpusAgreesWithSystemdAnalyze(zone: String) throws {
        let zones = SystemZones(local: zone)
        var agreeing = 0
        var compared = 0
        for base in Self.baseTimes {
            let reference = try Self.reference(zone: zone, base: base, expressions: Self.expressions)
            let start = try TimestampParser.parse(base, zones: zones)
            let mine = CalendarReport.render(expressions: Self.expressions, zones: zones, base: start,
                                             iterations: Self.iterations, now: nil)
            let myRejected = mine.errors.compactMap { message -> String? in
                let prefix = "Failed to parse calendar specification '"
                guard message.hasPrefix(prefix), let end = message.range(of: "': ", options: .backwards) else {
                    return nil
                }
                return String(message[message.index(message.startIndex, offsetBy: prefix.count)..<end.lowerBound])
            }
            #expect(myRejected == reference.rejected, "rejections differ in \(zone) from \(base)")
            #expect(mine.succeeded == (reference.status == 0), "exit status differs in \(zone) from \(base)")
            compared += Self.expressions.count
            if mine.standardOutput == reference.output && myRejected == reference.rejected {
                agreeing += Self.expressions.count
                continue
            }
            // Find the expressions that differ, one by one, to report them.
            for expression in Self.expressions {
                let single = try Self.reference(zone: zone, base: base, expressions: [expression])
                let own = CalendarReport.render(expressions: [expression], zones: zones, base: start,
                                                iterations: Self.iterations, now: nil)
                if own.standardOutput == single.output {
                    agreeing += 1
                } else {
                    Issue.record("'\(expression)' in \(zone) from \(base):\nsystemd:\n\(single.output)\nmine:\n\(own.standardOutput)")
                }
            }
        }
        print("calendar corpus, \(zone): \(agreeing) of \(compared) expression runs agree "
              + "(\(Self.expressions.count) expressions × \(Self.baseTimes.count) base times × "
              + "\(Self.iterations) iterations)")
        #expect(agreeing == compared)
    }

    /// Pacific/Apia skipped 30 December 2011 (UTC−10 to UTC+14 at midnight): every hand-written
    /// syntax element, from just before the skipped day, from its last second in the old offset
    /// and from the first second of 31 December, elapses as systemd computes it.
    @Test(arguments: ["2011-12-29 20:00:00", "2011-12-29 23:59:59", "2011-12-31 00:00:00"])
    func aSkippedDayAgreesWithSystemdAnalyze(base: String) throws {
        let zones = SystemZones(local: "Pacific/Apia")
        let expressions = CalendarCorpus.syntaxElements + ["*-12-30", "*-12-29..31 12:00", "*-*-* 23:59:59"]
        let reference = try Self.reference(zone: "Pacific/Apia", base: base, expressions: expressions)
        let mine = CalendarReport.render(expressions: expressions, zones: zones,
                                         base: try TimestampParser.parse(base, zones: zones),
                                         iterations: Self.iterations, now: nil)
        #expect(mine.standardOutput == reference.output)
    }

    @Test func corpusHasEnoughValidAndInvalidExpressions() throws {
        let zones = SystemZones(local: "UTC")
        var valid = 0
        for expression in Self.expressions {
            if (try? CalendarSpec(parsing: expression, zones: zones)) != nil { valid += 1 }
        }
        #expect(valid >= 300)
        #expect(Self.expressions.count - valid >= CalendarCorpus.invalid.count)
    }
}
