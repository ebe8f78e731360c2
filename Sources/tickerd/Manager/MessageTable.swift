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
    /// How many messages each channel holds (the per-channel limit is checked at every Post).
    private var countByChannel: [String: Int] = [:]

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
            if old.channel != record.channel {
                countByChannel[old.channel, default: 1] -= 1
                countByChannel[record.channel, default: 0] += 1
            }
        } else {
            countByChannel[record.channel, default: 0] += 1
        }
        unstored.insert(record.id)
        let slot = schedule.insert(entry)
        if slot >= payloads.count {
            payloads.append(contentsOf: repeatElement(nil, count: slot - payloads.count + 1))
        }
        payloads[slot] = MessagePayload(record)
    }

    /// Removes message `id` (nothing when there is none).
    mutating func remove(_ id: String) {
        guard let slot = schedule.slot(of: id), let payload = payloads[slot] else { return }
        unstored.insert(id)
        countByChannel[payload.channel, default: 1] -= 1
        schedule.remove(id: id)
        payloads[slot] = nil
    }

    /// How many messages `channel` holds.
    func count(inChannel channel: String) -> Int {
        countByChannel[channel] ?? 0
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

    /// The messages on their tapes at `t`, in tape order (``Schedule/activeEntries(at:)``).
    mutating func activeEntries(at t: Instant) -> [ActiveScheduleEntry] {
        schedule.activeEntries(at: t)
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
