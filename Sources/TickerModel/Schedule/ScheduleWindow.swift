/// When a message is on the tape.
public enum ScheduleWindow: Sendable, Hashable {
    /// Always on, from posting until removed.
    case always
    /// On from `start` (inclusive; nil = no start) until `end` (exclusive; nil = no end).
    case absolute(start: Instant?, end: Instant?)
    /// On for `microseconds` after posting; then ended for good.
    case timeToLive(microseconds: Int64)
    /// On during each occurrence of `calendar` for `duration` microseconds: active at t when some
    /// occurrence o has o ≤ t < o + duration. Windows may cross midnight and may overlap the
    /// previous occurrence; a duration of zero or less never shows the message. (Boxed: a
    /// calendar is large, and every entry would otherwise be as large as one.)
    indirect case recurring(calendar: CalendarSpec, duration: Int64)
}

/// A message's place in the schedule.
///
/// A ``Schedule`` keeps its entries in a compact form of its own (``ScheduleSlot``), with the
/// priority in 32 bits: the type of ``priority`` is that range, so no priority a schedule is
/// given can wrap.
public struct ScheduleEntry: Sendable, Hashable, Identifiable {
    /// The message id (unique in a schedule).
    public var id: String
    /// Higher priorities come first on the tape.
    public var priority: Int32
    /// When the message was posted (the start of a TTL, and the start of an always-on window).
    public var postedAt: Instant
    /// When the message is shown.
    public var window: ScheduleWindow
    /// Whether the message interrupts at once instead of joining at the next seam.
    public var isUrgent: Bool

    /// Creates an entry.
    public init(id: String, priority: Int32 = 0, isUrgent: Bool = false, window: ScheduleWindow = .always,
                postedAt: Instant) {
        self.id = id
        self.priority = priority
        self.isUrgent = isUrgent
        self.window = window
        self.postedAt = postedAt
    }
}

/// An entry that is on the tape at some instant.
public struct ActiveScheduleEntry: Sendable, Hashable {
    /// The message id.
    public let id: String
    /// Its priority.
    public let priority: Int32
    /// Whether it is urgent.
    public let isUrgent: Bool
    /// The start of the window it is shown in now (for recurring windows: the current occurrence).
    public let windowStart: Instant

    /// Creates an active entry.
    public init(id: String, priority: Int32, isUrgent: Bool, windowStart: Instant) {
        self.id = id
        self.priority = priority
        self.isUrgent = isUrgent
        self.windowStart = windowStart
    }

    /// Tape order: priority high to low, then window start, then id.
    public static func tapeOrder(_ a: ActiveScheduleEntry, _ b: ActiveScheduleEntry) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        if a.windowStart != b.windowStart { return a.windowStart < b.windowStart }
        return a.id < b.id
    }
}
