/// systemd 252's `find_next()` / `calendar_spec_next_usec()`, step for step, over glibc's `mktime`.
///
/// The search moves field by field through broken-down local time and lets `mktime` normalise
/// out-of-range values, so DST gaps and folds come out exactly as systemd computes them.
struct CalendarSearch {
    let spec: CalendarSpec
    private var solver: LocalTimeSolver

    /// systemd's safety valve against endless searches.
    private static let maximumIterations = 1000
    /// USEC_TIMESTAMP_FORMATTABLE_MAX: 9999-12-30 23:59:59.999999 UTC.
    private static let formattableMaximum: Int64 = 253_402_214_399_999_999

    init(spec: CalendarSpec) {
        self.spec = spec
        solver = LocalTimeSolver(rules: spec.zone)
    }

    private enum Failure: Error {
        case noMoreElapses
        case gaveUp
    }

    mutating func next(after instant: Instant) -> CalendarSpec.Elapse {
        guard instant <= Self.formattableMaximum else { return .outOfRange }
        let usec = max(instant, -1) + 1
        let seconds = IntegerMath.floorDivide(usec, Microseconds.perSecond)
        var tm = spec.isUTC ? BrokenDownTime(seconds: seconds, utcOffset: 0, isDST: 0, abbreviation: "UTC")
                            : spec.zone.localTime(seconds: seconds)
        var tmMicroseconds = Int(usec - seconds * Microseconds.perSecond)
        do {
            try findNext(&tm, &tmMicroseconds)
        } catch .noMoreElapses {
            return .never
        } catch {
            return .gaveUp
        }
        guard let t = makeTime(&tm), t >= 0 else { return .outOfRange }
        return .at(t * Microseconds.perSecond + Int64(tmMicroseconds))
    }

    /// `mktime_or_timegm()`; nil where it fails.
    private mutating func makeTime(_ tm: inout BrokenDownTime) -> Int64? {
        spec.isUTC ? LocalTimeSolver.makeUTCTime(&tm) : solver.makeTime(&tm)
    }

    /// `find_end_of_month()`: the day of the month `day` days before its end, or -1.
    private mutating func endOfMonth(_ tm: BrokenDownTime, _ day: Int) -> Int {
        var t = tm
        t.month += 1
        t.day = 1 - day
        guard let result = makeTime(&t), result >= 0, t.month == tm.month else { return -1 }
        return t.day
    }

    /// `find_matching_component()`: -1 no match, 0 unchanged, 1 changed.
    private mutating func matchComponent(_ chain: [CalendarComponent], isDay: Bool, _ tm: BrokenDownTime,
                                         _ value: inout Int) -> Int {
        if chain.isEmpty { return 0 }
        let fromEnd = spec.endOfMonth && isDay
        var best = -1
        var found = false
        for c in chain {
            var start = c.start
            var stop = c.stop
            if fromEnd {
                start = endOfMonth(tm, c.start)
                stop = endOfMonth(tm, c.stop)
                if stop > 0 { swap(&start, &stop) }
            }
            if start >= value {
                if !found || start < best {
                    best = start
                    found = true
                }
            } else if c.repeat > 0 {
                let distance = value - start
                let k = start + c.repeat * (distance / c.repeat + (distance % c.repeat != 0 ? 1 : 0))
                if (!found || k < best) && (stop < 0 || k <= stop) {
                    best = k
                    found = true
                }
            }
        }
        guard found else { return -1 }
        let changed = value != best ? 1 : 0
        value = best
        return changed
    }

    /// `tm_within_bounds()`: 1 when `mktime` leaves the fields as they are; 0 when it normalised
    /// them forward (`tm` then holds the normalised time with the fields below the first changed
    /// one reset, exactly as systemd resets them); -1 on error or when it would go backwards.
    private mutating func withinBounds(_ tm: inout BrokenDownTime) -> Int {
        if tm.fullYear > 2199 { return -1 }
        var t = tm
        guard let seconds = makeTime(&t), seconds >= 0 else { return -1 }
        func compare(_ a: Int, _ b: Int) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
        var comparison = compare(t.year, tm.year)
        if comparison != 0 {
            t.month = 0
        } else if case let c = compare(t.month, tm.month), c != 0 {
            comparison = c
            t.day = 1
        } else if case let c = compare(t.day, tm.day), c != 0 {
            comparison = c
            t.hour = 0
        } else if case let c = compare(t.hour, tm.hour), c != 0 {
            comparison = c
            t.minute = 0
        } else if case let c = compare(t.minute, tm.minute), c != 0 {
            comparison = c
            t.second = 0
        } else {
            comparison = compare(t.second, tm.second)
        }
        if comparison < 0 { return -1 }
        if comparison > 0 { tm = t }
        return comparison == 0 ? 1 : 0
    }

    /// `matches_weekday()`.
    private mutating func matchesWeekday(_ tm: BrokenDownTime) -> Bool {
        let bits = spec.weekdays
        if bits < 0 || bits >= 127 { return true }
        var t = tm
        guard let seconds = makeTime(&t), seconds >= 0 else { return false }
        let k = t.weekday == 0 ? 6 : t.weekday - 1
        return bits & (1 << k) != 0
    }

    private mutating func findNext(_ tm: inout BrokenDownTime, _ usec: inout Int) throws(Failure) {
        var c = tm
        var cUsec = usec
        // Debian's 252 carries the upstream fix for zones whose DST is negative: when the search
        // does not advance, it moves on an hour and lets mktime choose the DST flag from then on.
        var invalidateDST = false
        for _ in 0..<Self.maximumIterations {
            _ = makeTime(&c)
            if !invalidateDST { c.isDST = spec.forcedDST }

            var year = c.year + 1900
            var r = matchComponent(spec.year, isDay: false, c, &year)
            c.year = year - 1900
            if r > 0 {
                c.month = 0
                c.day = 1
                (c.hour, c.minute, c.second, cUsec) = (0, 0, 0, 0)
            }
            if r < 0 { throw .noMoreElapses }
            if withinBounds(&c) <= 0 { throw .noMoreElapses }

            var month = c.month + 1
            r = matchComponent(spec.month, isDay: false, c, &month)
            c.month = month - 1
            if r > 0 {
                c.day = 1
                (c.hour, c.minute, c.second, cUsec) = (0, 0, 0, 0)
            }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.year += 1
                c.month = 0
                c.day = 1
                (c.hour, c.minute, c.second, cUsec) = (0, 0, 0, 0)
                continue
            }
            if r == 0 { continue }

            var day = c.day
            r = matchComponent(spec.day, isDay: true, c, &day)
            c.day = day
            if r > 0 { (c.hour, c.minute, c.second, cUsec) = (0, 0, 0, 0) }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.month += 1
                c.day = 1
                (c.hour, c.minute, c.second, cUsec) = (0, 0, 0, 0)
                continue
            }
            if r == 0 { continue }

            if !matchesWeekday(c) {
                c.day += 1
                (c.hour, c.minute, c.second, cUsec) = (0, 0, 0, 0)
                continue
            }

            var hour = c.hour
            r = matchComponent(spec.hour, isDay: false, c, &hour)
            c.hour = hour
            if r > 0 { (c.minute, c.second, cUsec) = (0, 0, 0) }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.day += 1
                (c.hour, c.minute, c.second, cUsec) = (0, 0, 0, 0)
                continue
            }
            if r == 0 { continue }

            var minute = c.minute
            r = matchComponent(spec.minute, isDay: false, c, &minute)
            c.minute = minute
            if r > 0 { (c.second, cUsec) = (0, 0) }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.hour += 1
                (c.minute, c.second, cUsec) = (0, 0, 0)
                continue
            }
            if r == 0 { continue }

            var micro = c.second * 1_000_000 + cUsec
            r = matchComponent(spec.microsecond, isDay: false, c, &micro)
            cUsec = micro % 1_000_000
            c.second = micro / 1_000_000
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.minute += 1
                (c.second, cUsec) = (0, 0)
                continue
            }
            if r == 0 { continue }

            let start = (tm.year, tm.month, tm.day, tm.hour, tm.minute, tm.second)
            let found = (c.year, c.month, c.day, c.hour, c.minute, c.second)
            if start > found || (start == found && usec >= cUsec + 1) {
                invalidateDST = true
                c.hour += 1
                continue
            }
            tm = c
            usec = cUsec
            return
        }
        throw .gaveUp
    }
}
