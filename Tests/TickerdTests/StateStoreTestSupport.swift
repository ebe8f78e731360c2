import TickerModel
@testable import tickerd

extension StoredState {
    /// What turns this state into `snapshot`'s, as record `sequence`: only the channels and
    /// messages that differ, by comparing whole states (the test's reference for what the
    /// manager's noted changes must amount to).
    func change(to snapshot: StateSnapshot, sequence: UInt64) -> StateChange {
        var change = StateChange(sequence: sequence, nextSerial: snapshot.nextSerial)
        for channel in snapshot.channels where channels[channel.name] != channel {
            change.channels.append(channel)
        }
        let names = Set(snapshot.channels.map(\.name))
        change.removedChannels = channels.keys.filter { !names.contains($0) }.sorted()
        for message in snapshot.messages where messages[message.id] != message {
            change.messages.append(message)
        }
        let ids = Set(snapshot.messages.map(\.id))
        change.removedMessages = messages.keys.filter { !ids.contains($0) }.sorted()
        return change
    }
}

/// Stores whole snapshots through a `StateStore` the way the manager does, as the difference from
/// the snapshot stored before (nothing when there is none).
final class SnapshotSaver {
    /// The store written to.
    let store: StateStore
    private var last: StoredState?

    init(_ store: StateStore) {
        self.store = store
    }

    /// Stores `snapshot` as a change from the last one saved (a compaction for the first).
    func save(_ snapshot: StateSnapshot) throws {
        let previous = last ?? StoredState(StateSnapshot(nextSerial: 0, channels: [], messages: []))
        let change = previous.change(to: snapshot, sequence: 0)
        if last != nil, change.isEmpty(after: previous.nextSerial) { return }
        try store.store(change, snapshot: { snapshot })
        last = StoredState(snapshot)
    }
}

/// A store that keeps what it is given in memory, and fails as a full disk does while `failing`
/// is set.
final class MemoryStore: StateStoring {
    /// The state as stored so far (changes applied over the last snapshot).
    var state = StoredState(StateSnapshot(nextSerial: 0, channels: [], messages: []))
    /// The changes stored, in order.
    var changes: [StateChange] = []
    /// When set, every store throws.
    var failing = false
    /// Called at each store, before it stores or fails.
    var onStore: (() -> Void)?

    struct Failure: Error {}

    func store(_ change: StateChange, snapshot: () -> StateSnapshot) throws {
        onStore?()
        if failing { throw Failure() }
        guard state.apply(change) else { throw Failure() }
        changes.append(change)
    }
}

extension JournalFile {
    /// Where the whole records of `bytes` end.
    static func recordsEnd(in bytes: [UInt8]) -> Int {
        records(in: bytes).payloads.reduce(0) { $0 + 8 + $1.count }
    }

    /// Where the whole records of the journal at `path` end (0 when it cannot be read).
    static func recordsEnd(atPath path: String) -> Int {
        recordsEnd(in: (try? AtomicFile.read(path)) ?? nil ?? [])
    }
}
