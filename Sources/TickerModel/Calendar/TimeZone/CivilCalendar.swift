/// Proleptic Gregorian calendar arithmetic on days since 1970-01-01 (no Foundation).
public enum CivilCalendar {
    /// Whether `year` (a full Gregorian year, e.g. 2024) has a 29 February.
    public static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Number of days in `month` (1...12) of `year`.
    public static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of the given civil date (Howard Hinnant's `days_from_civil`).
    /// `month` is 1...12 and `day` 1...31; other values are not normalised.
    public static func daysFromCivil(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = IntegerMath.floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date (year, month 1...12, day 1...31) of a day count since 1970-01-01.
    public static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = IntegerMath.floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Day of the week of a day count since 1970-01-01: 0 = Sunday ... 6 = Saturday.
    public static func weekday(days: Int64) -> Int {
        Int(IntegerMath.floorModulo(days + 4, 7))
    }

    /// Days before the first of `month` (1...12) in `year`.
    public static func daysBeforeMonth(year: Int64, month: Int) -> Int {
        let table = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]
        let leapDay = (month > 2 && isLeapYear(year)) ? 1 : 0
        return table[month - 1] + leapDay
    }
}
