import Foundation
import TestSupport
import Testing
import TickerModel
@testable import tickerd

/// The manager stores only what changed: each change becomes one journal record holding the
/// channels and messages it touched. Checked against the whole state: after every operation the
/// files read back exactly as the manager's snapshot, and a record's size does not grow with
/// the number of messages stored.
@Suite struct ManagerJournalTests {
    static let base: Instant = 1_800_000_000_000_000

    /// A clock the test moves by hand.
    final class ManualClock: @unchecked Sendable {
        var now: Instant
        init(_ now: Instant) { self.now = now }
    }

    /// A manager storing into `directory`, as the daemon sets it up: a compaction first.
    func makeManager(_ clock: ManualClock, directory: String, journalLimit: Int = 1 << 20) throws -> (Manager, StateStore) {
        let manager = Manager(zones: ZoneTable(), clock: { clock.now })
        let store = StateStore(directory: directory, journalLimit: journalLimit)
        try store.prepare()
        _ = try store.load(now: clock.now)
        let snapshot = manager.snapshot()
        try store.compact(snapshot)
        manager.markStored(snapshot)
        manager.store = store
        return (manager, store)
    }

    func readBack(_ directory: String) throws -> StateSnapshot {
        guard case .loaded(var snapshot, let notes) = try StateStore(directory: directory).load(now: Self.base) else {
            throw TestSupportError("no state loaded")
        }
        #expect(notes.isEmpty, "\(notes)")
        snapshot.journalSequence = nil
        return snapshot
    }

    func journalRecords(_ store: StateStore) throws -> [StateChange] {
        let bytes = try AtomicFile.read(store.journalPath) ?? []
        return try JournalFile.records(in: bytes).payloads.map { try JSONDecoder().decode(StateChange.self, from: Data($0)) }
    }

    /// One random operation of a user or of time; errors a user could get (no such message) are
    /// part of the mix.
    func randomOperation(_ manager: Manager, _ clock: ManualClock, ids: inout [String], random: inout SeededRandom) {
        let channels = ["main", "side", "third"]
        let channel = channels[Int(random.next() % 3)]
        switch random.next() % 9 {
        case 0, 1:
            var request = MessageRequest()
            if random.next() % 3 == 0 { request.ttl = Int64(random.next() % 20 + 1) * 1_000_000 }
            if random.next() % 4 == 0 { request.start = clock.now + Int64(random.next() % 30) * 1_000_000 }
            if random.next() % 4 == 0 { request.priority = Int32(random.next() % 5) - 2 }
            if random.next() % 5 == 0 { request.effect = .dots }
            if random.next() % 4 == 0, let old = ids.randomElement(using: &random) { request.id = old }
            let text = "message \(random.next() % 1000)" + (request.effect == .dots ? "..." : "")
            if let id = try? manager.post(channel: channel, text: text, request: request) { ids.append(id) }
        case 2:
            guard let id = ids.randomElement(using: &random) else { return }
            var changes = MessageRequest()
            changes.text = "updated \(random.next() % 1000)"
            changes.priority = Int32(random.next() % 3)
            try? manager.update(id: id, changes: changes)
        case 3:
            guard let id = ids.randomElement(using: &random) else { return }
            try? manager.remove(id: id)
        case 4:
            var request = ChannelConfigureRequest()
            request.speed = Double(random.next() % 40 + 1)
            if random.next() % 2 == 0 { request.columns = UInt32(random.next() % 100 + 1) }
            try? manager.configure(channel: channel, request: request)
        case 5:
            try? manager.setValue(
                channel: channel, name: "n", value: Double(random.next() % 500),
                options: CounterOptions(duration: Int64(random.next() % 3) * 1_000_000))
        case 6:
            if random.next() % 2 == 0 { try? manager.pause(channel: channel) } else { try? manager.resume(channel: channel) }
        default:
            clock.now += Int64(random.next() % 7_000_000)
            manager.tick()
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyStoredChangeReadsBackAsTheManagersState(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(Self.base)
        // A small journal limit so compactions happen between appended records too.
        let (manager, _) = try makeManager(clock, directory: directory.path, journalLimit: 16 << 10)
        var random = SeededRandom(seed: seed)
        var ids: [String] = []
        for step in 0..<150 {
            randomOperation(manager, clock, ids: &ids, random: &random)
            let same = try readBack(directory.path) == manager.snapshot()
            #expect(same, "seed \(seed), step \(step): the stored state differs from the manager's")
            if !same { return }
        }
    }

    /// What a user can observe of the manager at `t`: its state, each channel's frame, and when
    /// its schedule next changes (queried on a copy, so the manager itself is not advanced).
    func observable(_ manager: Manager, at t: Instant) -> (StateSnapshot, [String], Instant?) {
        var messages = manager.messages
        let frames = manager.channels.keys.sorted().map { name in
            (try? manager.render(channel: name, columns: 23, at: t).text) ?? "?"
        }
        return (manager.snapshot(), frames, messages.nextBoundary(after: t))
    }

    @Test(arguments: [UInt64(4), 5, 6])
    func aRefusedChangeLeavesEverythingAsItWas(seed: UInt64) throws {
        let clock = ManualClock(Self.base)
        let manager = Manager(zones: ZoneTable(), clock: { clock.now })
        let store = MemoryStore()
        manager.store = store
        var random = SeededRandom(seed: seed)
        var ids: [String] = []
        var refused = 0
        for step in 0..<200 {
            let failing = random.next() % 3 == 0
            store.failing = failing
            let isTick = random.next() % 9 == 8
            let before = observable(manager, at: clock.now)
            let changesBefore = store.changes.count
            if isTick {
                clock.now += Int64(random.next() % 7_000_000)
                manager.tick()
                continue
            }
            let time = clock.now
            randomOperation(manager, clock, ids: &ids, random: &random)
            // A wake-up whose store failed keeps its change (time cannot be rolled back).
            guard failing, store.changes.count == changesBefore, clock.now == time else { continue }
            // Nothing was stored: whatever the operation did is undone (or it changed nothing).
            let after = observable(manager, at: clock.now)
            let same = before.0 == after.0 && before.1 == after.1 && before.2 == after.2
            #expect(same, "seed \(seed), step \(step): a refused change left something behind: state \(before.0 == after.0), frames \(before.1) → \(after.1)")
            if !same { return }
            refused += 1
        }
        #expect(refused > 20, "only \(refused) refused changes were checked")
        // What was stored is what the manager holds once storing works again.
        store.failing = false
        clock.now += 1
        _ = try manager.post(channel: "main", text: "after the failures", request: MessageRequest())
        #expect(store.state.snapshot(journalSequence: 0).messages == manager.snapshot().messages)
    }

    @Test func aPostIsRecordedAloneHoweverManyMessagesAreStored() throws {
        var sizes: [Int] = []
        for stored in [10, 400] {
            let directory = try TemporaryDirectory()
            let clock = ManualClock(Self.base)
            let (manager, store) = try makeManager(clock, directory: directory.path)
            var later = MessageRequest()
            later.start = Self.base + 3_600_000_000
            for index in 0..<stored {
                _ = try manager.post(channel: "later", text: "scheduled for later \(index)", request: later)
            }
            let before = try journalRecords(store).count
            let size = JournalFile.recordsEnd(atPath: store.journalPath)
            var request = MessageRequest()
            request.id = "the-new-one"
            _ = try manager.post(channel: "main", text: "shown now", request: request)
            let records = try journalRecords(store)
            #expect(records.count == before + 1, "one Post, one record")
            let last = try #require(records.last)
            #expect(last.messages.map(\.id) == ["the-new-one"])
            #expect(last.channels.isEmpty, "main was stored before: it is recorded as an edit")
            #expect(last.channelEdits?.map(\.channel.name) == ["main"])
            #expect(last.removedMessages.isEmpty && last.removedChannels.isEmpty)
            sizes.append(JournalFile.recordsEnd(atPath: store.journalPath) - size)
        }
        // Equal but for the digits of the record's sequence and the next serial (11 vs 401).
        #expect(abs(sizes[0] - sizes[1]) <= 4, "the record of one Post grew with the messages stored: \(sizes)")
    }

    /// Posted while the stream shows the tape's start (the post goes to its end), and a minute
    /// later (into the middle of the tape, before the message the stream continues with: every
    /// message after it moves).
    @Test(arguments: [0, 60_000_000] as [Int64])
    func aPostRecordsItsMessageNotTheTapeOfItsChannel(after scrolling: Int64) throws {
        var sizes: [Int] = []
        for shown in [10, 300] {
            let directory = try TemporaryDirectory()
            let clock = ManualClock(Self.base)
            let (manager, store) = try makeManager(clock, directory: directory.path)
            for index in 0..<shown {
                var request = MessageRequest()
                request.id = String(format: "shown-%04d", index)
                _ = try manager.post(channel: "main", text: "a message shown on main, number \(10_000 + index)", request: request)
                clock.now += 1000
            }
            clock.now += scrolling
            manager.tick()
            let size = JournalFile.recordsEnd(atPath: store.journalPath)
            var request = MessageRequest()
            request.id = "the-new-one"
            _ = try manager.post(channel: "main", text: "one more message shown on main", request: request)
            sizes.append(JournalFile.recordsEnd(atPath: store.journalPath) - size)
            let ids = try #require(manager.channels["main"]?.activeIDs)
            let place = try #require(ids.firstIndex(of: "the-new-one"))
            #expect(scrolling == 0 ? place == ids.count - 1 : place > 0 && place < ids.count - 1, "placed at \(place) of \(ids.count)")
            // What the journal holds is the state: a restart reads back every message and the tape.
            let reopened = StateStore(directory: directory.path)
            guard case let .loaded(snapshot, notes) = try reopened.load(now: clock.now) else {
                Issue.record("the stored state did not load")
                return
            }
            #expect(notes.isEmpty)
            // Every record is the JSON the synthesized conformances write, edits included.
            let records = try journalRecords(store)
            #expect(records.contains { !($0.channelEdits ?? []).isEmpty })
            for record in records {
                let written = try JSONSerialization.jsonObject(with: Data(try record.jsonBytes())) as? NSDictionary
                let reference = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? NSDictionary
                #expect(written != nil && written == reference, "record \(record.sequence)")
            }
            #expect(snapshot.channels == manager.snapshot().channels)
            #expect(snapshot.messages == manager.snapshot().messages)
        }
        // Equal but for the digits of the numbers in the record (sequence, serial, offsets).
        #expect(abs(sizes[0] - sizes[1]) <= 24, "the record of one Post grew with the messages shown: \(sizes)")
    }

    @Test func aWakeUpThatChangesNothingWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock(Self.base)
        let (manager, store) = try makeManager(clock, directory: directory.path)
        _ = try manager.post(channel: "main", text: "a long message that keeps scrolling by", request: MessageRequest())
        let size = JournalFile.recordsEnd(atPath: store.journalPath)
        #expect(size > 0)
        for _ in 0..<20 {
            clock.now += 250_000
            manager.tick()
        }
        var same = ChannelConfigureRequest()
        same.columns = ChannelState.defaultColumns
        try manager.configure(channel: "main", request: same)
        #expect(JournalFile.recordsEnd(atPath: store.journalPath) == size)
        // A message whose window ends is a change, and is stored.
        var short = MessageRequest()
        short.ttl = 1_000_000
        _ = try manager.post(channel: "main", text: "brief", request: short)
        let afterPost = JournalFile.recordsEnd(atPath: store.journalPath)
        clock.now += 2_000_000
        manager.tick()
        #expect(JournalFile.recordsEnd(atPath: store.journalPath) > afterPost)
        let readBackEqual = try readBack(directory.path) == manager.snapshot()
        #expect(readBackEqual, "the stored state differs from the manager's")
    }
}
