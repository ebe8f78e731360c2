import TickerModel

/// The rules that turn a request's `ttl`/`start`/`end`/`calendar`/`duration` into a message
/// window, shared by `Post`, `Update` and the configuration file so all three agree.
struct WindowRules: Sendable {
    /// Where calendar expressions find their zones.
    let zones: any TimeZoneLookup

    /// `expression` parsed as a systemd calendar expression, or `InvalidCalendar` saying why.
    func calendar(_ expression: String) throws(TickerError) -> CalendarSpec {
        do {
            return try CalendarSpec(parsing: expression, zones: zones)
        } catch {
            throw .invalidCalendar("\(error)")
        }
    }

    /// The window a request asks for, checked: `calendar` goes with `duration` and nothing else;
    /// `ttl` (counted from `postedAt`) excludes `end`; `start` must come before the end; a window
    /// that has already closed at `now` (`postedAt` when nil: a new message) is refused, a calendar
    /// window with no occurrence still open or to come too. An `Update` passes the message's
    /// posting time and the instant of the change, so a window it could never show is refused
    /// rather than silently ending the message.
    func window(for request: MessageRequest, postedAt: Instant, now: Instant? = nil) throws(TickerError) -> MessageWindow {
        let now = now ?? postedAt
        if request.calendar != nil || request.duration != nil {
            guard let expression = request.calendar, let duration = request.duration else {
                throw .invalidOption("options 'calendar' and 'duration' go together: give both or neither")
            }
            guard request.ttl == nil, request.start == nil, request.end == nil else {
                throw .invalidOption("a 'calendar' window takes no 'ttl', 'start' or 'end'")
            }
            guard duration > 0 else { throw .invalidOption("option 'duration' must be above 0") }
            let spec = try calendar(expression)
            if Self.recurringHasEnded(spec, duration: duration, at: now) {
                throw .invalidOption("calendar '\(expression)' has no window left: it never elapses again")
            }
            return .recurring(calendar: expression, duration: duration)
        }
        if request.ttl != nil, request.end != nil {
            throw .invalidOption("give 'ttl' or 'end', not both")
        }
        if let ttl = request.ttl, ttl <= 0 { throw .invalidOption("option 'ttl' must be above 0") }
        let end = request.ttl.map { ttl in
            postedAt.addingReportingOverflow(ttl).overflow ? Instant.max : postedAt + ttl
        } ?? request.end
        // The end a ttl gives counts from posting, not from `start`: the error says so.
        let endName = request.ttl != nil ? "its 'ttl' after posting" : "option 'end'"
        if let start = request.start, let end, start >= end {
            throw .invalidOption("option 'start' (\(said(start))) must come before the end, \(endName) (\(said(end)))")
        }
        if let end, end <= now {
            throw .invalidOption("the message's end, \(endName) (\(said(end))), has already passed")
        }
        if request.start == nil, let ttl = request.ttl { return .timeToLive(microseconds: ttl) }
        if request.start == nil, end == nil { return .always }
        return .absolute(start: request.start, end: end)
    }

    /// `instant` as a person and a program read it: `1795824000000000 µs, Sat 2026-11-28 00:00:00 UTC`
    /// (the daemon's local zone, named).
    private func said(_ instant: Instant) -> String {
        "\(instant) µs, \(TimestampFormat.timestamp(instant, in: zones.localZone))"
    }

    /// Whether the window `request` asks for, for a message posted at `since`, has closed for good
    /// at `now`: its end or TTL has passed, its TTL runs out before its start, or its calendar has
    /// no occurrence still open or to come.
    /// A request whose window is invalid has not closed (``window(for:postedAt:now:)`` says why).
    func hasClosed(_ request: MessageRequest, since: Instant, at now: Instant) -> Bool {
        let ttlEnd = request.ttl.map { ttl in
            since.addingReportingOverflow(ttl).overflow ? Instant.max : since + ttl
        }
        if let closes = request.end ?? ttlEnd, closes <= now { return true }
        // `start` with a TTL that runs out before it: a window that can never open.
        if let start = request.start, let ttlEnd, start >= ttlEnd { return true }
        if let expression = request.calendar, let duration = request.duration, duration > 0,
           let spec = try? calendar(expression) {
            return Self.recurringHasEnded(spec, duration: duration, at: now)
        }
        return false
    }

    /// Whether a `calendar` + `duration` window has no occurrence open at `t` or after it.
    private static func recurringHasEnded(_ spec: CalendarSpec, duration: Int64, at t: Instant) -> Bool {
        ScheduleEntry(id: "", window: .recurring(calendar: spec, duration: duration), postedAt: t).state(at: t).hasEnded
    }
}
