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
///
/// Each slot keeps its entry and state compactly (``ScheduleSlot``): ``entry(atSlot:)`` and the
/// other readers put a ``ScheduleEntry`` together on demand.
public struct Schedule: Sendable {
    /// The entries, by id, built on demand: each entry is stored once, in its slot, so a schedule
    /// of 100k messages does not hold a second dictionary of them.
    public var entries: [String: ScheduleEntry] {
        var result: [String: ScheduleEntry] = [:]
        result.reserveCapacity(slotOfID.count)
        for case let item? in slots { result[item.id] = item.entry }
        return result
    }

    /// How many entries the schedule holds.
    public var count: Int { slotOfID.count }

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

    private var slots: [ScheduleSlot?] = []
    /// Each id's slot (the ids themselves live in the slots).
    private var slotOfID = SlotIndex()
    private var freeSlots: [Int] = []
    private var changes = Heap<Change>()
    private var evaluatedAt: Instant = Int64.min
    private var activeSlots: Set<Int32> = []
    private var endedSlots: Set<Int32> = []
    /// Slots whose entry was inserted, replaced or removed, or whose shown state (shown or not,
    /// since when) changed, since the last ``takeChangedSlots(at:)``. Handed out whole by it,
    /// capacity and all: a schedule loaded with 100k entries keeps no set of that size after.
    private var changedSlots: Set<Int> = []
    /// The last `nextOccurrence(after:)` answer per calendar, shared by entries with that calendar.
    private var elapseCache: [CalendarSpec: (after: Instant, next: Instant?)] = [:]

    /// How the slot index reads a slot's id.
    private static func id(_ slot: ScheduleSlot?) -> String? { slot?.id }

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
            slots[slot] = .unevaluated(entry)
        } else {
            let state = entry.state(at: evaluatedAt)
            update(slot: slot, item: ScheduleSlot(entry, state: state), state: state)
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
        activeSlots.remove(found)
        endedSlots.remove(found)
        return entry
    }

    /// The entries on the tape at `t`, in tape order (priority high to low, window start, id).
    public mutating func activeEntries(at t: Instant) -> [ActiveScheduleEntry] {
        advance(to: t)
        return activeSlots.compactMap { activeEntry(atSlot: Int($0)) }.sorted(by: ActiveScheduleEntry.tapeOrder)
    }

    /// The slots whose entry was inserted, replaced or removed, or whose shown state changed,
    /// since the last call, with every state brought to `t`; the next call starts afresh. A slot
    /// may be listed although nothing visible changed (its entry was set to itself), and a
    /// removed entry's slot is listed although it may hold another entry by now; every slot whose
    /// ``activeEntry(atSlot:)`` differs from what it was at the last call is listed.
    public mutating func takeChangedSlots(at t: Instant) -> Set<Int> {
        advance(to: t)
        defer { changedSlots = [] }
        return changedSlots
    }

    /// The entry in `slot` as an active entry, if it is on the tape as of the schedule's latest
    /// instant (the last one asked about).
    public func activeEntry(atSlot slot: Int) -> ActiveScheduleEntry? {
        guard slots.indices.contains(slot), let item = slots[slot], let since = item.activeSince else { return nil }
        return ActiveScheduleEntry(id: item.id, priority: item.priority, isUrgent: item.isUrgent, windowStart: since)
    }

    /// The ids of entries whose window has passed for good at `t` (the daemon ends and drops them).
    public mutating func endedEntries(at t: Instant) -> [String] {
        advance(to: t)
        return endedSlots.compactMap { slots[Int($0)]?.id }.sorted()
    }

    /// Whether the entry with `id` has ended for good at `t` (false for unknown ids).
    public mutating func hasEnded(id: String, at t: Instant) -> Bool {
        advance(to: t)
        guard let slot = slotOfID.slot(of: id, in: slots, key: Self.id) else { return false }
        return endedSlots.contains(slot)
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
            let state = step(item, at: top.instant, to: t)
            update(slot: top.slot, item: item, state: state)
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
            guard var item = slots[slot] else { continue }
            let state = item.state(at: t)
            if first || state.activeSince != item.activeSince { changedSlots.insert(slot) }
            item.setState(state)
            slots[slot] = item
            if state.isActive { activeSlots.insert(Int32(slot)) }
            if state.hasEnded { endedSlots.insert(Int32(slot)) }
            if let next = state.nextChange {
                pending.append(Change(instant: next, slot: slot))
            }
        }
        changes = Heap(pending)
    }

    /// Puts `item` in `slot` with `state`, noting what changed.
    private mutating func update(slot: Int, item: ScheduleSlot, state: WindowState) {
        if slots[slot]?.activeSince != state.activeSince { changedSlots.insert(slot) }
        var item = item
        item.setState(state)
        slots[slot] = item
        let number = Int32(slot)
        if state.isActive { activeSlots.insert(number) } else { activeSlots.remove(number) }
        if state.hasEnded { endedSlots.insert(number) } else { endedSlots.remove(number) }
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

    /// The state at `t` of the entry in `item`, whose next change is at `change` (`change <= t`).
    /// Recurring windows step one occurrence when `change == t`; everything else is recomputed
    /// from scratch at `t`.
    private mutating func step(_ item: ScheduleSlot, at change: Instant, to t: Instant) -> WindowState {
        guard let (calendar, duration) = item.recurrence, change == t else {
            return item.state(at: t)
        }
        let old = item.state
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
