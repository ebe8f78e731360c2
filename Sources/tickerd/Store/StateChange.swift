/// One record of the state journal: what changed in the stored state since the record before it
/// (or since the snapshot). Replaying the records in order over the snapshot gives the state as
/// it was when the last answered change was stored.
struct StateChange: Codable, Sendable, Equatable {
    /// The record's place in the journal: 1 more than the one before; the snapshot names the
    /// last record it already holds, so records left over from before a compaction are skipped.
    var sequence: UInt64
    /// The next serial for generated message ids.
    var nextSerial: UInt64
    /// Channels that were added or changed, whole.
    var channels: [StoredChannel] = []
    /// Names of channels that are gone.
    var removedChannels: [String] = []
    /// Messages that were added or changed, whole.
    var messages: [MessageRecord] = []
    /// Ids of messages that are gone.
    var removedMessages: [String] = []
}

/// The stored state by key: what the snapshot plus the journal hold, to find what a new
/// snapshot changes and to replay journal records.
struct StoredState: Sendable, Equatable {
    /// The next serial for generated message ids.
    var nextSerial: UInt64
    /// Channels by name.
    var channels: [String: StoredChannel]
    /// Messages by id.
    var messages: [String: MessageRecord]

    /// The state held by `snapshot`.
    init(_ snapshot: StateSnapshot) {
        nextSerial = snapshot.nextSerial
        channels = Dictionary(snapshot.channels.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        messages = Dictionary(snapshot.messages.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The snapshot of this state (channels sorted by name, messages by id, as `Manager.snapshot()`
    /// writes them), naming `sequence` as the last journal record it holds.
    func snapshot(journalSequence sequence: UInt64) -> StateSnapshot {
        StateSnapshot(
            nextSerial: nextSerial, channels: channels.values.sorted { $0.name < $1.name },
            messages: messages.values.sorted { $0.id < $1.id }, journalSequence: sequence)
    }

    /// What turns this state into `snapshot`'s, as record `sequence`: only the channels and
    /// messages that differ (see `isUnchanged(by:)` for a change that changes nothing).
    func change(to snapshot: StateSnapshot, sequence: UInt64) -> StateChange {
        var change = StateChange(sequence: sequence, nextSerial: snapshot.nextSerial)
        for channel in snapshot.channels where channels[channel.name] != channel {
            change.channels.append(channel)
        }
        if channels.count != snapshot.channels.count || change.channels.count > 0 {
            let names = Set(snapshot.channels.map(\.name))
            change.removedChannels = channels.keys.filter { !names.contains($0) }.sorted()
        }
        var kept = 0
        for message in snapshot.messages {
            if let old = messages[message.id] {
                kept += 1
                if old == message { continue }
            }
            change.messages.append(message)
        }
        if kept != messages.count {
            let ids = Set(snapshot.messages.map(\.id))
            change.removedMessages = messages.keys.filter { !ids.contains($0) }.sorted()
        }
        return change
    }

    /// Whether `change` would leave this state as it is.
    func isUnchanged(by change: StateChange) -> Bool {
        change.nextSerial == nextSerial && change.channels.isEmpty && change.removedChannels.isEmpty
            && change.messages.isEmpty && change.removedMessages.isEmpty
    }

    /// Applies `change`.
    mutating func apply(_ change: StateChange) {
        nextSerial = change.nextSerial
        for name in change.removedChannels { channels[name] = nil }
        for channel in change.channels { channels[channel.name] = channel }
        for id in change.removedMessages { messages[id] = nil }
        for message in change.messages { messages[message.id] = message }
    }
}
