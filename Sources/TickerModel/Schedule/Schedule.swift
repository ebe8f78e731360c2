import HeapModule

/// A set of scheduled messages that answers which are on the tape at an instant and when that
/// next changes, without scanning time.
///
/// Each entry's state (shown since when, next change) is kept for the instant the schedule was
/// last advanced to; a min-heap of next-change instants finds the entries to update when time moves
/// on, so a query costs O(k log n) for the k entries that change, and next to nothing when none
/// does. Entries sharing a calendar share its evaluation. Asking about an instant before the last
/// one re-evaluates every entry from scratch (the wall clock went back).
///
/// The schedule also notes which slots' shown state may have changed (inserted, replaced,
/// removed, or stepped by time), so a caller can re-read only those
/// (``takeChangedSlots(at:)``) instead of every active entry.
///
/// Stale heap items (from replaced or removed entries, or from states since stepped) are skipped
/// lazily: an item counts only while the entry in its slot still changes at its instant. A stale
/// item that happens to name an entry's real next change is that change, and the entry's own item
/// is then skipped as done. (No generation numbers: 8 bytes less per entry and per heap item.)
public struct Schedule: Sendable {
    /// The entries, by id, built on demand: each entry is stored once, in its slot, so a schedule
    /// of 100k messages does not hold a second dictionary of them.
    public var entries: [String: ScheduleEntry] {
        var result: [String: ScheduleEntry] = [:]
        result.reserveCapacity(slotOfID.count)
        for case let item? in slots { result[item.entry.id] = item.entry }
        return result
    }

    /// How many entries the schedule holds.
    public var count: Int { slotOfID.count }

    private struct Tracked: Sendable {
        var entry: ScheduleEntry
        var state: WindowState
    }

    private struct Change: Comparable, Sendable {
        let instant: Instant
        let slotNumber: Int32
        var slot: Int { Int(slotNumber) }
        init(instant: Instant, slot: Int) {
            self.instant = instant
            self.slotNumber = Int32(truncatingIfNeeded: slot)
        }
        static func < (a: Change, b: Change) -> Bool {
            (a.instant, a.slotNumber) < (b.instant, b.slotNumber)
        }
    }

    /// Whether `change` is still the next change of the entry in its slot.
    private func isCurrent(_ change: Change) -> Bool {
        slots[change.slot]?.state.nextChange == change.instant
    }

    private var slots: [Tracked?] = []
    /// Each id's slot (the ids themselves live in the slots).
    private var slotOfID = SlotIndex()
    private var freeSlots: [Int] = []
    private var changes = Heap<Change>()
    private var evaluatedAt: Instant = Int64.min
    private var activeSlots: Set<Int> = []
    private var endedSlots: Set<Int> = []
    /// Slots whose entry was inserted, replaced or removed, or whose shown state (shown or not,
    /// since when) changed, since the last ``takeChangedSlots(at:)``.
    private var changedSlots: Set<Int> = []
    /// The last `nextOccurrence(after:)` answer per calendar, shared by entries with that calendar.
    private var elapseCache: [CalendarSpec: (after: Instant, next: Instant?)] = [:]

    /// How the slot index reads a slot's id.
    private static func id(_ slot: Tracked?) -> String? { slot?.entry.id }

    /// Creates a schedule holding `entries` (later entries replace earlier ones with the same id).
    public init(_ entries: [ScheduleEntry] = []) {
        for entry in entries { insert(entry) }
    }

    /// Makes room for `capacity` entries at once, and an eighth more slots for entries added later
    /// (the first insert into a full slot array would double it, copying every slot); slot capacity
    /// never written stays unmapped.
    public mutating func reserveCapacity(_ capacity: Int) {
        slots.reserveCapacity(capacity + capacity / 8)
        slotOfID.reserveCapacity(capacity, in: slots, key: Self.id)
    }

    /// Adds `entry`, replacing any entry with the same id; returns the slot that holds it (a
    /// caller may keep more about each entry in an array of its own, by slot).
    @discardableResult
    public mutating func insert(_ entry: ScheduleEntry) -> Int {
        let slot: Int
        if let existing = slotOfID.slot(of: entry.id, in: slots, key: Self.id) {
            slot = Int(existing)
        } else {
            if let free = freeSlots.popLast() {
                slot = free
            } else {
                slot = slots.count
                slots.append(nil)
            }
            slotOfID.insert(entry.id, slot: Int32(slot), in: slots, key: Self.id)
        }
        changedSlots.insert(slot)
        if evaluatedAt == Int64.min {
            slots[slot] = Tracked(entry: entry, state: WindowState(activeSince: nil, nextChange: nil, hasEnded: false,
                                                                   nextOccurrence: nil))
        } else {
            update(slot: slot, entry: entry, state: entry.state(at: evaluatedAt))
        }
        return slot
    }

    /// The slot holding the entry with `id`, if the schedule holds one. Slots are reused after
    /// removals; one stays with its entry until the entry is removed.
    public func slot(of id: String) -> Int? {
        slotOfID.slot(of: id, in: slots, key: Self.id).map { Int($0) }
    }

    /// The entry in `slot`, if any.
    public func entry(atSlot slot: Int) -> ScheduleEntry? {
        slots.indices.contains(slot) ? slots[slot]?.entry : nil
    }

    /// Calls `body` with every entry and its slot, in slot order.
    public func forEachEntry(_ body: (_ slot: Int, _ entry: ScheduleEntry) throws -> Void) rethrows {
        for slot in slots.indices {
            if let entry = slots[slot]?.entry { try body(slot, entry) }
        }
    }

    /// The entry with `id`, if the schedule holds one.
    public func entry(id: String) -> ScheduleEntry? {
        slotOfID.slot(of: id, in: slots, key: Self.id).flatMap { slots[Int($0)]?.entry }
    }

    /// Removes the entry with `id`, returning it.
    @discardableResult
    public mutating func remove(id: String) -> ScheduleEntry? {
        guard let found = slotOfID.remove(id, in: slots, key: Self.id) else { return nil }
        let slot = Int(found)
        guard let entry = slots[slot]?.entry else { return nil }
        slots[slot] = nil
        changedSlots.insert(slot)
        freeSlots.append(slot)
        activeSlots.remove(slot)
        endedSlots.remove(slot)
        return entry
    }

    /// The entries on the tape at `t`, in tape order (priority high to low, window start, id).
    public mutating func activeEntries(at t: Instant) -> [ActiveScheduleEntry] {
        advance(to: t)
        return activeSlots.compactMap { slot -> ActiveScheduleEntry? in
            guard let item = slots[slot], let since = item.state.activeSince else { return nil }
            return ActiveScheduleEntry(id: item.entry.id, priority: item.entry.priority,
                                       isUrgent: item.entry.isUrgent, windowStart: since)
        }.sorted(by: ActiveScheduleEntry.tapeOrder)
    }

    /// The slots whose entry was inserted, replaced or removed, or whose shown state changed,
    /// since the last call, with every state brought to `t`; the next call starts afresh. A slot
    /// may be listed although nothing visible changed (its entry was set to itself), and a
    /// removed entry's slot is listed although it may hold another entry by now; every slot whose
    /// ``activeEntry(atSlot:)`` differs from what it was at the last call is listed.
    public mutating func takeChangedSlots(at t: Instant) -> Set<Int> {
        advance(to: t)
        defer { changedSlots.removeAll(keepingCapacity: true) }
        return changedSlots
    }

    /// The entry in `slot` as an active entry, if it is on the tape as of the schedule's latest
    /// instant (the last one asked about).
    public func activeEntry(atSlot slot: Int) -> ActiveScheduleEntry? {
        guard slots.indices.contains(slot), let item = slots[slot], let since = item.state.activeSince else { return nil }
        return ActiveScheduleEntry(id: item.entry.id, priority: item.entry.priority, isUrgent: item.entry.isUrgent,
                                   windowStart: since)
    }

    /// The ids of entries whose window has passed for good at `t` (the daemon ends and drops them).
    public mutating func endedEntries(at t: Instant) -> [String] {
        advance(to: t)
        return endedSlots.compactMap { slots[$0]?.entry.id }.sorted()
    }

    /// Whether the entry with `id` has ended for good at `t` (false for unknown ids).
    public mutating func hasEnded(id: String, at t: Instant) -> Bool {
        advance(to: t)
        guard let slot = slotOfID.slot(of: id, in: slots, key: Self.id) else { return false }
        return endedSlots.contains(Int(slot))
    }

    /// The earliest instant after `t` at which the active entries (or the window start of one of
    /// them) change, or an entry ends for good; nil when nothing changes again.
    public mutating func nextBoundary(after t: Instant) -> Instant? {
        advance(to: t)
        while let top = changes.min {
            if isCurrent(top) { return top.instant }
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
            guard isCurrent(top), let item = slots[top.slot] else { continue }
            let state = step(item.entry, from: item.state, at: top.instant, to: t)
            update(slot: top.slot, entry: item.entry, state: state)
        }
    }

    /// Re-evaluates every entry at `t` from scratch.
    private mutating func rebuild(at t: Instant) {
        let first = evaluatedAt == Int64.min
        evaluatedAt = t
        activeSlots.removeAll(keepingCapacity: true)
        endedSlots.removeAll(keepingCapacity: true)
        var pending: [Change] = []
        pending.reserveCapacity(slotOfID.count)
        for slot in slots.indices {
            guard let item = slots[slot] else { continue }
            let state = item.entry.state(at: t)
            if first || state.activeSince != item.state.activeSince { changedSlots.insert(slot) }
            slots[slot] = Tracked(entry: item.entry, state: state)
            if state.isActive { activeSlots.insert(slot) }
            if state.hasEnded { endedSlots.insert(slot) }
            if let next = state.nextChange {
                pending.append(Change(instant: next, slot: slot))
            }
        }
        changes = Heap(pending)
    }

    private mutating func update(slot: Int, entry: ScheduleEntry, state: WindowState) {
        if slots[slot]?.state.activeSince != state.activeSince { changedSlots.insert(slot) }
        slots[slot] = Tracked(entry: entry, state: state)
        if state.isActive { activeSlots.insert(slot) } else { activeSlots.remove(slot) }
        if state.hasEnded { endedSlots.insert(slot) } else { endedSlots.remove(slot) }
        if let next = state.nextChange {
            changes.insert(Change(instant: next, slot: slot))
        }
    }

    /// `calendar.nextOccurrence(after:)`, shared by all entries asking the same question.
    private mutating func nextOccurrence(_ calendar: CalendarSpec, after instant: Instant) -> Instant? {
        if let cached = elapseCache[calendar], cached.after == instant { return cached.next }
        let next = calendar.nextOccurrence(after: instant)
        elapseCache[calendar] = (instant, next)
        return next
    }

    /// The state at `t` of an entry whose state was `old` and whose next change is at `change`
    /// (`change <= t`). Recurring windows step one occurrence when `change == t`; everything else
    /// is recomputed from scratch at `t`.
    private mutating func step(_ entry: ScheduleEntry, from old: WindowState, at change: Instant,
                               to t: Instant) -> WindowState {
        guard case .recurring(let calendar, let duration) = entry.window, change == t else {
            return entry.state(at: t)
        }
        if let occurrence = old.nextOccurrence, occurrence == change {
            // A new occurrence starts now.
            let following = nextOccurrence(calendar, after: change)
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
