import TickerModel

/// The daemon's messages and their schedule, stored once: each message is its schedule entry (id,
/// priority, urgency, posting time, window — in the ``Schedule``'s slot) plus a
/// ``MessagePayload`` (channel, text, effect, the calendar's text) in an array indexed by the
/// same slot. A ``MessageRecord`` is put together on demand.
///
/// Nothing the schedule holds is kept a second time.
///
/// The table also notes which ids were added, changed or removed since ``markStored()``, so the
/// state journal records only those (no copy of the stored state is kept to compare against).
struct MessageTable: Sendable {
    /// When each message is shown; its slots index `payloads`.
    private var schedule = Schedule()
    private var payloads: [MessagePayload?] = []
    /// Ids added, changed or removed since the last ``markStored()``.
    private(set) var unstored: Set<String> = []
    /// Each channel's messages, by slot (the per-channel limit is checked at every Post, and a
    /// channel's tape is built from its own messages alone).
    private var slotsByChannel: [String: Set<Int>] = [:]
    /// Channels a message was added to, changed in or removed from since the last
    /// ``takeChangedChannels(at:)``.
    private var changedChannels: Set<String> = []
    /// Each channel's messages that were on the tape at the last ``takeChangedChannels(at:)``,
    /// by slot (those of ``activeMessages(inChannel:)``, without visiting its scheduled ones).
    private var activeSlotsByChannel: [String: Set<Int>] = [:]

    /// An empty table.
    init() {}

    /// How many messages there are.
    var count: Int { schedule.count }

    /// Every record, in no particular order.
    var values: [MessageRecord] {
        var records: [MessageRecord] = []
        records.reserveCapacity(schedule.count)
        schedule.forEachEntry { slot, entry in
            if let payload = payloads[slot] { records.append(payload.record(with: entry)) }
        }
        return records
    }

    /// Every id, in the order of `values`.
    var keys: [String] {
        var ids: [String] = []
        ids.reserveCapacity(schedule.count)
        schedule.forEachEntry { slot, entry in
            if payloads[slot] != nil { ids.append(entry.id) }
        }
        return ids
    }

    /// The record with `id`.
    subscript(id: String) -> MessageRecord? {
        guard let slot = schedule.slot(of: id), let entry = schedule.entry(atSlot: slot),
              let payload = payloads[slot] else { return nil }
        return payload.record(with: entry)
    }

    /// The ids and slots of `channel`'s messages, in no particular order.
    func slots(inChannel channel: String) -> [(id: String, slot: Int)] {
        (slotsByChannel[channel] ?? []).compactMap { slot in schedule.entry(atSlot: slot).map { ($0.id, slot) } }
    }

    /// The record in `slot` (``slots(inChannel:)``).
    func record(atSlot slot: Int) -> MessageRecord? {
        guard slot < payloads.count, let payload = payloads[slot], let entry = schedule.entry(atSlot: slot) else { return nil }
        return payload.record(with: entry)
    }

    /// The schedule entry of message `id`.
    func entry(id: String) -> ScheduleEntry? {
        schedule.entry(id: id)
    }

    /// Adds or replaces `record`, with `entry` its schedule entry (same id; the manager parses its
    /// calendar with the host's zones).
    mutating func set(_ record: MessageRecord, entry: ScheduleEntry) {
        let old = self[record.id]
        if let old {
            guard old != record else {
                // The same record; its calendar may still parse differently (other zones).
                if schedule.entry(id: record.id) != entry { schedule.insert(entry) }
                return
            }
            changedChannels.insert(old.channel)
            if old.channel != record.channel, let slot = schedule.slot(of: record.id) {
                removeSlot(slot, from: old.channel)
            }
        }
        changedChannels.insert(record.channel)
        unstored.insert(record.id)
        let slot = schedule.insert(entry)
        slotsByChannel[record.channel, default: []].insert(slot)
        if slot >= payloads.count {
            payloads.append(contentsOf: repeatElement(nil, count: slot - payloads.count + 1))
        }
        payloads[slot] = MessagePayload(record)
    }

    /// Removes message `id` (nothing when there is none).
    mutating func remove(_ id: String) {
        guard let slot = schedule.slot(of: id), let payload = payloads[slot] else { return }
        unstored.insert(id)
        changedChannels.insert(payload.channel)
        removeSlot(slot, from: payload.channel)
        schedule.remove(id: id)
        payloads[slot] = nil
    }

    private mutating func removeSlot(_ slot: Int, from channel: String) {
        slotsByChannel[channel]?.remove(slot)
        if slotsByChannel[channel]?.isEmpty == true { slotsByChannel[channel] = nil }
        activeSlotsByChannel[channel]?.remove(slot)
        if activeSlotsByChannel[channel]?.isEmpty == true { activeSlotsByChannel[channel] = nil }
    }

    /// How many messages `channel` holds.
    func count(inChannel channel: String) -> Int {
        slotsByChannel[channel]?.count ?? 0
    }

    /// Forgets which ids changed: the state as it is now is stored.
    mutating func markStored() {
        unstored.removeAll()
    }

    /// Puts back the ids noted as changed before a transaction that was rolled back.
    mutating func restoreUnstored(_ ids: Set<String>) {
        unstored = ids
    }

    /// Makes room for `capacity` messages at once (a configuration file with many of them), and
    /// an eighth more for Posts (``Schedule/reserveCapacity(_:)``); capacity never written stays
    /// unmapped.
    mutating func reserveCapacity(_ capacity: Int) {
        schedule.reserveCapacity(capacity)
        payloads.reserveCapacity(capacity + capacity / 8)
    }

    // MARK: The schedule's questions

    /// The channels whose messages on the tape may differ from those at the last call: a message
    /// of theirs was added, changed or removed, or its window opened or closed by `t`. Every other
    /// channel's ``activeEntries(inChannel:)`` is as it was.
    mutating func takeChangedChannels(at t: Instant) -> Set<String> {
        for slot in schedule.takeChangedSlots(at: t) where slot < payloads.count {
            guard let payload = payloads[slot] else { continue }
            changedChannels.insert(payload.channel)
            if schedule.activeEntry(atSlot: slot) != nil {
                activeSlotsByChannel[payload.channel, default: []].insert(slot)
            } else {
                activeSlotsByChannel[payload.channel]?.remove(slot)
            }
        }
        defer { changedChannels.removeAll() }
        return changedChannels
    }

    /// Makes the next ``takeChangedChannels(at:)`` hand out `channel` though none of its messages
    /// changed (its tape order changed with its `phase`).
    mutating func markChanged(channel: String) {
        changedChannels.insert(channel)
    }

    /// The ids, texts and slots of the messages on `channel`'s tape as of the last
    /// ``takeChangedChannels(at:)``, in tape order: as `arrangement` puts them
    /// (``TapeArrangement/ordered(_:)``; by default ``ActiveScheduleEntry/tapeOrder(_:_:)``), or
    /// by priority then id when `phaseLocked` (arrival differs from screen to screen, so a
    /// phase-locked tape is ordered by what every screen knows alike, docs/rendering.md §13): the
    /// channel's shown messages alone are read.
    func activeMessages(inChannel channel: String, phaseLocked: Bool = false,
                        arrangement: TapeArrangement = .fresh) -> (ids: [String], texts: [String], slots: [Int]) {
        let active = (activeSlotsByChannel[channel] ?? []).compactMap { slot -> (entry: ActiveScheduleEntry, slot: Int)? in
            schedule.activeEntry(atSlot: slot).map { ($0, slot) }
        }
        let ordered = phaseLocked
            ? active.sorted { a, b in a.entry.priority != b.entry.priority ? a.entry.priority > b.entry.priority : a.entry.id < b.entry.id }
            : arrangement.ordered(active, entry: \.entry, slot: \.slot)
        return (ordered.map(\.entry.id), ordered.map { payloads[$0.slot]?.text ?? "" }, ordered.map(\.slot))
    }

    /// The ids of messages whose window has passed for good at `t`.
    mutating func endedEntries(at t: Instant) -> [String] {
        schedule.endedEntries(at: t)
    }

    /// The next instant after `t` at which the messages on the tapes change.
    mutating func nextBoundary(after t: Instant) -> Instant? {
        schedule.nextBoundary(after: t)
    }
}
