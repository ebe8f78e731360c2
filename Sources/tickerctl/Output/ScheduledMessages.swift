import DBus
import TickerModel

/// The messages a channel holds but does not show now (`List` says `active` false: their window
/// has not opened yet, or a calendar window is between occurrences), and when the first of them
/// comes on.
struct ScheduledMessages {
    /// Their ids, in `List` order.
    var ids: [String]
    /// The earliest instant after `now` at which one of them comes on; nil when none ever will
    /// as far as the listing tells.
    var nextStart: Instant?

    /// Reads the inactive entries of `listing` at `now`. A calendar window's next occurrence is
    /// computed here, from its expression, as the daemon computes it (an expression without a
    /// zone is read in `zones`' local zone, as `tickerctl calendar` reads it).
    init(listing: MessageListing, now: Instant, zones: any TimeZoneLookup) {
        ids = []
        nextStart = nil
        for (id, fields) in listing.messages where fields["active"]?.boolValue == false {
            ids.append(id)
            if let start = Self.nextStart(fields, now: now, zones: zones) {
                nextStart = min(nextStart ?? start, start)
            }
        }
    }

    /// When the message `fields` describes next comes on after `now`: its `start`, or its
    /// calendar's next occurrence; nil when it never does or its window is open already.
    static func nextStart(_ fields: [String: DBusValue], now: Instant, zones: any TimeZoneLookup) -> Instant? {
        if let expression = fields["calendar"]?.stringValue, let duration = fields["duration"]?.int64Value {
            guard let calendar = try? CalendarSpec(parsing: expression, zones: zones) else { return nil }
            let entry = ScheduleEntry(id: "", window: .recurring(calendar: calendar, duration: duration), postedAt: now)
            let state = entry.state(at: now)
            return state.isActive ? nil : state.nextChange
        }
        guard let start = fields["start"]?.int64Value, start > now else { return nil }
        return start
    }
}
