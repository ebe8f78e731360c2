/// Where an entry's window stands at one instant.
///
/// Stored as three plain instants and a byte of flags (32 bytes, not the 48 of three optional
/// instants and a Bool). A ``Schedule`` keeps less per message: only what does not follow from
/// the entry's window (``ScheduleSlot``).
public struct WindowState: Sendable, Hashable {
    private let activeSinceValue: Instant
    private let nextChangeValue: Instant
    private let nextOccurrenceValue: Instant
    private let flags: UInt8

    private static let hasActiveSince: UInt8 = 1
    private static let hasNextChange: UInt8 = 2
    private static let hasNextOccurrence: UInt8 = 4
    private static let ended: UInt8 = 8

    /// A state; absent instants are stored as 0 with their flag clear, so equal states compare equal.
    init(activeSince: Instant?, nextChange: Instant?, hasEnded: Bool, nextOccurrence: Instant?) {
        activeSinceValue = activeSince ?? 0
        nextChangeValue = nextChange ?? 0
        nextOccurrenceValue = nextOccurrence ?? 0
        flags = (activeSince != nil ? Self.hasActiveSince : 0) | (nextChange != nil ? Self.hasNextChange : 0)
            | (nextOccurrence != nil ? Self.hasNextOccurrence : 0) | (hasEnded ? Self.ended : 0)
    }

    /// The start of the window the entry is shown in, or nil when it is not shown.
    public var activeSince: Instant? { flags & Self.hasActiveSince != 0 ? activeSinceValue : nil }
    /// The first instant after this one at which `activeSince` changes, or nil when it never does.
    public var nextChange: Instant? { flags & Self.hasNextChange != 0 ? nextChangeValue : nil }
    /// Whether the window has passed for good: not shown now and never again.
    public var hasEnded: Bool { flags & Self.ended != 0 }
    /// For recurring windows: the first occurrence after the instant (kept to step forward cheaply).
    var nextOccurrence: Instant? { flags & Self.hasNextOccurrence != 0 ? nextOccurrenceValue : nil }

    /// Whether the entry is shown.
    public var isActive: Bool { flags & Self.hasActiveSince != 0 }
}

extension ScheduleEntry {
    /// The window's state at `t`, computed from scratch (no scanning of time: a bounded number of
    /// calendar evaluations).
    public func state(at t: Instant) -> WindowState {
        switch window {
        case .always:
            return WindowState(activeSince: postedAt, nextChange: nil, hasEnded: false, nextOccurrence: nil)
        case .absolute(let start, let end):
            return Self.absoluteState(start: start ?? postedAt, hasStart: start != nil, end: end, at: t)
        case .timeToLive(let ttl):
            let (end, overflow) = postedAt.addingReportingOverflow(max(ttl, 0))
            return Self.absoluteState(start: postedAt, hasStart: false, end: overflow ? nil : end, at: t)
        case .recurring(let calendar, let duration):
            return Self.recurringState(calendar: calendar, duration: duration, at: t)
        }
    }

    private static func absoluteState(start: Instant, hasStart: Bool, end: Instant?, at t: Instant) -> WindowState {
        if let end, t >= end {
            return WindowState(activeSince: nil, nextChange: nil, hasEnded: true, nextOccurrence: nil)
        }
        if hasStart && t < start {
            let empty = end.map { $0 <= start } ?? false
            return WindowState(activeSince: nil, nextChange: empty ? end : start, hasEnded: false, nextOccurrence: nil)
        }
        return WindowState(activeSince: start, nextChange: end, hasEnded: false, nextOccurrence: nil)
    }

    static func recurringState(calendar: CalendarSpec, duration: Int64, at t: Instant) -> WindowState {
        guard duration > 0 else {
            return WindowState(activeSince: nil, nextChange: nil, hasEnded: true, nextOccurrence: nil)
        }
        // The first occurrence o with o > t - duration, i.e. o + duration > t.
        let (windowOpen, overflow) = t.subtractingReportingOverflow(duration)
        guard !overflow, let first = calendar.nextOccurrence(after: windowOpen) else {
            return WindowState(activeSince: nil, nextChange: nil, hasEnded: true, nextOccurrence: nil)
        }
        if first > t {
            return WindowState(activeSince: nil, nextChange: first, hasEnded: false, nextOccurrence: first)
        }
        // Active: find the latest occurrence at or before t, and the first one after it.
        let latest = latestOccurrence(calendar: calendar, from: first, upTo: t)
        let following = calendar.nextOccurrence(after: t)
        let end = latest.saturatingAdd(duration)
        let nextChange = following.map { min($0, end) } ?? end
        return WindowState(activeSince: latest, nextChange: nextChange, hasEnded: false, nextOccurrence: following)
    }

    /// The latest occurrence in [`first`, `t`], where `first` is an occurrence at or before `t`:
    /// a few steps forward, then a binary search (so dense calendars stay cheap). Occurrences
    /// are `CalendarSpec.nextOccurrence(after:)`'s: an hour the autumn fold repeats opens one
    /// window, whatever instant the question starts from.
    private static func latestOccurrence(calendar: CalendarSpec, from first: Instant, upTo t: Instant) -> Instant {
        var latest = first
        for _ in 0..<8 {
            guard let next = calendar.nextOccurrence(after: latest), next <= t else { return latest }
            latest = next
        }
        guard let next = calendar.nextOccurrence(after: latest), next <= t else { return latest }
        // Occurrences lie in (latest, t]: the latest one m is t - d + 1 for the smallest d with an
        // occurrence in (t - d, t].
        var low: Int64 = 0  // (t - 0, t] is empty
        var high: Int64 = t - latest  // (latest, t] holds `next`
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if let next = calendar.nextOccurrence(after: t - mid), next <= t { high = mid } else { low = mid }
        }
        return t - high + 1
    }
}

extension Int64 {
    /// `self + other`, clamped to `Int64.max` / `Int64.min` instead of trapping.
    func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
