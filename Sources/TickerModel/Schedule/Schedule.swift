import HeapModule

/// A set of scheduled messages that answers which are on the tape at an instant and when that
/// next changes, without scanning time.
///
/// Each entry's state (shown since when, next change) is kept for the instant the schedule was
/// last advanced to; a min-heap of next-change instants finds the entries to update when time moves
/// on, so a query costs O(k log n) for the k entries that change, and nothing when none does.
/// Stale heap items (from replaced or removed entries) are skipped lazily. Asking about an instant
/// before the last one re-evaluates every entry from scratch (wall-clock jumps back).
public struct Schedule: Sendable {
    /// The entries, by id.
    public private(set) var entries: [String: ScheduleEntry] = [:]

    private struct Tracked: Sendable {
        var entry: ScheduleEntry
        var state: WindowState
        var generation: UInt64
    }

    private struct Change: Comparable, Sendable {
        let instant: Instant
        let id: String
        let generation: UInt64
        static func < (a: Change, b: Change) -> Bool {
            (a.instant, a.generation) < (b.instant, b.generation)
        }
    }

    private var tracked: [String: Tracked] = [:]
    private var changes = Heap<Change>()
    private var evaluatedAt: Instant = Int64.min
    private var nextGeneration: UInt64 = 0
    private var activeIDs: Set<String> = []
    private var endedIDs: Set<String> = []

    /// Creates a schedule holding `entries` (later entries replace earlier ones with the same id).
    public init(_ entries: [ScheduleEntry] = []) {
        for entry in entries { insert(entry) }
    }

    /// Adds `entry`, replacing any entry with the same id.
    public mutating func insert(_ entry: ScheduleEntry) {
        entries[entry.id] = entry
        guard evaluatedAt != Int64.min else { return }
        track(entry, at: evaluatedAt)
    }

    /// Removes the entry with `id`, returning it.
    @discardableResult
    public mutating func remove(id: String) -> ScheduleEntry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        tracked.removeValue(forKey: id)
        activeIDs.remove(id)
        endedIDs.remove(id)
        return entry
    }

    /// The entries on the tape at `t`, in tape order (priority high to low, window start, id).
    public mutating func activeEntries(at t: Instant) -> [ActiveScheduleEntry] {
        advance(to: t)
        return activeIDs.compactMap { id -> ActiveScheduleEntry? in
            guard let item = tracked[id], let since = item.state.activeSince else { return nil }
            return ActiveScheduleEntry(id: id, priority: item.entry.priority, isUrgent: item.entry.isUrgent,
                                       windowStart: since)
        }.sorted(by: ActiveScheduleEntry.tapeOrder)
    }

    /// The ids of entries whose window has passed for good at `t` (the daemon ends and drops them).
    public mutating func endedEntries(at t: Instant) -> [String] {
        advance(to: t)
        return endedIDs.sorted()
    }

    /// Whether the entry with `id` has ended for good at `t` (false for unknown ids).
    public mutating func hasEnded(id: String, at t: Instant) -> Bool {
        advance(to: t)
        return endedIDs.contains(id)
    }

    /// The earliest instant after `t` at which the active entries (or the window start of one of
    /// them) change, or nil when nothing changes again.
    public mutating func nextBoundary(after t: Instant) -> Instant? {
        advance(to: t)
        while let top = changes.min {
            if let item = tracked[top.id], item.generation == top.generation { return top.instant }
            _ = changes.popMin()
        }
        return nil
    }

    /// Brings every entry's state to `t`.
    private mutating func advance(to t: Instant) {
        if t < evaluatedAt || evaluatedAt == Int64.min {
            rebuild(at: t)
            return
        }
        evaluatedAt = t
        while let top = changes.min, top.instant <= t {
            _ = changes.popMin()
            guard let item = tracked[top.id], item.generation == top.generation else { continue }
            let state = Self.step(item.entry, from: item.state, at: top.instant, to: t)
            update(id: top.id, entry: item.entry, state: state)
        }
    }

    /// Re-evaluates every entry at `t` from scratch.
    private mutating func rebuild(at t: Instant) {
        evaluatedAt = t
        tracked.removeAll(keepingCapacity: true)
        activeIDs.removeAll(keepingCapacity: true)
        endedIDs.removeAll(keepingCapacity: true)
        changes = Heap()
        var pending: [Change] = []
        pending.reserveCapacity(entries.count)
        for entry in entries.values {
            let state = entry.state(at: t)
            nextGeneration &+= 1
            tracked[entry.id] = Tracked(entry: entry, state: state, generation: nextGeneration)
            if state.isActive { activeIDs.insert(entry.id) }
            if state.hasEnded { endedIDs.insert(entry.id) }
            if let next = state.nextChange { pending.append(Change(instant: next, id: entry.id, generation: nextGeneration)) }
        }
        changes = Heap(pending)
    }

    private mutating func track(_ entry: ScheduleEntry, at t: Instant) {
        update(id: entry.id, entry: entry, state: entry.state(at: t))
    }

    private mutating func update(id: String, entry: ScheduleEntry, state: WindowState) {
        nextGeneration &+= 1
        tracked[id] = Tracked(entry: entry, state: state, generation: nextGeneration)
        if state.isActive { activeIDs.insert(id) } else { activeIDs.remove(id) }
        if state.hasEnded { endedIDs.insert(id) } else { endedIDs.remove(id) }
        if let next = state.nextChange {
            changes.insert(Change(instant: next, id: id, generation: nextGeneration))
        }
    }

    /// The state at `t` of an entry whose state was `old` and whose next change is at `change`
    /// (`change <= t`). Recurring windows step one occurrence when that lands past `t`; everything
    /// else is recomputed from scratch at `t`.
    private static func step(_ entry: ScheduleEntry, from old: WindowState, at change: Instant,
                             to t: Instant) -> WindowState {
        guard case .recurring(let calendar, let duration) = entry.window, change == t else {
            return entry.state(at: t)
        }
        if let occurrence = old.nextOccurrence, occurrence == change {
            // A new occurrence starts now.
            let following = calendar.nextElapse(after: change)
            let end = change.saturatingAdd(duration)
            return WindowState(activeSince: change, nextChange: following.map { min($0, end) } ?? end,
                               hasEnded: false, nextOccurrence: following)
        }
        // The current window ends now and no occurrence starts at this instant.
        guard let following = old.nextOccurrence else {
            return WindowState(activeSince: nil, nextChange: nil, hasEnded: true, nextOccurrence: nil)
        }
        return WindowState(activeSince: nil, nextChange: following, hasEnded: false, nextOccurrence: following)
    }
}
