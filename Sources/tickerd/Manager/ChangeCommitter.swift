/// Makes each of the manager's changes durable and then announces it, in that order: a change is
/// stored, then its events go to the observer (signals on the bus), and only then is its caller
/// answered. No client ever sees a change that a crash or a full disk undoes.
///
/// The manager queues a change's events while it works (``queue(_:)``) and hands the change to
/// ``commit(_:snapshot:)`` when it is done; a change that is not stored is dropped with its
/// events (``dropQueued(from:)``).
final class ChangeCommitter {
    /// Stores a change durably; nil keeps state in memory only (tests of the model logic).
    var store: (any StateStoring)?
    /// Receives the events of each stored change, and frames.
    weak var observer: (any ManagerObserver)?
    private var events: [ManagerEvent] = []

    /// How many events are queued.
    var queuedCount: Int { events.count }

    /// Queues `event` for the next ``commit(_:snapshot:)`` or ``announce(from:)``.
    func queue(_ event: ManagerEvent) {
        events.append(event)
    }

    /// Drops the events queued from index `start` on (a change that was not stored).
    func dropQueued(from start: Int) {
        events.removeSubrange(min(start, events.count)...)
    }

    /// Stores `change` (nothing when it is nil or there is no store), then announces the queued
    /// events. Throws `StorageFailed` when the store fails; the events stay queued for the caller
    /// to drop.
    func commit(_ change: StateChange?, snapshot: () -> StateSnapshot, from manager: Manager) throws(TickerError) {
        if let change, let store {
            do {
                try store.store(change, snapshot: snapshot)
            } catch {
                throw .storageFailed("the state could not be stored, so the change was not made: \(error)")
            }
        }
        announce(from: manager)
    }

    /// Delivers the queued events to the observer, as one batch, each channel's property changes
    /// merged into one event (``coalesced(_:)``).
    func announce(from manager: Manager) {
        let delivered = Self.coalesced(events)
        events.removeAll()
        guard let observer, !delivered.isEmpty else { return }
        for event in delivered { observer.manager(manager, didEmit: event) }
        observer.managerDidDeliverEvents(manager)
    }

    /// `events` with the `channelChanged` events of each channel merged into one, in the place of
    /// the last of them, naming every property any of them named. Properties are read when their
    /// event is delivered, so the events one change queues for a channel (its settings, then its
    /// tape; an effect, then a text) would each announce the same values again.
    static func coalesced(_ events: [ManagerEvent]) -> [ManagerEvent] {
        var last: [String: Int] = [:]
        var merged: [String: ChannelChanges] = [:]
        for (index, event) in events.enumerated() {
            guard case let .channelChanged(name, changes) = event else { continue }
            last[name] = index
            merged[name, default: []].formUnion(changes)
        }
        return events.enumerated().compactMap { index, event in
            guard case let .channelChanged(name, _) = event else { return event }
            return last[name] == index ? .channelChanged(name, merged[name] ?? []) : nil
        }
    }
}
