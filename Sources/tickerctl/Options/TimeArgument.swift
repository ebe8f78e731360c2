import TickerModel

/// Reads the time spans and instants given on the command line.
enum TimeArgument {
    /// A systemd time span (`90s`, `1min 30s`, `2h`; a bare number is seconds) in microseconds.
    /// `option` names the option in the error.
    static func span(_ text: String, option: String) throws(UsageError) -> Int64 {
        let span: TimeSpan
        do {
            span = try TimeSpan(parsing: text)
        } catch {
            throw UsageError("--\(option): \(error.description)")
        }
        guard !span.isInfinite else { throw UsageError("--\(option): 'infinity' is not allowed here") }
        return span.microseconds
    }

    /// An instant: `now`, `+SPAN` / `-SPAN` (from now), `@SECONDS`, or a timestamp such as
    /// `2025-06-01 09:00` or `2025-06-01 09:00:30 Europe/Berlin`.
    static func instant(
        _ text: String, option: String, now: Instant, zones: any TimeZoneLookup
    ) throws(UsageError) -> Instant {
        let trimmed = text.trimmingSpaces
        if trimmed == "now" { return now }
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
            throw UsageError("--\(option): \(error.description) (or use 'now', '+SPAN', '-SPAN')")
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
