/// A parsed systemd calendar event expression (systemd.time(7), "Calendar Events"), bound to the
/// time zone it is evaluated in.
///
/// Parsing, normalisation and `nextElapse(after:)` reproduce systemd 252's `calendarspec.c` on top
/// of glibc's `mktime`, so results (including DST gaps and folds) match `systemd-analyze calendar`.
public struct CalendarSpec: Sendable, Hashable, CustomStringConvertible {
    /// Identity for equality, hashing and caches: the normalised form and the zone's name.
    public internal(set) var key = ""
    /// The expression as written.
    public let originalForm: String
    /// Weekday bit set (bit 0 = Monday), or -1 for any day.
    var weekdays: Int = -1
    /// Whether the day field counts from the end of the month (`~`).
    var endOfMonth = false
    var year: [CalendarComponent] = []
    var month: [CalendarComponent] = []
    var day: [CalendarComponent] = []
    var hour: [CalendarComponent] = []
    var minute: [CalendarComponent] = []
    /// Seconds, in microseconds.
    var microsecond: [CalendarComponent] = []
    /// Whether the expression is evaluated in UTC.
    var isUTC = false
    /// The daylight-saving flag forced by a trailing local zone abbreviation, or -1.
    var forcedDST = -1
    /// The IANA zone named by the expression, if any.
    public internal(set) var timeZoneName: String?
    /// The rules the expression is evaluated in (UTC, the named zone or the local zone).
    public internal(set) var zone: ZoneRules = .utc

    init(originalForm: String) {
        self.originalForm = originalForm
    }

    /// Two specs are equal when they print the same and are evaluated in the same zone.
    public static func == (a: CalendarSpec, b: CalendarSpec) -> Bool { a.key == b.key }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The normalised form, exactly as systemd prints it.
    public var normalizedForm: String { CalendarFormat.normalizedForm(of: self) }

    /// The normalised form.
    public var description: String { normalizedForm }

    /// Parses `expression`, finding zones through `zones`.
    public init(parsing expression: String, zones: any TimeZoneLookup) throws(CalendarParseError) {
        self = try CalendarSpecParser.parse(expression, zones: zones)
    }

    /// The first instant strictly after `instant` at which the expression elapses, or nil when it
    /// never elapses again (or systemd would give up on it).
    public func nextElapse(after instant: Instant) -> Instant? {
        if case .at(let next) = elapse(after: instant) { return next }
        return nil
    }

    /// The outcome of a search for the next elapse, as systemd distinguishes it.
    public enum Elapse: Sendable, Equatable {
        /// The next elapse.
        case at(Instant)
        /// The expression never elapses after the given instant.
        case never
        /// systemd's search gave up ("Infinite loop in calendar calculation", EDEADLK).
        case gaveUp
        /// The starting instant is beyond what systemd can format (EINVAL).
        case outOfRange
    }

    /// The next elapse strictly after `instant`, with systemd's failure modes.
    public func elapse(after instant: Instant) -> Elapse {
        var search = CalendarSearch(spec: self)
        return search.next(after: instant)
    }

    /// The next `count` elapses after `instant`, each strictly after the one before; stops early
    /// when there are no more.
    public func elapses(after instant: Instant, count: Int) -> [Instant] {
        var search = CalendarSearch(spec: self)
        var result: [Instant] = []
        var base = instant
        while result.count < count, case .at(let next) = search.next(after: base) {
            result.append(next)
            base = next
        }
        return result
    }
}
