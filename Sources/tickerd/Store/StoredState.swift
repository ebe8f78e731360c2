/// The stored state by key: what the snapshot plus the journal hold, built when the journal is
/// replayed at start (and dropped once it is).
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

    /// Applies `change`; false (and nothing applied) when it edits a channel this state does not
    /// hold in the form it was edited from.
    mutating func apply(_ change: StateChange) -> Bool {
        var edited: [StoredChannel] = []
        for edit in change.channelEdits ?? [] {
            guard let previous = channels[edit.channel.name], let whole = edit.applied(to: previous) else { return false }
            edited.append(whole)
        }
        nextSerial = change.nextSerial
        for name in change.removedChannels { channels[name] = nil }
        for channel in change.channels + edited { channels[channel.name] = channel }
        for id in change.removedMessages { messages[id] = nil }
        for message in change.messages { messages[message.id] = message }
        return true
    }
}
