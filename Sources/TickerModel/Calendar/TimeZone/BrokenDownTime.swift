/// A broken-down local time with the exact semantics of C's `struct tm`, used to reproduce glibc's
/// `localtime_r`/`mktime` and systemd's calendar search step by step.
///
/// Fields may hold out-of-range values (minute 60, day 32, month 12) before normalisation, exactly
/// as systemd's `find_next()` leaves them.
struct BrokenDownTime: Sendable, Equatable {
    /// Years since 1900 (`tm_year`).
    var year: Int = 70
    /// Month, 0 = January (`tm_mon`).
    var month: Int = 0
    /// Day of the month, 1-based (`tm_mday`).
    var day: Int = 1
    /// Hour (`tm_hour`).
    var hour: Int = 0
    /// Minute (`tm_min`).
    var minute: Int = 0
    /// Second (`tm_sec`).
    var second: Int = 0
    /// Day of the week, 0 = Sunday (`tm_wday`); set by conversions.
    var weekday: Int = 4
    /// Day of the year, 0-based (`tm_yday`); set by conversions.
    var yearDay: Int = 0
    /// Daylight-saving flag: -1 unknown, 0 standard, 1 daylight (`tm_isdst`).
    var isDST: Int = 0
    /// Offset from UTC in seconds, east positive (`tm_gmtoff`).
    var utcOffset: Int64 = 0
    /// Zone abbreviation (`tm_zone`).
    var abbreviation: String = "UTC"

    /// Breaks `seconds` since the epoch down with a fixed UTC offset (glibc's `__offtime`).
    init(seconds: Int64, utcOffset: Int64, isDST: Int, abbreviation: String) {
        let local = seconds + utcOffset
        let days = IntegerMath.floorDivide(local, 86_400)
        let secondOfDay = Int(local - days * 86_400)
        let civil = CivilCalendar.civilFromDays(days)
        year = Int(civil.year) - 1900
        month = civil.month - 1
        day = civil.day
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        weekday = CivilCalendar.weekday(days: days)
        yearDay = CivilCalendar.daysBeforeMonth(year: civil.year, month: civil.month) + civil.day - 1
        self.isDST = isDST
        self.utcOffset = utcOffset
        self.abbreviation = abbreviation
    }

    /// A time with all fields defaulted (1970-01-01 00:00:00 UTC).
    init() {}

    /// The full Gregorian year.
    var fullYear: Int64 { Int64(year) + 1900 }
}
