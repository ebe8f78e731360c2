import CICal
import TickerModel

/// Expands the VEVENTs of one VCALENDAR into occurrences in a window: DTSTART, RRULE and RDATE
/// give the starts, EXDATE removes some, and VEVENTs with a RECURRENCE-ID replace the occurrence
/// they name. One with `RANGE=THISANDFUTURE` also reschedules every later occurrence of its
/// series (RFC 5545 3.8.4.4): moved by the same difference of wall-clock time, with its length
/// and its fields. Runs with `libicalLock` held (the caller takes it).
struct OccurrenceExpansion {
    /// The VCALENDAR (its VTIMEZONEs resolve TZIDs).
    let calendar: OpaquePointer
    /// Where floating times and all-day dates are placed.
    let localZone: OpaquePointer
    /// libical's UTC zone (no folds or gaps to correct).
    let utc: OpaquePointer? = icaltimezone_get_utc_timezone()
    /// The window occurrences must overlap.
    let window: Range<Instant>
    /// What was skipped and why.
    private(set) var warnings: [String] = []

    /// A rule's occurrences are walked at most this far: a rule that would produce more before
    /// the window's end (COUNT=100000 since 1970) is cut there, with a warning. Rules without
    /// COUNT start their walk just before the window, so only counted rules can reach it.
    static let maximumSteps = 2_000

    /// The years near the window (a year either side): a time outside them is placed without its
    /// zone (``instant(of:)``).
    let nearYears: ClosedRange<Int32>

    init(calendar: OpaquePointer, localZone: OpaquePointer, window: Range<Instant>) {
        self.calendar = calendar
        self.localZone = localZone
        self.window = window
        let first = icaltime_from_timet_with_zone(time_t(window.lowerBound / 1_000_000), 0, nil).year
        let last = icaltime_from_timet_with_zone(time_t(window.upperBound / 1_000_000), 0, nil).year
        nearYears = (first - 1)...max(first - 1, last + 1)
    }

    /// The occurrences overlapping the window, unsorted.
    mutating func run() -> [CalendarOccurrence] {
        var masters: [OpaquePointer] = []
        var overrides: [String: [Instant: OpaquePointer]] = [:]
        var event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT)
        while let component = event {
            if let property = icalcomponent_get_first_property(component, ICAL_RECURRENCEID_PROPERTY) {
                let original = resolved(icalproperty_get_recurrenceid(property), of: property)
                if icaltime_is_null_time(original) == 0, Self.isValid(original) {
                    overrides[uid(of: component), default: [:]][instant(of: original)] = component
                }
            } else {
                masters.append(component)
            }
            event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)
        }
        var result: [CalendarOccurrence] = []
        var mastered = Set<String>()
        for master in masters {
            let id = uid(of: master)
            mastered.insert(id)
            result += expand(master, overrides: overrides[id] ?? [:])
        }
        // An override whose series is not in the file still happens.
        for (id, byOriginal) in overrides where !mastered.contains(id) {
            for (original, component) in byOriginal {
                if let occurrence = single(component, recurrenceID: original), occurrence.overlaps(window) {
                    result.append(occurrence)
                }
            }
        }
        return result
    }

    // MARK: - One series

    /// The occurrences of the series `master` (with its overrides by original start) in the window.
    private mutating func expand(_ master: OpaquePointer, overrides: [Instant: OpaquePointer]) -> [CalendarOccurrence] {
        guard let startProperty = icalcomponent_get_first_property(master, ICAL_DTSTART_PROPERTY) else {
            warnings.append("VEVENT \(describe(master)): no DTSTART, skipped")
            return []
        }
        let dtstart = resolved(icalproperty_get_dtstart(startProperty), of: startProperty)
        guard icaltime_is_null_time(dtstart) == 0, Self.isValid(dtstart) else {
            warnings.append("VEVENT \(describe(master)): DTSTART is not a valid time, skipped")
            return []
        }
        let length = self.length(of: master, from: dtstart)
        let fields = Fields(master, uid: uid(of: master))
        let futures = rangeOverrides(overrides, uid: uid(of: master))
        // A start this far before the window (or after it) may still overlap it: by the longest
        // length, and by a range override's move.
        var longest = length.reach * 1_000_000
        var lookAhead: Instant = 0
        for future in futures {
            longest = max(longest, (future.length.reach + max(0, future.shift)) * 1_000_000)
            lookAhead = max(lookAhead, -future.shift * 1_000_000)
        }

        // Starts: DTSTART, each RRULE's, each RDATE (which may carry its own end).
        var starts: [(icaltimetype, end: Instant?)] = [(dtstart, nil)]
        for property in Self.properties(of: master, kind: ICAL_RRULE_PROPERTY) {
            starts += ruleStarts(icalproperty_get_rrule(property), from: dtstart, lookBehind: longest,
                                 lookAhead: lookAhead, in: master)
                .map { ($0, nil) }
        }
        for property in Self.properties(of: master, kind: ICAL_RDATE_PROPERTY) {
            let value = icalproperty_get_rdate(property)
            if icaltime_is_null_time(value.time) == 0 {
                if Self.isValid(value.time) {
                    starts.append((resolved(value.time, of: property), nil))
                } else {
                    warnings.append("VEVENT \(describe(master)): an RDATE is not a valid time, skipped")
                }
            } else if icaltime_is_null_time(value.period.start) == 0 {
                guard Self.isValid(value.period.start),
                      icaltime_is_null_time(value.period.end) != 0 || Self.isValid(value.period.end) else {
                    warnings.append("VEVENT \(describe(master)): an RDATE period is not a valid time, skipped")
                    continue
                }
                let start = resolved(value.period.start, of: property)
                let end: Instant
                if icaltime_is_null_time(value.period.end) == 0 {
                    end = instant(of: resolved(value.period.end, of: property))
                } else {
                    end = self.end(of: start, lasting: Length(value.period.duration, allDay: false))
                }
                starts.append((start, end))
            }
        }

        // An EXDATE removes the occurrence starting at its instant; a date (VALUE=DATE) in a
        // timed series removes the occurrences that start on that day (in their own zone), as
        // recurring-ical-events reads it.
        var excluded = Set<Instant>()
        var excludedDays = Set<CalendarDay>()
        for property in Self.properties(of: master, kind: ICAL_EXDATE_PROPERTY) {
            let value = resolved(icalproperty_get_exdate(property), of: property)
            guard icaltime_is_null_time(value) == 0, Self.isValid(value) else { continue }
            if value.is_date != 0, dtstart.is_date == 0 {
                excludedDays.insert(day(of: value))
            } else {
                excluded.insert(instant(of: value))
            }
        }

        // Starts at the same instant are one occurrence (RFC 5545 3.8.5.3). They differ only
        // where a zone skips a day (Pacific/Apia, 30 December 2011): the skipped day's start is
        // read with the offset before the gap and meets the next day's, and the longer of the
        // two is kept — the real day, not an all-day event of no length. An override wins.
        var kept: [Instant: CalendarOccurrence] = [:]
        var decided = Set<Instant>()
        var unused = overrides
        for (start, rdateEnd) in starts {
            let original = instant(of: start)
            guard !excluded.contains(original), !decided.contains(original),
                  start.is_date != 0 || !excludedDays.contains(day(of: start)) else { continue }
            if let replacement = unused.removeValue(forKey: original) {
                decided.insert(original)
                kept[original] = single(replacement, recurrenceID: original)
                continue
            }
            let occurrence: CalendarOccurrence?
            if let future = futures.last(where: { $0.original < original }) {
                var moved = start
                if start.is_date != 0 {
                    icaltime_adjust(&moved, Int32(clamping: future.shift / 86_400), 0, 0, 0)
                } else {
                    icaltime_adjust(&moved, 0, 0, 0, Int32(clamping: future.shift))
                }
                let movedBy = instant(of: moved) - original
                occurrence = make(future.fields, start: moved, length: future.length, end: rdateEnd.map { $0 + movedBy },
                                  recurrenceID: original)
            } else {
                occurrence = make(fields, start: start, length: length, end: rdateEnd, recurrenceID: original)
            }
            guard let occurrence else { continue }
            if let other = kept[original], other.end >= occurrence.end { continue }
            kept[original] = occurrence
        }
        var result = kept.values.filter { $0.overlaps(window) }
        // An override still happens when the rule does not give its original start (or gives it
        // outside the window the rules were walked in): it was moved, not dropped.
        for (original, component) in unused {
            if let occurrence = single(component, recurrenceID: original), occurrence.overlaps(window) {
                result.append(occurrence)
            }
        }
        return result
    }

    /// A series' overrides with `RANGE=THISANDFUTURE`, by original start: each reschedules the
    /// later occurrences.
    private struct RangeOverride {
        /// The start of the occurrence it names (its RECURRENCE-ID).
        let original: Instant
        /// How far it moves them, in seconds of wall-clock time (its DTSTART − RECURRENCE-ID).
        let shift: Int64
        /// The length they take.
        let length: Length
        /// What they say.
        let fields: Fields
    }

    /// The overrides among `overrides` whose RECURRENCE-ID has `RANGE=THISANDFUTURE`, sorted.
    private mutating func rangeOverrides(_ overrides: [Instant: OpaquePointer], uid: String) -> [RangeOverride] {
        var result: [RangeOverride] = []
        for (original, component) in overrides {
            guard let property = icalcomponent_get_first_property(component, ICAL_RECURRENCEID_PROPERTY),
                  let range = icalproperty_get_first_parameter(property, ICAL_RANGE_PARAMETER),
                  icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE,
                  let startProperty = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY) else { continue }
            let start = resolved(icalproperty_get_dtstart(startProperty), of: startProperty)
            guard icaltime_is_null_time(start) == 0, Self.isValid(start) else { continue }
            result.append(RangeOverride(original: original, shift: (instant(of: start) - original) / 1_000_000,
                                        length: length(of: component, from: start), fields: Fields(component, uid: uid)))
        }
        return result.sorted { $0.original < $1.original }
    }

    /// The starts `rule` gives from `dtstart` up to `lookAhead` after the window's end; starts
    /// more than `lookBehind` before the window are skipped over where libical allows (rules
    /// without COUNT).
    private mutating func ruleStarts(_ rule: icalrecurrencetype, from dtstart: icaltimetype, lookBehind: Instant,
                                     lookAhead: Instant, in master: OpaquePointer) -> [icaltimetype] {
        // Every start of a rule is at or after DTSTART and, with UNTIL, not after UNTIL: a rule
        // that cannot reach the window is not walked (libical may search far for its first start).
        let first = instant(of: dtstart)
        let last = window.upperBound + lookAhead
        if first >= last { return [] }
        // UNTIL should have DTSTART's type (RFC 5545 3.3.10); a date with a timed DTSTART, as
        // some programs write it, is taken to include its whole day, as recurring-ical-events
        // does ("until 10 April" includes 10 April).
        var until = rule.until
        if icaltime_is_null_time(until) == 0, until.is_date != 0, dtstart.is_date == 0 {
            (until.is_date, until.hour, until.minute, until.second) = (0, 23, 59, 59)
            until.zone = nil
        }
        if icaltime_is_null_time(until) == 0 {
            guard Self.isValid(until), instant(of: until) >= first else { return [] }
        }
        // The rule is walked in wall-clock time (RFC 5545 3.3.10: occurrences keep DTSTART's
        // time of day), without the zone: libical's walk in a zone carries a time moved out of a
        // DST gap on to the next days (a daily 02:30 in Berlin would be 03:30 on the day after
        // the spring change too) and drops a day the zone skips (Pacific/Apia, 30 December
        // 2011). Each start gets the zone back afterwards; ``instant(of:)`` reads one in a gap
        // with the offset before it. UNTIL, an instant, becomes the wall-clock time it has there.
        let zone = dtstart.zone
        var wallStart = dtstart
        wallStart.zone = nil
        var wallRule = rule
        wallRule.until = until
        if icaltime_is_null_time(until) == 0, until.is_date == 0, until.zone != nil, let zone {
            wallRule.until = icaltime_convert_to_zone(until, zone)
            wallRule.until.zone = nil
        }
        guard let iterator = icalrecur_iterator_new(wallRule, wallStart) else {
            warnings.append("VEVENT \(describe(master)): RRULE not usable by libical, ignored")
            cical_clear_errno()
            return []
        }
        defer { icalrecur_iterator_free(iterator) }
        // Without COUNT, the walk may start just before the window (a daily rule from 1990
        // need not be walked through 1990–2025, nor an all-day one since 2015); with COUNT every
        // occurrence must be counted.
        let skipTo = window.lowerBound - lookBehind
        if rule.count == 0, instant(of: dtstart) < skipTo {
            var from = icaltime_from_timet_with_zone(time_t(skipTo / 1_000_000), dtstart.is_date, zone ?? localZone)
            from.zone = nil
            if icalrecur_iterator_set_start(iterator, from) == 0 { cical_clear_errno() }
        }
        var result: [icaltimetype] = []
        var steps = 0
        while true {
            var next = icalrecur_iterator_next(iterator)
            if icaltime_is_null_time(next) != 0 { break }
            next.zone = zone
            let at = instant(of: next)
            if at >= last { break }
            if at + lookBehind >= window.lowerBound { result.append(next) }
            steps += 1
            if steps >= Self.maximumSteps {
                warnings.append("VEVENT \(describe(master)): RRULE cut after \(Self.maximumSteps) occurrences")
                break
            }
        }
        return result
    }

    // MARK: - One occurrence

    /// What an event says, read once per series.
    private struct Fields {
        let uid: String
        let summary: String?
        let location: String?
        let description: String?
        let url: String?

        init(_ component: OpaquePointer, uid: String) {
            self.uid = uid
            summary = icalcomponent_get_summary(component).map { String(cString: $0) }
            location = icalcomponent_get_location(component).map { String(cString: $0) }
            description = icalcomponent_get_description(component).map { String(cString: $0) }
            url = icalcomponent_get_first_property(component, ICAL_URL_PROPERTY)
                .flatMap { icalproperty_get_url($0) }.map { String(cString: $0) }
        }
    }

    /// An event's length: whole days, then seconds. Days are nominal (RFC 5545 3.3.6): a day
    /// is from a wall-clock time to the same wall-clock time the next day, 23 or 25 hours across
    /// a DST change; seconds are exact. An all-day event has days only.
    private struct Length {
        var days: Int32
        var seconds: Int64

        init(days: Int32, seconds: Int64) {
            self.days = days
            self.seconds = seconds
        }

        /// A DURATION value: its days and weeks as days, its hours, minutes and seconds as
        /// seconds (an all-day event keeps only the days, at least one); a negative one is none.
        init(_ duration: icaldurationtype, allDay: Bool) {
            let days = duration.is_neg != 0 ? 0 : Int32(clamping: Int64(duration.days) + Int64(duration.weeks) * 7)
            let seconds = duration.is_neg != 0 ? 0
                : Int64(duration.hours) * 3_600 + Int64(duration.minutes) * 60 + Int64(duration.seconds)
            self.init(days: allDay ? max(1, days) : days, seconds: allDay ? 0 : seconds)
        }

        /// An upper bound of the length in seconds (a day at most 25 hours, rounded up to two).
        var reach: Int64 { Int64(days + 1) * 86_400 + seconds }
    }

    /// DTEND − DTSTART, or DURATION, or one day (all-day) / nothing (timed) when neither is given.
    private mutating func length(of component: OpaquePointer, from dtstart: icaltimetype) -> Length {
        if let property = icalcomponent_get_first_property(component, ICAL_DTEND_PROPERTY) {
            let dtend = resolved(icalproperty_get_dtend(property), of: property)
            if icaltime_is_null_time(dtend) == 0, Self.isValid(dtend) {
                if dtstart.is_date != 0 {
                    return Length(days: max(1, julianDay(dtend) - julianDay(dtstart)), seconds: 0)
                }
                return Length(days: 0, seconds: max(0, (instant(of: dtend) - instant(of: dtstart)) / 1_000_000))
            }
        }
        if let property = icalcomponent_get_first_property(component, ICAL_DURATION_PROPERTY) {
            return Length(icalproperty_get_duration(property), allDay: dtstart.is_date != 0)
        }
        return dtstart.is_date != 0 ? Length(days: 1, seconds: 0) : Length(days: 0, seconds: 0)
    }

    /// An override (or an event alone) as one occurrence, nil without a usable DTSTART.
    private mutating func single(_ component: OpaquePointer, recurrenceID: Instant) -> CalendarOccurrence? {
        guard let property = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY) else {
            warnings.append("VEVENT \(describe(component)): no DTSTART, skipped")
            return nil
        }
        let start = resolved(icalproperty_get_dtstart(property), of: property)
        guard icaltime_is_null_time(start) == 0, Self.isValid(start) else {
            warnings.append("VEVENT \(describe(component)): DTSTART is not a valid time, skipped")
            return nil
        }
        return make(Fields(component, uid: uid(of: component)), start: start, length: length(of: component, from: start),
                    end: nil, recurrenceID: recurrenceID)
    }

    /// The occurrence starting at `start` and lasting `length` (or ending at `end`).
    private func make(_ fields: Fields, start: icaltimetype, length: Length, end: Instant?,
                      recurrenceID: Instant) -> CalendarOccurrence? {
        let begin = instant(of: start)
        var days: Range<CalendarDay>?
        let finish: Instant
        if start.is_date != 0 {
            // A date among the starts of a timed series (an RDATE;VALUE=DATE) still covers its day.
            var last = start
            icaltime_adjust(&last, max(1, length.days), 0, 0, 0)
            days = day(of: start)..<day(of: last)
            finish = end ?? instant(of: last)
        } else {
            finish = end ?? self.end(of: start, lasting: length)
        }
        return CalendarOccurrence(uid: fields.uid, recurrenceID: recurrenceID, start: begin, end: max(begin, finish),
                                  days: days, summary: fields.summary, location: fields.location,
                                  description: fields.description, url: fields.url)
    }

    /// When a timed occurrence starting at `start` and lasting `length` ends: its days are
    /// added to the wall-clock time (the same time of day, in the start's zone), then its
    /// seconds to the instant.
    private func end(of start: icaltimetype, lasting length: Length) -> Instant {
        var later = start
        if length.days > 0 { icaltime_adjust(&later, length.days, 0, 0, 0) }
        return instant(of: later) + length.seconds * 1_000_000
    }

    // MARK: - Times

    /// Whether every field of `value` is within its calendar range (libical accepts a month 19,
    /// and its rule iterator then runs off).
    static func isValid(_ value: icaltimetype) -> Bool {
        guard (1...9999).contains(value.year), (1...12).contains(value.month), value.day >= 1,
              value.day <= icaltime_days_in_month(value.month, value.year) else { return false }
        return value.is_date != 0 || ((0...23).contains(value.hour) && (0...59).contains(value.minute)
            && (0...60).contains(value.second))
    }

    /// `value` of `property` with the zone its TZID names (from the calendar's VTIMEZONEs, else
    /// libical's built-in zones); a value in UTC or already zoned is returned as it is.
    private mutating func resolved(_ value: icaltimetype, of property: OpaquePointer) -> icaltimetype {
        guard value.zone == nil, value.is_date == 0,
              let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
              let tzid = icalparameter_get_tzid(parameter) else { return value }
        var zoned = value
        if let zone = icalcomponent_get_timezone(calendar, tzid) ?? icaltimezone_get_builtin_timezone(tzid) {
            zoned.zone = zone
        } else {
            warnings.append("unknown TZID '\(String(cString: tzid))', taken as local time")
        }
        return zoned
    }

    /// The instant of `value`: in its zone, in the local zone when floating, and local midnight
    /// for a date. A time more than a year away from the window is read as UTC: no zone's offset
    /// (under a day) can move it into the window, and libical would otherwise expand the zone's
    /// rules year by year up to it (seconds for a year like 9999, in a VTIMEZONE of the file).
    private func instant(of value: icaltimetype) -> Instant {
        guard nearYears.contains(value.year) else {
            var wall = value
            wall.is_date = 0
            wall.zone = nil
            if value.is_date != 0 { (wall.hour, wall.minute, wall.second) = (0, 0, 0) }
            return Instant(icaltime_as_timet(wall)) * 1_000_000
        }
        var wall = value
        let zone: OpaquePointer
        if value.is_date != 0 {
            wall.is_date = 0
            wall.hour = 0
            wall.minute = 0
            wall.second = 0
            zone = localZone
        } else if let own = value.zone {
            zone = own
        } else {
            zone = localZone
        }
        return Instant(earliest(icaltime_as_timet_with_zone(wall, zone), of: wall, in: zone)) * 1_000_000
    }

    /// The instant RFC 5545 (3.3.5) means by `wall` in `zone`, given libical's answer `found`:
    /// a wall time that happens twice (clocks go back) is the first of the two, and one that
    /// does not happen (clocks go forward) is read with the UTC offset before the gap. libical
    /// may return the second of two, or use the offset after the gap.
    private func earliest(_ found: time_t, of wall: icaltimetype, in zone: OpaquePointer) -> time_t {
        if zone == utc { return found }
        func shows(_ instant: time_t) -> Bool {
            let shown = icaltime_from_timet_with_zone(instant, 0, zone)
            return shown.second == wall.second && shown.minute == wall.minute && shown.hour == wall.hour
                && shown.day == wall.day && shown.month == wall.month && shown.year == wall.year
        }
        guard shows(found) else {
            // In a gap: the offset before it is the smaller of the offsets around it.
            func offset(_ instant: time_t) -> time_t {
                icaltime_as_timet(icaltime_from_timet_with_zone(instant, 0, zone)) - instant
            }
            return icaltime_as_timet(wall) - min(offset(found - 21_600), offset(found + 21_600))
        }
        if shows(found - 7_200) { return found - 7_200 }
        if shows(found - 3_600) { return found - 3_600 }
        if shows(found - 1_800) { return found - 1_800 }
        return found
    }

    /// The calendar day of a date value.
    private func day(of value: icaltimetype) -> CalendarDay {
        CalendarDay(year: Int(value.year), month: Int(value.month), day: Int(value.day))
    }

    /// A day count that differs by one between consecutive days (days since 1 January of year 0
    /// in the proleptic Gregorian calendar, give or take a constant).
    private func julianDay(_ value: icaltimetype) -> Int32 {
        let before = Int32(value.year) - 1
        let leaps = before / 4 - before / 100 + before / 400
        return before * 365 + leaps + Int32(icaltime_day_of_year(value))
    }

    /// The properties of `kind` in `component`, collected before any is read: libical keeps one
    /// property cursor per component, which reading another property (its UID, for a warning)
    /// moves, so a walk that reads as it goes can revisit a property for ever.
    static func properties(of component: OpaquePointer, kind: icalproperty_kind) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var property = icalcomponent_get_first_property(component, kind)
        while let found = property {
            result.append(found)
            property = icalcomponent_get_next_property(component, kind)
        }
        return result
    }

    /// The component's UID, or "" without one.
    private func uid(of component: OpaquePointer) -> String {
        icalcomponent_get_uid(component).map { String(cString: $0) } ?? ""
    }

    /// "UID" or "SUMMARY" of a component, for warnings.
    private func describe(_ component: OpaquePointer) -> String {
        let id = uid(of: component)
        if !id.isEmpty { return "'\(id)'" }
        return "'\(icalcomponent_get_summary(component).map { String(cString: $0) } ?? "(no UID)")'"
    }
}
