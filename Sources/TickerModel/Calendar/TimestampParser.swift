/// Why a timestamp could not be read.
public struct TimestampParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The timestamp as given.
    public let text: String
    /// What is wrong with it.
    public let reason: String
    /// A description a person can act on.
    public var description: String { "invalid timestamp '\(text)': \(reason)" }
}

/// Parses absolute timestamps like systemd's `parse_timestamp()` does for the common forms:
/// `@SECONDS[.FRACTION]`, `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS[.FRACTION]`,
/// optionally preceded by a weekday and followed by `UTC`, an IANA zone or a local zone
/// abbreviation. Local times are converted with glibc `mktime` semantics (a time in a DST gap
/// moves forward by the gap; a repeated time resolves as a fresh process resolves it).
public enum TimestampParser {
    /// Parses `text`, reading zones from `zones`.
    public static func parse(_ text: String, zones: any TimeZoneLookup) throws(TimestampParseError) -> Instant {
        func fail(_ reason: String) -> TimestampParseError { TimestampParseError(text: text, reason: reason) }
        if text.hasPrefix("@") {
            let span: TimeSpan
            do {
                span = try TimeSpan(parsing: String(text.dropFirst()), defaultUnit: Microseconds.perSecond)
            } catch {
                throw fail(error.reason)
            }
            guard !span.isInfinite else { throw fail("infinity is not a point in time") }
            return span.microseconds
        }
        var body = Substring(text)
        var rules = zones.localZone
        var isUTC = false
        var forcedDST = -1
        if body.lowercased().hasSuffix(" utc") {
            isUTC = true
            rules = .utc
            body = body.dropLast(4)
        } else if let space = body.lastIndex(of: " ") {
            let last = String(body[body.index(after: space)...])
            if last.lowercased() == rules.standardAbbreviation.lowercased() {
                forcedDST = 0
                body = body[..<space]
            } else if last.lowercased() == rules.daylightAbbreviation.lowercased() {
                forcedDST = 1
                body = body[..<space]
            } else if TimeZoneName.isWellFormed(last), let named = zones.zone(named: last) {
                rules = named
                body = body[..<space]
            }
        }
        var weekday = -1
        let names = ["sunday", "sun", "monday", "mon", "tuesday", "tue", "wednesday", "wed", "thursday", "thu",
                     "friday", "fri", "saturday", "sat"]
        for (index, name) in names.enumerated() where body.lowercased().hasPrefix(name + " ") {
            weekday = index / 2
            body = body.dropFirst(name.count + 1)
            break
        }
        guard let fields = Fields(parsing: body) else {
            throw fail("expected 'YYYY-MM-DD [HH:MM[:SS[.FRACTION]]] [ZONE]' or '@SECONDS'")
        }
        var tm = BrokenDownTime()
        tm.year = fields.year - 1900
        tm.month = fields.month - 1
        tm.day = fields.day
        tm.hour = fields.hour
        tm.minute = fields.minute
        tm.second = fields.second
        tm.isDST = forcedDST
        let seconds: Int64?
        if isUTC {
            seconds = LocalTimeSolver.makeUTCTime(&tm)
        } else {
            var solver = LocalTimeSolver(rules: rules)
            seconds = solver.makeTime(&tm)
        }
        guard let seconds, seconds >= 0 else { throw fail("it lies before 1970 or cannot be represented") }
        if weekday >= 0 && tm.weekday != weekday { throw fail("the weekday does not match the date") }
        // Years far past 9999 are fine for the calendar but not for microseconds in an Int64.
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: Microseconds.perSecond)
        guard !overflow, whole <= Int64.max - fields.microseconds else {
            throw fail("it lies too far in the future to be represented")
        }
        return whole + fields.microseconds
    }

    /// The numeric fields of `YYYY-MM-DD[ HH:MM[:SS[.F]]]` (two-digit years allowed, as `%y`).
    private struct Fields {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        var microseconds: Int64 = 0

        init?(parsing text: Substring) {
            let parts = text.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 1 || parts.count == 2 else { return nil }
            let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
            guard date.count == 3, let y = Self.number(date[0]), let m = Self.number(date[1]),
                  let d = Self.number(date[2]), (1...12).contains(m), (1...31).contains(d) else { return nil }
            year = date[0].count == 2 ? (y < 69 ? 2000 + y : 1900 + y) : y
            month = m
            day = d
            guard parts.count == 2 else { return }
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard time.count == 2 || time.count == 3, let h = Self.number(time[0]), let mi = Self.number(time[1]),
                  (0...23).contains(h), (0...59).contains(mi) else { return nil }
            hour = h
            minute = mi
            guard time.count == 3 else { return }
            let secondParts = time[2].split(separator: ".", omittingEmptySubsequences: false)
            guard secondParts.count <= 2, let s = Self.number(secondParts[0]), (0...60).contains(s) else { return nil }
            second = s
            if secondParts.count == 2 {
                let digits = secondParts[1]
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                var value: Int64 = 0
                for (i, c) in digits.prefix(6).enumerated() {
                    _ = i
                    value = value * 10 + Int64(c.asciiValue.map { $0 - 48 } ?? 0)
                }
                for _ in digits.prefix(6).count..<6 { value *= 10 }
                microseconds = value
            }
        }

        private static func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(text)
        }
    }
}
