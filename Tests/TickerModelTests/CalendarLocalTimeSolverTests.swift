import Foundation
import TestSupport
import Testing
@testable import TickerModel

/// glibc's `mktime`, reached through Python's `time.mktime` in one process (so its remembered
/// offset carries from call to call, as in systemd), is the reference for `LocalTimeSolver`.
@Suite struct CalendarLocalTimeSolverTests {
    /// Broken-down requests around DST changes, including out-of-range fields and forced DST flags.
    static func requests(seed: UInt64, count: Int) -> [[Int]] {
        var random = SeededRandom(seed: seed)
        let anchors: [[Int]] = [
            [2024, 3, 31, 2], [2024, 10, 27, 2], [2024, 3, 10, 2], [2024, 11, 3, 1], [2024, 4, 7, 1],
            [2024, 10, 6, 2], [2024, 2, 29, 0], [2023, 12, 31, 23], [2040, 3, 25, 2], [2040, 10, 7, 2],
            [1999, 10, 31, 1], [2024, 1, 31, 23], [1959, 5, 1, 1], [1960, 6, 1, 1],
        ]
        var result: [[Int]] = []
        for _ in 0..<count {
            let a = anchors[Int.random(in: 0..<anchors.count, using: &random)]
            let hour = a[3] + Int.random(in: -1...1, using: &random)
            let minute = [0, 15, 29, 30, 31, 45, 59, 60, 75, -1][Int.random(in: 0..<10, using: &random)]
            let day = a[2] + [0, 0, 0, 1, -1, 3][Int.random(in: 0..<6, using: &random)]
            let month = a[1] + [0, 0, 0, 0, 12, -1][Int.random(in: 0..<6, using: &random)]
            let second = [0, 30, 59][Int.random(in: 0..<3, using: &random)]
            let isDST = [-1, -1, -1, 0, 1][Int.random(in: 0..<5, using: &random)]
            result.append([a[0], month, day, hour, minute, second, isDST])
        }
        return result
    }

    @Test(arguments: referenceZones + ["Asia/Tokyo"])
    func agreesWithGlibcMktime(zone: String) throws {
        let requests = Self.requests(seed: 42, count: 400)
        let script = """
            import sys, time
            for line in sys.stdin:
                y, mo, d, h, mi, s, dst = map(int, line.split())
                try:
                    t = int(time.mktime((y, mo, d, h, mi, s, 0, 0, dst)))
                    lt = time.localtime(t)
                    print(t, lt.tm_year, lt.tm_mon, lt.tm_mday, lt.tm_hour, lt.tm_min, lt.tm_sec, lt.tm_isdst)
                except OverflowError:
                    print("error")
            """
        let input = requests.map { $0.map(String.init).joined(separator: " ") }.joined(separator: "\n") + "\n"
        let output = try runProcess("/usr/bin/python3", ["-c", script], environment: ["TZ": zone], input: input)
        try #require(output.status == 0, "python3 failed: \(output.standardError)")
        let expected = output.standardOutput.split(separator: "\n").map(String.init)
        try #require(expected.count == requests.count)

        let rules = try #require(zone == "UTC" ? ZoneRules.utc : SystemZones.load(zone))
        var solver = LocalTimeSolver(rules: rules)
        var mismatches: [String] = []
        for (request, reference) in zip(requests, expected) {
            var tm = BrokenDownTime()
            tm.year = request[0] - 1900
            tm.month = request[1] - 1
            tm.day = request[2]
            tm.hour = request[3]
            tm.minute = request[4]
            tm.second = request[5]
            tm.isDST = request[6]
            let line: String
            if let t = solver.makeTime(&tm) {
                line = "\(t) \(tm.fullYear) \(tm.month + 1) \(tm.day) \(tm.hour) \(tm.minute) \(tm.second) \(tm.isDST)"
            } else {
                line = "error"
            }
            if line != reference { mismatches.append("\(request): got \(line), glibc \(reference)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(requests.count) differ: \(mismatches.prefix(5))")
    }
}
