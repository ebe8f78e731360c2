import Testing
import TestSupport
import TickerModel
@testable import tickerd

/// A change is stored, then announced: its events go out only once its store succeeded, and a
/// change whose store fails is never announced, so a subscriber following the signals always
/// ends with the manager's state.
@Suite struct ManagerAnnouncementTests {
    static let base: Instant = 1_800_000_000_000_000

    /// What a panel knows from the signals alone: the shown message ids of each channel (from
    /// MessageStarted and MessageEnded) and each channel's published properties, read when
    /// PropertiesChanged names them (as a bus client reads them from the signal).
    final class Panel: ManagerObserver {
        struct Properties: Equatable {
            var messages: [String]
            var text: [String]
            var columns: UInt32
            var paused: Bool
        }
        var shown: [String: Set<String>] = [:]
        var properties: [String: Properties] = [:]
        var events: [ManagerEvent] = []

        func manager(_ manager: Manager, didEmit event: ManagerEvent) {
            events.append(event)
            switch event {
            case let .messageStarted(channel, id): shown[channel, default: []].insert(id)
            case let .messageEnded(channel, id, _): shown[channel, default: []].remove(id)
            case let .channelAdded(name): read(manager, name, [.messages, .text, .columns, .paused])
            case let .channelChanged(name, changes): read(manager, name, changes)
            case .valueReached: break
            }
        }

        private func read(_ manager: Manager, _ name: String, _ changes: ChannelChanges) {
            guard let channel = manager.channels[name] else { return }
            var known = properties[name] ?? Properties(messages: [], text: [], columns: 0, paused: false)
            if changes.contains(.messages) { known.messages = channel.activeIDs }
            if changes.contains(.text) { known.text = channel.activeTexts }
            if changes.contains(.columns) { known.columns = channel.columns }
            if changes.contains(.paused) { known.paused = channel.isPaused }
            properties[name] = known
        }

        func managerDidDeliverEvents(_ manager: Manager) {}
        func manager(_ manager: Manager, sendFrame frame: Frame, channel: String, to destination: String?) -> Bool { true }

        /// Where the panel's view differs from the manager's (empty when it does not).
        func differences(from manager: Manager) -> [String] {
            var found: [String] = []
            if Set(properties.keys) != Set(manager.channels.keys) {
                found.append("channels: signals say \(properties.keys.sorted()), are \(manager.channels.keys.sorted())")
            }
            for name in manager.channels.keys {
                guard let channel = manager.channels[name] else { continue }
                if shown[name, default: []] != Set(channel.activeIDs) {
                    found.append("\(name): signals say \(shown[name, default: []].sorted()), shown \(channel.activeIDs)")
                }
                let actual = Properties(messages: channel.activeIDs, text: channel.activeTexts,
                                        columns: channel.columns, paused: channel.isPaused)
                if properties[name] != actual {
                    found.append("\(name): properties say \(String(describing: properties[name])), are \(actual)")
                }
            }
            return found
        }
    }

    func makeManager(_ clock: ManagerJournalTests.ManualClock, store: MemoryStore) -> (Manager, Panel) {
        let manager = Manager(zones: ZoneTable(), clock: { clock.now })
        let panel = Panel()
        manager.observer = panel
        // What a panel reads when it first appears.
        for name in manager.channels.keys { panel.manager(manager, didEmit: .channelAdded(name)) }
        manager.store = store
        return (manager, panel)
    }

    @Test func everyChangeIsAnnouncedOnlyAfterItIsStored() throws {
        let clock = ManagerJournalTests.ManualClock(Self.base)
        let store = MemoryStore()
        let (manager, panel) = makeManager(clock, store: store)
        var eventsAtStore: [Int] = []
        store.onStore = { eventsAtStore.append(panel.events.count) }
        let before = panel.events.count
        _ = try manager.post(channel: "main", text: "first", request: MessageRequest())
        let afterFirst = panel.events.count
        _ = try manager.post(channel: "new", text: "creates a channel", request: MessageRequest())
        #expect(eventsAtStore == [before, afterFirst], "a change's events went out before its store")
        #expect(panel.events.count > afterFirst && afterFirst > before)
        #expect(panel.differences(from: manager) == [])
    }

    @Test("a message posted again under its id ends as replaced and starts again, among many on the tape")
    func aReplacedMessageStartsAgain() throws {
        let clock = ManagerJournalTests.ManualClock(Self.base)
        let (manager, panel) = makeManager(clock, store: MemoryStore())
        for number in 0..<30 {
            _ = try manager.post(channel: "main", text: "headline \(number)", request: MessageRequest(id: "m\(number)"))
        }
        let before = panel.events.count
        _ = try manager.post(channel: "main", text: "headline 12, corrected", request: MessageRequest(id: "m12"))
        let events = panel.events[before...].compactMap { event -> String? in
            switch event {
            case let .messageStarted(channel, id): "started \(channel) \(id)"
            case let .messageEnded(channel, id, reason): "ended \(channel) \(id) \(reason)"
            default: nil
            }
        }
        #expect(events == ["ended main m12 replaced", "started main m12"])
        #expect(manager.channels["main"]?.activeTexts.contains("headline 12, corrected") == true)
        #expect(panel.differences(from: manager) == [])
    }

    @Test func aChangeWhoseStoreFailsIsNeverAnnounced() throws {
        let clock = ManagerJournalTests.ManualClock(Self.base)
        let store = MemoryStore()
        let (manager, panel) = makeManager(clock, store: store)
        let kept = try manager.post(channel: "main", text: "stored", request: MessageRequest())
        var replacing = MessageRequest()
        replacing.id = kept
        store.failing = true
        let eventsBefore = panel.events
        #expect(throws: TickerError.self) {
            try manager.post(channel: "main", text: "replacement, not stored", request: replacing)
        }
        #expect(throws: TickerError.self) {
            try manager.post(channel: "other", text: "a channel, not stored", request: MessageRequest())
        }
        #expect(panel.events == eventsBefore, "a change that was not stored was announced")
        #expect(manager.channels["main"]?.activeTexts == ["stored"])
        #expect(manager.channels["other"] == nil)
        #expect(Array(manager.messages.keys) == [kept])
        #expect(panel.differences(from: manager) == [])
        #expect(store.state.messages.values.map(\.text) == ["stored"])
    }

    @Test(arguments: [UInt64(7), 8, 9])
    func aPanelFollowingTheSignalsAlwaysEndsWithTheManagersState(seed: UInt64) throws {
        let clock = ManagerJournalTests.ManualClock(Self.base)
        let store = MemoryStore()
        let (manager, panel) = makeManager(clock, store: store)
        let operations = ManagerJournalTests()
        var random = SeededRandom(seed: seed)
        var ids: [String] = []
        var refused = 0
        for step in 0..<600 {
            store.failing = random.next() % 4 == 0
            let stored = store.changes.count
            let events = panel.events.count
            operations.randomOperation(manager, clock, ids: &ids, random: &random)
            if store.failing && store.changes.count == stored && panel.events.count == events { refused += 1 }
            let differences = panel.differences(from: manager)
            #expect(differences == [], "seed \(seed), step \(step): \(differences)")
            if !differences.isEmpty { return }
        }
        #expect(refused > 50, "only \(refused) changes were refused")
        // What was stored is what the manager holds.
        store.failing = false
        clock.now += 1
        _ = try manager.post(channel: "main", text: "after the failures", request: MessageRequest())
        #expect(store.state.snapshot(journalSequence: 0).messages == manager.snapshot().messages)
    }
}
