import CICal
import TickerModel

/// An iCalendar document (RFC 5545) parsed by libical, ready to expand into occurrences.
///
/// The text is parsed once; `occurrences(in:timeZone:)` can then be asked for any window. Calls
/// into libical are serialised (libical has global state), so an `ICalendar` may be shared
/// between tasks.
public final class ICalendar: @unchecked Sendable {
    /// The component libical returned (a VCALENDAR, or an XROOT holding several).
    private let root: OpaquePointer
    /// The VCALENDAR components of `root`.
    private let calendars: [OpaquePointer]
    /// What libical or the expansion found wrong but could skip (X-LIC-ERROR properties, events
    /// without DTSTART, unknown TZIDs), each naming the line or event.
    public let warnings: [String]

    /// Parses `text`. Throws when it holds no VCALENDAR at all; problems inside one (a bad line,
    /// an event without DTSTART) become `warnings` and the rest is kept.
    public init(parsing text: String) throws(CalendarParseError) {
        let parsed: (OpaquePointer, [OpaquePointer], [String])? = libicalLock.withLock { _ in
            icalerror_set_errors_are_fatal(0)
            cical_clear_errno()
            guard let root = icalparser_parse_string(text) else { return nil }
            var calendars: [OpaquePointer] = []
            switch icalcomponent_isa(root) {
            case ICAL_VCALENDAR_COMPONENT:
                calendars = [root]
            case ICAL_XROOT_COMPONENT:
                var child = icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT)
                while let calendar = child {
                    calendars.append(calendar)
                    child = icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT)
                }
            default:
                break
            }
            var warnings: [String] = []
            Self.collectErrors(in: root, into: &warnings)
            cical_clear_errno()
            return (root, calendars, warnings)
        }
        guard let (root, calendars, warnings) = parsed else {
            throw CalendarParseError("not iCalendar data (no BEGIN:VCALENDAR … END:VCALENDAR)")
        }
        guard !calendars.isEmpty else {
            let kind = libicalLock.withLock { _ -> String in
                let name = icalcomponent_kind_to_string(icalcomponent_isa(root)).map { String(cString: $0) }
                icalcomponent_free(root)
                return name ?? "unknown"
            }
            throw CalendarParseError("expected a VCALENDAR, found \(kind.isEmpty ? "no component" : kind)")
        }
        self.root = root
        self.calendars = calendars
        self.warnings = warnings
    }

    deinit {
        libicalLock.withLock { _ in icalcomponent_free(root) }
    }

    /// Every occurrence of every VEVENT that is on at some moment of `window` (see
    /// `CalendarOccurrence.overlaps`), sorted by start then UID. Floating times and all-day
    /// events are placed in `timeZone` (an IANA name such as "Europe/Berlin"; UTC when libical
    /// does not know it). Warnings met while expanding (an unknown TZID, a rule libical rejects)
    /// go to `warnings`.
    public func occurrences(in window: Range<Instant>, timeZone: String,
                            warnings: inout [String]) -> [CalendarOccurrence] {
        var found: [CalendarOccurrence] = []
        libicalLock.withLock { _ in
            guard let local = icaltimezone_get_builtin_timezone(timeZone) ?? icaltimezone_get_utc_timezone() else { return }
            for calendar in calendars {
                var expansion = OccurrenceExpansion(calendar: calendar, localZone: local, window: window)
                found += expansion.run()
                warnings += expansion.warnings
            }
            cical_clear_errno()
        }
        return found.sorted { ($0.start, $0.uid, $0.recurrenceID) < ($1.start, $1.uid, $1.recurrenceID) }
    }

    /// `occurrences(in:timeZone:warnings:)` without the warnings.
    public func occurrences(in window: Range<Instant>, timeZone: String) -> [CalendarOccurrence] {
        var ignored: [String] = []
        return occurrences(in: window, timeZone: timeZone, warnings: &ignored)
    }

    /// Adds the X-LIC-ERROR properties libical put on `component` and its children (one per
    /// line it could not parse) to `warnings`.
    private static func collectErrors(in component: OpaquePointer, into warnings: inout [String]) {
        var property = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
        while let error = property {
            if let text = icalproperty_get_xlicerror(error) {
                let kind = icalcomponent_kind_to_string(icalcomponent_isa(component)).map { String(cString: $0) } ?? ""
                warnings.append("\(kind): \(String(cString: text))")
            }
            property = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
        }
        var child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
        while let next = child {
            collectErrors(in: next, into: &warnings)
            child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
        }
    }
}
