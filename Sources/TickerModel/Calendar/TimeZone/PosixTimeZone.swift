/// A POSIX `TZ` rule string such as `CET-1CEST,M3.5.0,M10.5.0/3` (the footer of TZif v2+ files),
/// evaluated as glibc's `__tz_compute` does for instants past a zone's transition table.
public struct PosixTimeZone: Sendable, Hashable {
    /// When in the year a daylight-saving change happens.
    enum DateRule: Sendable, Hashable {
        /// `Jn`: day 1...365, 29 February never counted.
        case julianWithoutLeapDay(Int)
        /// `n`: day 0...365, 29 February counted.
        case zeroBasedDay(Int)
        /// `Mm.w.d`: day `d` (0 = Sunday) of week `w` (1...5, 5 = last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// One half of the rule: a zone name and offset with the change rule that starts it.
    struct Rule: Sendable, Hashable {
        /// Abbreviation, e.g. `CEST`.
        let name: String
        /// Offset from UTC in seconds, east positive.
        let utcOffset: Int64
        /// Date of the change (for standard: when daylight time starts; for daylight: when it ends).
        let date: DateRule
        /// Local time of day of the change, in seconds (may be negative or beyond a day).
        let time: Int64
    }

    /// Standard time, whose rule tells when daylight-saving time starts (glibc's `tz_rules[0]`).
    let standard: Rule
    /// Daylight time, whose rule tells when it ends (glibc's `tz_rules[1]`).
    let daylight: Rule
    /// Whether the string names a daylight-saving time at all.
    let hasDaylightTime: Bool

    /// The local time type in effect at `seconds` since the epoch.
    func localTimeType(at seconds: Int64) -> LocalTimeType {
        guard hasDaylightTime else {
            return LocalTimeType(utcOffset: standard.utcOffset, isDST: false, abbreviation: standard.name)
        }
        // glibc computes the changes for the UTC year of the instant.
        let days = IntegerMath.floorDivide(seconds, 86_400)
        let year = CivilCalendar.civilFromDays(days).year
        let start = Self.changeInstant(of: standard, year: year)
        let end = Self.changeInstant(of: daylight, year: year)
        let isDST: Bool
        if start > end {
            isDST = seconds < end || seconds >= start
        } else {
            isDST = seconds >= start && seconds < end
        }
        let rule = isDST ? daylight : standard
        return LocalTimeType(utcOffset: rule.utcOffset, isDST: isDST, abbreviation: rule.name)
    }

    /// glibc's `compute_change`: the UTC instant at which `rule` takes effect in `year`.
    static func changeInstant(of rule: Rule, year: Int64) -> Int64 {
        var t: Int64 = year > 1970 ? CivilCalendar.daysFromCivil(year: year, month: 1, day: 1) * 86_400 : 0
        switch rule.date {
        case .julianWithoutLeapDay(let d):
            t += Int64(d - 1) * 86_400
            if d >= 60 && CivilCalendar.isLeapYear(year) { t += 86_400 }
        case .zeroBasedDay(let d):
            t += Int64(d) * 86_400
        case .monthWeekDay(let month, let week, let weekday):
            t += Int64(CivilCalendar.daysBeforeMonth(year: year, month: month)) * 86_400
            let firstDay = CivilCalendar.daysFromCivil(year: year, month: month, day: 1)
            let firstWeekday = CivilCalendar.weekday(days: firstDay)
            var d = weekday - firstWeekday
            if d < 0 { d += 7 }
            let monthLength = CivilCalendar.daysInMonth(year: year, month: month)
            var i = 1
            while i < week {
                if d + 7 >= monthLength { break }
                d += 7
                i += 1
            }
            t += Int64(d) * 86_400
        }
        return t - rule.utcOffset + rule.time
    }
}

extension PosixTimeZone {
    /// Parses a POSIX TZ string; returns nil when it is malformed.
    public init?(parsing text: String) {
        var scanner = PosixTimeZoneScanner(Array(text.utf8))
        guard let stdName = scanner.name(), let stdOffset = scanner.offset() else { return nil }
        let standardOffset = -stdOffset
        if scanner.atEnd {
            let rule = Rule(name: stdName, utcOffset: standardOffset, date: .zeroBasedDay(0), time: 0)
            self.init(standard: rule, daylight: rule, hasDaylightTime: false)
            return
        }
        guard let dstName = scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if !scanner.atEnd && scanner.peek != UInt8(ascii: ",") {
            guard let value = scanner.offset() else { return nil }
            daylightOffset = -value
        }
        var startDate = DateRule.monthWeekDay(month: 3, week: 2, weekday: 0)
        var endDate = DateRule.monthWeekDay(month: 11, week: 1, weekday: 0)
        var startTime: Int64 = 7200
        var endTime: Int64 = 7200
        if scanner.consume(UInt8(ascii: ",")) {
            guard let s = scanner.dateRule() else { return nil }
            startDate = s
            if scanner.consume(UInt8(ascii: "/")) {
                guard let v = scanner.time() else { return nil }
                startTime = v
            }
            guard scanner.consume(UInt8(ascii: ",")), let e = scanner.dateRule() else { return nil }
            endDate = e
            if scanner.consume(UInt8(ascii: "/")) {
                guard let v = scanner.time() else { return nil }
                endTime = v
            }
        }
        guard scanner.atEnd else { return nil }
        self.init(
            standard: Rule(name: stdName, utcOffset: standardOffset, date: startDate, time: startTime),
            daylight: Rule(name: dstName, utcOffset: daylightOffset, date: endDate, time: endTime),
            hasDaylightTime: true)
    }
}

extension PosixTimeZone {
    /// What glibc makes of a `TZ` value that names no zone file and is no valid rule: UTC, with
    /// the value's leading zone name (three or more letters, or `<...>`) as its abbreviation, or
    /// none (`TZ=Europe/Nowhere` prints times as `... 00:00:00 Europe`, as systemd does).
    public static func unusable(_ text: String) -> PosixTimeZone {
        var scanner = PosixTimeZoneScanner(Array(text.utf8))
        let rule = Rule(name: scanner.name() ?? "", utcOffset: 0, date: .zeroBasedDay(0), time: 0)
        return PosixTimeZone(standard: rule, daylight: rule, hasDaylightTime: false)
    }
}

/// A byte scanner for POSIX TZ strings.
struct PosixTimeZoneScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// A zone name: three or more letters, or `<...>` quoted.
    mutating func name() -> String? {
        if consume(UInt8(ascii: "<")) {
            let begin = index
            while let c = peek, c != UInt8(ascii: ">") { index += 1 }
            guard consume(UInt8(ascii: ">")), index - 1 - begin >= 3 else { return nil }
            return String(decoding: bytes[begin..<(index - 1)], as: UTF8.self)
        }
        let begin = index
        while let c = peek, (c >= 65 && c <= 90) || (c >= 97 && c <= 122) { index += 1 }
        guard index - begin >= 3 else { return nil }
        return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    mutating func number(maxDigits: Int = 9) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while let c = peek, c >= 48 && c <= 57, digits < maxDigits {
            value = value * 10 + Int64(c - 48)
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (positive = west of Greenwich for offsets);
    /// POSIX allows hours 0 to 24.
    mutating func offset() -> Int64? { signedHMS(maxHours: 24) }

    /// A rule time `[+-]hh[:mm[:ss]]` in seconds; RFC 8536 §3.3.1 extends hours to -167...167.
    mutating func time() -> Int64? { signedHMS(maxHours: 167) }

    /// Hours up to `maxHours`, minutes and seconds 0 to 59: anything larger is no time of day
    /// (and could push local times past what the calendar can count).
    private mutating func signedHMS(maxHours: Int64) -> Int64? {
        var sign: Int64 = 1
        if consume(UInt8(ascii: "-")) { sign = -1 } else { _ = consume(UInt8(ascii: "+")) }
        guard let hours = number(), hours <= maxHours else { return nil }
        var total = hours * 3600
        if consume(UInt8(ascii: ":")) {
            guard let minutes = number(), minutes <= 59 else { return nil }
            total += minutes * 60
            if consume(UInt8(ascii: ":")) {
                guard let seconds = number(), seconds <= 59 else { return nil }
                total += seconds
            }
        }
        return sign * total
    }

    mutating func dateRule() -> PosixTimeZone.DateRule? {
        if consume(UInt8(ascii: "J")) {
            guard let d = number(), (1...365).contains(d) else { return nil }
            return .julianWithoutLeapDay(Int(d))
        }
        if consume(UInt8(ascii: "M")) {
            guard let m = number(), (1...12).contains(m), consume(UInt8(ascii: ".")),
                  let w = number(), (1...5).contains(w), consume(UInt8(ascii: ".")),
                  let d = number(), (0...6).contains(d) else { return nil }
            return .monthWeekDay(month: Int(m), week: Int(w), weekday: Int(d))
        }
        guard let d = number(), (0...365).contains(d) else { return nil }
        return .zeroBasedDay(Int(d))
    }
}
