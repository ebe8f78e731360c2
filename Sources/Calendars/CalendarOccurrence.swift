import TickerModel

/// A calendar day (year, month, day) of an all-day occurrence.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, e.g. 2028.
    public let year: Int
    /// The month, 1…12.
    public let month: Int
    /// The day of the month, 1…31.
    public let day: Int

    /// The day `year`-`month`-`day` (not checked against the calendar).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Orders days chronologically.
    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The day before this one (proleptic Gregorian calendar): an all-day event's last day is
    /// the day before its exclusive end.
    public var previous: CalendarDay {
        if day > 1 { return CalendarDay(year: year, month: month, day: day - 1) }
        let month = self.month == 1 ? 12 : self.month - 1
        let year = self.month == 1 ? self.year - 1 : self.year
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return CalendarDay(year: year, month: month, day: lengths[month - 1])
    }

    /// ISO 8601, `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

/// One occurrence of a calendar event: when it starts and ends and what it says.
///
/// `start` < `end` unless the event has no duration (then they are equal). An all-day occurrence
/// runs from local midnight of `days.lowerBound` to local midnight of `days.upperBound` in the
/// zone the calendar was expanded in, so it is shown for its whole local day.
public struct CalendarOccurrence: Sendable, Hashable {
    /// The event's UID (empty when the event has none).
    public let uid: String
    /// The occurrence's original start (its RECURRENCE-ID): stable when an override moves it, so
    /// `uid` and this make a stable item id.
    public let recurrenceID: Instant
    /// When the occurrence starts.
    public let start: Instant
    /// When it ends (equal to `start` for an event without duration).
    public let end: Instant
    /// For an all-day occurrence, its days: first day up to (not including) the day after.
    public let days: Range<CalendarDay>?
    /// SUMMARY, or nil.
    public let summary: String?
    /// LOCATION, or nil.
    public let location: String?
    /// DESCRIPTION, or nil.
    public let description: String?
    /// URL, or nil.
    public let url: String?

    /// An occurrence with every field given.
    public init(uid: String, recurrenceID: Instant, start: Instant, end: Instant, days: Range<CalendarDay>?,
                summary: String?, location: String?, description: String?, url: String?) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.start = start
        self.end = end
        self.days = days
        self.summary = summary
        self.location = location
        self.description = description
        self.url = url
    }

    /// Whether the occurrence is an all-day one.
    public var isAllDay: Bool { days != nil }

    /// Whether the occurrence is on at any moment of `window` (start inclusive, end exclusive);
    /// an occurrence without duration is on at its start.
    public func overlaps(_ window: Range<Instant>) -> Bool {
        if start == end { return window.contains(start) }
        return start < window.upperBound && end > window.lowerBound
    }
}
