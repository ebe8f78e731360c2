import Testing
import TestSupport
import TickerModel
@testable import tickerd

/// When a change's events go out relative to its store: before the write when the record only
/// overwrites space the store holds (so subscribers need not wait for the disk), after it
/// otherwise; and when a write that was announced fails, the events are taken back so that a
/// subscriber following them ends with the manager's state.
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

    static func isTakenBack(_ event: ManagerEvent) -> Bool {
        if case .messageEnded(_, _, .notStored) = event { true } else { false }
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

    @Test func aChangeWrittenInPlaceIsAnnouncedBeforeItsWriteAndOneThatGrowsTheFileAfter() throws {
        let clock = ManagerJournalTests.ManualClock(Self.base)
        let store = MemoryStore()
        let (manager, panel) = makeManager(clock, store: store)
        var startedAtCommit: [Int] = []
        store.onCommit = {
            startedAtCommit.append(panel.events.filter { if case .messageStarted = $0 { true } else { false } }.count)
        }
        _ = try manager.post(channel: "main", text: "in place", request: MessageRequest())
        #expect(startedAtCommit == [1], "MessageStarted went out before the record was written")
        store.writesInPlace = false
        _ = try manager.post(channel: "main", text: "grows the journal", request: MessageRequest())
        #expect(startedAtCommit == [1, 1], "a record that may fail for want of space is written before its signals")
        #expect(panel.events.filter { if case .messageStarted = $0 { true } else { false } }.count == 2)
        store.writesInPlace = true
        _ = try manager.post(channel: "new", text: "creates a channel", request: MessageRequest())
        #expect(startedAtCommit == [1, 1, 2], "a new channel (an object on the bus) is announced only once stored")
        #expect(panel.differences(from: manager) == [])
    }

    @Test func anAnnouncedChangeWhoseWriteFailsIsTakenBack() throws {
        let clock = ManagerJournalTests.ManualClock(Self.base)
        let store = MemoryStore()
        let (manager, panel) = makeManager(clock, store: store)
        let kept = try manager.post(channel: "main", text: "stored", request: MessageRequest())
        var replacing = MessageRequest()
        replacing.id = kept
        store.failingInPlace = true
        let eventsBefore = panel.events.count
        #expect(throws: TickerError.self) {
            try manager.post(channel: "main", text: "replacement, not stored", request: replacing)
        }
        #expect(manager.channels["main"]?.activeTexts == ["stored"])
        #expect(Array(manager.messages.keys) == [kept])
        // Announced (the old one replaced, the new one started), then taken back in reverse.
        let reasons = panel.events[eventsBefore...].compactMap { event -> MessageEndReason? in
            if case let .messageEnded(_, _, reason) = event { reason } else { nil }
        }
        #expect(reasons == [.replaced, .notStored])
        // The channel's properties were announced changed, then announced again (back as they were).
        let changes = panel.events[eventsBefore...].filter { if case .channelChanged("main", _) = $0 { true } else { false } }
        #expect(changes.count >= 2 && changes.count % 2 == 0)
        #expect(panel.differences(from: manager) == [])
        store.failingInPlace = false
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
        var takenBack = 0
        for step in 0..<600 {
            let failure = random.next() % 4
            store.failing = failure == 0
            store.failingInPlace = failure == 1
            store.writesInPlace = random.next() % 3 != 0
            let before = panel.events.count
            operations.randomOperation(manager, clock, ids: &ids, random: &random)
            takenBack += panel.events[before...].filter { Self.isTakenBack($0) }.count
            let differences = panel.differences(from: manager)
            #expect(differences == [], "seed \(seed), step \(step): \(differences)")
            if !differences.isEmpty { return }
        }
        #expect(takenBack > 5, "only \(takenBack) announced messages were taken back")
        // What was stored is what the manager holds.
        store.failing = false
        store.failingInPlace = false
        clock.now += 1
        _ = try manager.post(channel: "main", text: "after the failures", request: MessageRequest())
        #expect(store.state.snapshot(journalSequence: 0).messages == manager.snapshot().messages)
    }
}
