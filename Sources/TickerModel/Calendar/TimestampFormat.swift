/// Formats instants the way systemd prints timestamps (`format_timestamp`,
/// `format_timestamp_relative`).
public enum TimestampFormat {
    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `Mon 2024-04-01 00:00:00 CEST`: the instant in `zone`, seconds truncated, with the zone's
    /// abbreviation (`UTC` when `zone` is UTC).
    public static func timestamp(_ instant: Instant, in zone: ZoneRules) -> String {
        let seconds = IntegerMath.floorDivide(instant, Microseconds.perSecond)
        let tm = zone.localTime(seconds: seconds)
        var out = weekdayNames[tm.weekday] + " "
        out += CalendarFormat.pad(Int(tm.fullYear), 4) + "-" + CalendarFormat.pad(tm.month + 1, 2) + "-"
        out += CalendarFormat.pad(tm.day, 2) + " " + CalendarFormat.pad(tm.hour, 2) + ":"
        out += CalendarFormat.pad(tm.minute, 2) + ":" + CalendarFormat.pad(tm.second, 2)
        if !tm.abbreviation.isEmpty { out += " " + tm.abbreviation }
        return out
    }

    /// `2 years 7 months ago`, `3h 5min left`, `now`: the distance from `now` to `instant`.
    public static func relative(_ instant: Instant, now: Instant) -> String {
        let (distance, suffix) = now > instant ? (now - instant, "ago") : (instant - now, "left")
        typealias M = Microseconds
        if distance >= M.perYear {
            let years = distance / M.perYear
            let months = distance % M.perYear / M.perMonth
            return "\(years) \(years == 1 ? "year" : "years") \(months) \(months == 1 ? "month" : "months") \(suffix)"
        }
        if distance >= M.perMonth {
            let months = distance / M.perMonth
            let days = distance % M.perMonth / M.perDay
            return "\(months) \(months == 1 ? "month" : "months") \(days) \(days == 1 ? "day" : "days") \(suffix)"
        }
        if distance >= M.perWeek {
            let weeks = distance / M.perWeek
            let days = distance % M.perWeek / M.perDay
            return "\(weeks) \(weeks == 1 ? "week" : "weeks") \(days) \(days == 1 ? "day" : "days") \(suffix)"
        }
        if distance >= 2 * M.perDay { return "\(distance / M.perDay) days \(suffix)" }
        if distance >= 25 * M.perHour { return "1 day \((distance - M.perDay) / M.perHour)h \(suffix)" }
        if distance >= 6 * M.perHour { return "\(distance / M.perHour)h \(suffix)" }
        if distance >= M.perHour {
            return "\(distance / M.perHour)h \(distance % M.perHour / M.perMinute)min \(suffix)"
        }
        if distance >= 5 * M.perMinute { return "\(distance / M.perMinute)min \(suffix)" }
        if distance >= M.perMinute {
            return "\(distance / M.perMinute)min \(distance % M.perMinute / M.perSecond)s \(suffix)"
        }
        if distance >= M.perSecond { return "\(distance / M.perSecond)s \(suffix)" }
        if distance >= M.perMillisecond { return "\(distance / M.perMillisecond)ms \(suffix)" }
        if distance > 0 { return "\(distance)us \(suffix)" }
        return "now"
    }
}
