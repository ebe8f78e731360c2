/// Microsecond constants shared by the calendar, time-span and schedule code.
public enum Microseconds {
    /// Microseconds in one millisecond.
    public static let perMillisecond: Int64 = 1_000
    /// Microseconds in one second.
    public static let perSecond: Int64 = 1_000_000
    /// Microseconds in one minute.
    public static let perMinute: Int64 = 60 * perSecond
    /// Microseconds in one hour.
    public static let perHour: Int64 = 60 * perMinute
    /// Microseconds in one day.
    public static let perDay: Int64 = 24 * perHour
    /// Microseconds in one week.
    public static let perWeek: Int64 = 7 * perDay
    /// Microseconds in systemd's month: 30.44 days.
    public static let perMonth: Int64 = 2_629_800 * perSecond
    /// Microseconds in systemd's year: 365.25 days.
    public static let perYear: Int64 = 31_557_600 * perSecond
}

/// Floor division and modulo on seconds and microseconds (Swift's `/` truncates toward zero).
enum IntegerMath {
    /// `a / b` rounded toward negative infinity; `b` must be positive.
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b < 0) ? q - 1 : q
    }

    /// `a mod b` in `0..<b`; `b` must be positive.
    static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
        let r = a % b
        return r < 0 ? r + b : r
    }
}
