import TickerModel

/// Reads the time spans and instants given on the command line.
enum TimeArgument {
    /// A systemd time span (`90s`, `1min 30s`, `2h`; a bare number is seconds) in microseconds.
    /// `option` names the option in the error.
    static func span(_ text: String, option: String) throws(UsageError) -> Int64 {
        try span(text, label: "--\(option)")
    }

    /// A time span as ``span(_:option:)`` reads it; `label` starts the error (`delay=soon` for a
    /// `configure` word, which is no option).
    static func span(_ text: String, label: String) throws(UsageError) -> Int64 {
        let span: TimeSpan
        do {
            span = try TimeSpan(parsing: text)
        } catch {
            throw UsageError("\(label): \(error.description)")
        }
        guard !span.isInfinite else { throw UsageError("\(label): 'infinity' is not allowed here") }
        return span.microseconds
    }

    /// An instant: `now`, `today`, `yesterday`, `tomorrow` (local midnight), `+SPAN` / `-SPAN`
    /// (from now), `@SECONDS`, or a timestamp such as `2025-06-01 09:00` or
    /// `2025-06-01 09:00:30 Europe/Berlin` — the forms of systemd's `parse_timestamp()`.
    static func instant(
        _ text: String, option: String, now: Instant, zones: any TimeZoneLookup
    ) throws(UsageError) -> Instant {
        let trimmed = text.trimmingSpaces
        if trimmed == "now" { return now }
        if let days: Int64 = ["yesterday": -1, "today": 0, "tomorrow": 1][trimmed] {
            return try midnight(daysFrom: now, days, zones: zones, option: option)
        }
        if let sign = trimmed.first, sign == "+" || sign == "-" {
            let offset = try span(String(trimmed.dropFirst()), option: option)
            let (result, overflow) = sign == "+"
                ? now.addingReportingOverflow(offset) : now.subtractingReportingOverflow(offset)
            guard !overflow else { throw UsageError("--\(option): '\(text)' lies too far away") }
            return result
        }
        do {
            return try TimestampParser.parse(trimmed, zones: zones)
        } catch {
            throw UsageError("--\(option): \(error.description) (or use 'now', 'today', 'tomorrow', 'yesterday', '+SPAN', '-SPAN')")
        }
    }

    /// Local midnight starting the day `days` after the local day of `now` (as systemd's `today`,
    /// `yesterday`, `tomorrow`: the date's 00:00:00 with mktime's rules).
    private static func midnight(
        daysFrom now: Instant, _ days: Int64, zones: any TimeZoneLookup, option: String
    ) throws(UsageError) -> Instant {
        /// `YYYY-MM-DD` of `t` in the local zone.
        func localDate(_ t: Instant) -> String {
            let stamp = TimestampFormat.timestamp(t, in: zones.localZone).split(separator: " ")
            return stamp.count > 1 ? String(stamp[1]) : ""
        }
        do {
            // From local noon, whole days of 24 h land on the right dates whatever DST does.
            let noon = try TimestampParser.parse(localDate(now) + " 12:00:00", zones: zones)
            return try TimestampParser.parse(localDate(noon + days * Microseconds.perDay), zones: zones)
        } catch {
            throw UsageError("--\(option): \(error.description)")
        }
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        var view = Substring(self)
        while view.first == " " { view.removeFirst() }
        while view.last == " " { view.removeLast() }
        return String(view)
    }
}
