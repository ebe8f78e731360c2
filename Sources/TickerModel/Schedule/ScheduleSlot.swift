/// A schedule entry and its window's state at the schedule's latest instant, as a ``Schedule``
/// keeps it in a slot: what a ``ScheduleEntry`` and a ``WindowState`` hold, without what one
/// follows from the other (a schedule keeps one per message, 100k of them in a large
/// configuration).
///
/// A window that does not recur is in one of three phases (waiting for its start, shown, ended),
/// and its state follows from the window and the phase: only the phase is kept. A recurring
/// window keeps the start of the occurrence it shows and its next occurrence; the instant its
/// state next changes follows from those and its duration. A recurring window's calendar and
/// duration are boxed (one allocation per recurring entry, as the `indirect` case of
/// ``ScheduleWindow`` makes). Seven words a slot, where an entry and a state side by side take
/// twelve.
///
/// ``state`` reads back exactly the state stored with ``init(_:state:)`` or ``setState(_:)``
/// whenever that state is the window's own (``ScheduleEntry/state(at:)`` or a step of it), which
/// is the only kind a schedule stores once it has been evaluated. Before that, a slot holds
/// ``unevaluated(_:)``: not shown, not ended.
struct ScheduleSlot: Sendable {
    /// The entry's id.
    let id: String
    /// When the entry was posted.
    let postedAt: Instant
    private var window: Window
    private var flags: UInt8
    /// The entry's priority.
    let priority: Int32

    /// A recurring window's calendar and duration, shared by the copies of one slot.
    private final class Recurrence: Sendable {
        let calendar: CalendarSpec
        let duration: Int64
        init(calendar: CalendarSpec, duration: Int64) {
            self.calendar = calendar
            self.duration = duration
        }
    }

    /// The window, with a recurring one's state (a non-recurring one's phase is in `flags`).
    private enum Window: Sendable {
        case always
        /// `start` and `end` count only when `flags` says they are given.
        case absolute(start: Instant, end: Instant)
        case timeToLive(microseconds: Int64)
        /// `activeSince` and `nextOccurrence` count only when `flags` says they are set.
        case recurring(Recurrence, activeSince: Instant, nextOccurrence: Instant)
    }

    private static let urgent: UInt8 = 1
    private static let hasStart: UInt8 = 2
    private static let hasEnd: UInt8 = 4
    private static let active: UInt8 = 8
    private static let ended: UInt8 = 16
    private static let hasNextOccurrence: UInt8 = 32
    /// The bits `setState(_:)` rewrites.
    private static let stateBits: UInt8 = active | ended | hasNextOccurrence

    /// `entry` with `state`, which must be the entry's own state at some instant.
    init(_ entry: ScheduleEntry, state: WindowState) {
        id = entry.id
        postedAt = entry.postedAt
        priority = entry.priority
        flags = entry.isUrgent ? Self.urgent : 0
        switch entry.window {
        case .always:
            window = .always
        case let .absolute(start, end):
            window = .absolute(start: start ?? 0, end: end ?? 0)
            flags |= (start != nil ? Self.hasStart : 0) | (end != nil ? Self.hasEnd : 0)
        case let .timeToLive(microseconds):
            window = .timeToLive(microseconds: microseconds)
        case let .recurring(calendar, duration):
            window = .recurring(Recurrence(calendar: calendar, duration: duration), activeSince: 0, nextOccurrence: 0)
        }
        setState(state)
    }

    /// `entry` before the schedule's first evaluation: not shown, not ended, no next change known.
    static func unevaluated(_ entry: ScheduleEntry) -> ScheduleSlot {
        ScheduleSlot(entry, state: WindowState(activeSince: nil, nextChange: nil, hasEnded: false, nextOccurrence: nil))
    }

    /// The entry.
    var entry: ScheduleEntry {
        let scheduleWindow: ScheduleWindow
        switch window {
        case .always:
            scheduleWindow = .always
        case let .absolute(start, end):
            scheduleWindow = .absolute(start: flags & Self.hasStart != 0 ? start : nil,
                                       end: flags & Self.hasEnd != 0 ? end : nil)
        case let .timeToLive(microseconds):
            scheduleWindow = .timeToLive(microseconds: microseconds)
        case let .recurring(recurrence, _, _):
            scheduleWindow = .recurring(calendar: recurrence.calendar, duration: recurrence.duration)
        }
        return ScheduleEntry(id: id, priority: priority, isUrgent: isUrgent, window: scheduleWindow, postedAt: postedAt)
    }

    /// Whether the entry interrupts at once.
    var isUrgent: Bool { flags & Self.urgent != 0 }

    /// The recurring window's calendar and duration, if the window recurs.
    var recurrence: (calendar: CalendarSpec, duration: Int64)? {
        if case let .recurring(recurrence, _, _) = window { return (recurrence.calendar, recurrence.duration) }
        return nil
    }

    /// The entry's state at `t`, computed from scratch (``ScheduleEntry/state(at:)``).
    func state(at t: Instant) -> WindowState {
        if let (calendar, duration) = recurrence {
            return ScheduleEntry.recurringState(calendar: calendar, duration: duration, at: t)
        }
        return entry.state(at: t)
    }

    /// The start of the window the entry is shown in, or nil when it is not shown.
    var activeSince: Instant? {
        guard flags & Self.active != 0 else { return nil }
        switch window {
        case .always, .timeToLive: return postedAt
        case let .absolute(start, _): return flags & Self.hasStart != 0 ? start : postedAt
        case let .recurring(_, activeSince, _): return activeSince
        }
    }

    /// The state stored last.
    var state: WindowState {
        let hasEnded = flags & Self.ended != 0
        guard !hasEnded else {
            return WindowState(activeSince: nil, nextChange: nil, hasEnded: true, nextOccurrence: nil)
        }
        let isActive = flags & Self.active != 0
        switch window {
        case .always:
            return WindowState(activeSince: isActive ? postedAt : nil, nextChange: nil, hasEnded: false, nextOccurrence: nil)
        case let .absolute(start, end):
            let hasStart = flags & Self.hasStart != 0
            let end = flags & Self.hasEnd != 0 ? end : nil
            return Self.phaseState(start: hasStart ? start : postedAt, hasStart: hasStart, end: end, isActive: isActive)
        case let .timeToLive(ttl):
            let (end, overflow) = postedAt.addingReportingOverflow(max(ttl, 0))
            return Self.phaseState(start: postedAt, hasStart: false, end: overflow ? nil : end, isActive: isActive)
        case let .recurring(recurrence, activeSince, nextOccurrence):
            let following = flags & Self.hasNextOccurrence != 0 ? nextOccurrence : nil
            guard isActive else {
                return WindowState(activeSince: nil, nextChange: following, hasEnded: false, nextOccurrence: following)
            }
            let end = activeSince.saturatingAdd(recurrence.duration)
            return WindowState(activeSince: activeSince, nextChange: following.map { min($0, end) } ?? end,
                               hasEnded: false, nextOccurrence: following)
        }
    }

    /// The state of a window from `start` to `end` that is shown (`isActive`) or waits for its
    /// start (``ScheduleEntry/state(at:)``'s `absoluteState`, by phase instead of instant).
    private static func phaseState(start: Instant, hasStart: Bool, end: Instant?, isActive: Bool) -> WindowState {
        if isActive {
            return WindowState(activeSince: start, nextChange: end, hasEnded: false, nextOccurrence: nil)
        }
        // Waiting (or not evaluated yet, when no start is given: nothing reads its next change).
        guard hasStart else { return WindowState(activeSince: nil, nextChange: nil, hasEnded: false, nextOccurrence: nil) }
        let empty = end.map { $0 <= start } ?? false
        return WindowState(activeSince: nil, nextChange: empty ? end : start, hasEnded: false, nextOccurrence: nil)
    }

    /// Stores `state`, which must be the entry's own state at some instant.
    mutating func setState(_ state: WindowState) {
        flags &= ~Self.stateBits
        if state.isActive { flags |= Self.active }
        if state.hasEnded { flags |= Self.ended }
        if case let .recurring(recurrence, _, _) = window {
            if state.nextOccurrence != nil { flags |= Self.hasNextOccurrence }
            window = .recurring(recurrence, activeSince: state.activeSince ?? 0, nextOccurrence: state.nextOccurrence ?? 0)
        }
    }
}
