/// Converts broken-down local times back to instants exactly as glibc 2.36's `mktime` does, including
/// its handling of non-existent (DST gap) and repeated (DST fold) local times.
///
/// glibc remembers the UTC offset of its previous result and uses it as the first guess of the next
/// call; in a fold, that guess decides which of the two instants is returned. The solver keeps the
/// same memory in `offsetGuess`, so a sequence of calls behaves like the same sequence in one process.
struct LocalTimeSolver {
    /// The zone whose local times are converted.
    let rules: ZoneRules
    /// glibc's `localtime_offset` (minus the UTC offset of the previous result).
    var offsetGuess: Int64 = 0

    init(rules: ZoneRules) { self.rules = rules }

    /// `mktime(tm)`: the instant in seconds, with `tm` normalised; nil where glibc returns -1.
    mutating func makeTime(_ tm: inout BrokenDownTime) -> Int64? {
        let isDST = tm.isDST
        let monthRemainder = tm.month % 12
        let negativeRemainder = monthRemainder < 0 ? 1 : 0
        let monthYears = tm.month / 12 - negativeRemainder
        let year = tm.year + monthYears
        let monthDay = Self.monthYearDay(leap: Self.isLeap(tmYear: year))[monthRemainder + 12 * negativeRemainder] - 1
        let yearDay = monthDay + tm.day
        let hour = tm.hour
        let minute = tm.minute
        let secondRequested = tm.second
        let second = min(max(secondRequested, 0), 59)

        let negativeOffsetGuess = -offsetGuess
        let t0 = Self.difference(year, yearDay, hour, minute, second, 70, 0, 0, 0, Int(negativeOffsetGuess))
        var t = t0
        var t1 = t0
        var t2 = t0
        var dst2 = 0
        var remainingProbes = 6
        var result = rules.localTime(seconds: t)

        found: do {
            while true {
                result = rules.localTime(seconds: t)
                let dt = Self.difference(year, yearDay, hour, minute, second, result)
                if dt == 0 { break }
                let resultIsDST = result.isDST != 0 ? 1 : 0
                if t == t1 && t != t2
                    && (result.isDST < 0
                        || (isDST < 0 ? dst2 <= resultIsDST : (isDST != 0 ? 1 : 0) != resultIsDST)) {
                    break found
                }
                remainingProbes -= 1
                if remainingProbes == 0 { return nil }
                t1 = t2
                t2 = t
                t += dt
                dst2 = resultIsDST
            }

            if Self.isDSTDiffer(isDST, result.isDST) {
                let stride: Int64 = 601_200
                let deltaBound: Int64 = 536_454_000 / 2 + stride
                var delta = stride
                while delta < deltaBound {
                    for direction: Int64 in [-1, 1] {
                        let ot = t + delta * direction
                        let other = rules.localTime(seconds: ot)
                        if !Self.isDSTDiffer(isDST, other.isDST) {
                            let gt = ot + Self.difference(year, yearDay, hour, minute, second, other)
                            t = gt
                            result = rules.localTime(seconds: gt)
                            break found
                        }
                    }
                    delta += stride
                }
                // No time with the requested flag nearby: assume daylight time is one hour ahead.
                let dstDifference = (isDST == 0 ? 1 : 0) - (result.isDST == 0 ? 1 : 0)
                t += 3600 * Int64(dstDifference)
                result = rules.localTime(seconds: t)
                break found
            }
        }

        offsetGuess = t - t0 + offsetGuess
        if secondRequested != result.second {
            let adjustment = (second == 0 && result.second == 60 ? 1 : 0) - second + secondRequested
            t += Int64(adjustment)
            result = rules.localTime(seconds: t)
        }
        tm = result
        return t
    }

    /// `timegm(tm)`: the instant in seconds with `tm` read as UTC and normalised.
    static func makeUTCTime(_ tm: inout BrokenDownTime) -> Int64 {
        let monthRemainder = tm.month % 12
        let negativeRemainder = monthRemainder < 0 ? 1 : 0
        let year = tm.year + tm.month / 12 - negativeRemainder
        let yearDay = monthYearDay(leap: isLeap(tmYear: year))[monthRemainder + 12 * negativeRemainder] - 1 + tm.day
        let t = difference(year, yearDay, tm.hour, tm.minute, tm.second, 70, 0, 0, 0, 0)
        tm = BrokenDownTime(seconds: t, utcOffset: 0, isDST: 0, abbreviation: "UTC")
        return t
    }

    private static func isDSTDiffer(_ a: Int, _ b: Int) -> Bool {
        ((a == 0) != (b == 0)) && a >= 0 && b >= 0
    }

    private static func isLeap(tmYear year: Int) -> Bool {
        (year & 3) == 0 && (year % 100 != 0 || ((year / 100) & 3) == (-(1900 / 100) & 3))
    }

    private static let yearDays: [[Int]] = [
        [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365],
        [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366],
    ]

    private static func monthYearDay(leap: Bool) -> [Int] { yearDays[leap ? 1 : 0] }

    private static func difference(_ year: Int, _ yearDay: Int, _ hour: Int, _ minute: Int, _ second: Int,
                                   _ tm: BrokenDownTime) -> Int64 {
        difference(year, yearDay, hour, minute, second, tm.year, tm.yearDay, tm.hour, tm.minute, tm.second)
    }

    /// glibc `ydhms_diff`: (year1-yday1 h1:m1:s1) - (year0-yday0 h0:m0:s0) in seconds.
    private static func difference(_ year1: Int, _ yearDay1: Int, _ hour1: Int, _ minute1: Int, _ second1: Int,
                                   _ year0: Int, _ yearDay0: Int, _ hour0: Int, _ minute0: Int,
                                   _ second0: Int) -> Int64 {
        let a4 = (year1 >> 2) + (1900 >> 2) - ((year1 & 3) == 0 ? 1 : 0)
        let b4 = (year0 >> 2) + (1900 >> 2) - ((year0 & 3) == 0 ? 1 : 0)
        let a100 = a4 / 25 - (a4 % 25 < 0 ? 1 : 0)
        let b100 = b4 / 25 - (b4 % 25 < 0 ? 1 : 0)
        let a400 = a100 >> 2
        let b400 = b100 >> 2
        let leapDays = (a4 - b4) - (a100 - b100) + (a400 - b400)
        let years = Int64(year1 - year0)
        let days = 365 * years + Int64(yearDay1 - yearDay0 + leapDays)
        let hours = 24 * days + Int64(hour1 - hour0)
        let minutes = 60 * hours + Int64(minute1 - minute0)
        return 60 * minutes + Int64(second1 - second0)
    }
}
