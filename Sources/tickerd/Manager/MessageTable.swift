import TickerModel

/// The daemon's messages and their schedule, stored once: each message is its schedule entry (id,
/// priority, urgency, posting time, window — in the ``Schedule``'s slot) plus a
/// ``MessagePayload`` (channel, text, effect, the calendar's text) in an array indexed by the
/// same slot. A ``MessageRecord`` is put together on demand.
///
/// Nothing the schedule holds is kept a second time, and each channel's name is kept once: a
/// payload holds its channel's number (``ChannelMessages``), which is freed for another channel
/// when the channel's last message goes.
///
/// The table also notes which ids were added, changed or removed since ``markStored()``, so the
/// state journal records only those (no copy of the stored state is kept to compare against).
struct MessageTable: Sendable {
    /// When each message is shown; its slots index `payloads`.
    private var schedule = Schedule()
    private var payloads: [MessagePayload?] = []
    /// Ids added, changed or removed since the last ``markStored()``.
    private(set) var unstored: Set<String> = []
    /// The channels that hold messages, by name (the per-channel limit is checked at every Post,
    /// and a channel's tape is built from its own messages alone).
    private var channels: [String: ChannelMessages] = [:]
    /// Each channel number's name; nil for a number free to give.
    private var channelNames: [String?] = []
    /// Channels a message was added to, changed in or removed from since the last
    /// ``takeChangedChannels(at:)``.
    private var changedChannels: Set<String> = []

    /// One channel's messages.
    private struct ChannelMessages {
        /// The channel's number, in the payloads.
        let number: Int32
        /// Its messages, by slot.
        var slots: Set<Int32> = []
        /// Its messages that were on the tape at the last ``takeChangedChannels(at:)``, by slot
        /// (those of ``activeMessages(inChannel:)``, without visiting its scheduled ones).
        var active: Set<Int32> = []
    }

    /// An empty table.
    init() {}

    /// How many messages there are.
    var count: Int { schedule.count }

    /// Every record, in no particular order.
    var values: [MessageRecord] {
        var records: [MessageRecord] = []
        records.reserveCapacity(schedule.count)
        schedule.forEachEntry { slot, entry in
            if let payload = payloads[slot] { records.append(record(of: payload, entry: entry)) }
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
        return record(of: payload, entry: entry)
    }

    /// The record of `payload` and its schedule `entry`.
    private func record(of payload: MessagePayload, entry: ScheduleEntry) -> MessageRecord {
        payload.record(with: entry, channelName: name(of: payload))
    }

    /// The name of `payload`'s channel.
    private func name(of payload: MessagePayload) -> String {
        channelNames[Int(payload.channel)] ?? ""
    }

    /// The ids and slots of `channel`'s messages, in no particular order.
    func slots(inChannel channel: String) -> [(id: String, slot: Int)] {
        (channels[channel]?.slots ?? []).compactMap { slot in schedule.entry(atSlot: Int(slot)).map { ($0.id, Int(slot)) } }
    }

    /// The record in `slot` (``slots(inChannel:)``).
    func record(atSlot slot: Int) -> MessageRecord? {
        guard slot < payloads.count, let payload = payloads[slot], let entry = schedule.entry(atSlot: slot) else { return nil }
        return record(of: payload, entry: entry)
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
        let number = addSlot(slot, to: record.channel)
        if slot >= payloads.count {
            payloads.append(contentsOf: repeatElement(nil, count: slot - payloads.count + 1))
        }
        payloads[slot] = MessagePayload(record, channel: number)
    }

    /// Notes `slot` as `channel`'s, numbering the channel if it held no message; returns its number.
    private mutating func addSlot(_ slot: Int, to channel: String) -> Int32 {
        if let number = channels[channel]?.number {
            channels[channel]?.slots.insert(Int32(slot))
            return number
        }
        let number: Int32
        if let free = channelNames.firstIndex(of: nil) {
            number = Int32(free)
            channelNames[free] = channel
        } else {
            number = Int32(channelNames.count)
            channelNames.append(channel)
        }
        channels[channel] = ChannelMessages(number: number, slots: [Int32(slot)])
        return number
    }

    /// Removes message `id` (nothing when there is none).
    mutating func remove(_ id: String) {
        guard let slot = schedule.slot(of: id), let payload = payloads[slot] else { return }
        unstored.insert(id)
        let channel = name(of: payload)
        changedChannels.insert(channel)
        removeSlot(slot, from: channel)
        schedule.remove(id: id)
        payloads[slot] = nil
    }

    /// Forgets `slot` as `channel`'s, and the channel's number with its last message.
    private mutating func removeSlot(_ slot: Int, from channel: String) {
        guard var messages = channels.removeValue(forKey: channel) else { return }
        messages.slots.remove(Int32(slot))
        messages.active.remove(Int32(slot))
        if messages.slots.isEmpty {
            channelNames[Int(messages.number)] = nil
        } else {
            channels[channel] = messages
        }
    }

    /// How many messages `channel` holds.
    func count(inChannel channel: String) -> Int {
        channels[channel]?.slots.count ?? 0
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
            let channel = name(of: payload)
            changedChannels.insert(channel)
            if schedule.activeEntry(atSlot: slot) != nil {
                channels[channel]?.active.insert(Int32(slot))
            } else {
                channels[channel]?.active.remove(Int32(slot))
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
        let slots = (channels[channel]?.active ?? []).lazy.map { Int($0) }
        let item = { (slot: Int) -> ShownMessage? in schedule.activeEntry(atSlot: slot).map { ShownMessage(entry: $0, slot: slot) } }
        let ordered: [ShownMessage]
        if phaseLocked {
            ordered = slots.compactMap(item).sorted { a, b in
                a.entry.priority != b.entry.priority ? a.entry.priority > b.entry.priority : a.entry.id < b.entry.id
            }
        } else {
            ordered = arrangement.ordered(slots: slots, below: payloads.count, item: item, entry: { $0.entry })
        }
        return (ordered.map(\.entry.id), ordered.map { payloads[$0.slot]?.text ?? "" }, ordered.map(\.slot))
    }

    /// A message on a channel's tape: its schedule entry and its slot. A struct, not a tuple: an
    /// array of them is copied and freed by code made for it, where a tuple's elements are each
    /// freed through the runtime's generic tuple witness.
    private struct ShownMessage {
        /// Its schedule entry.
        let entry: ActiveScheduleEntry
        /// Its slot.
        let slot: Int
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
