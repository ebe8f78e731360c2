import Foundation
import TestSupport
import Testing
import TickerModel
@testable import tickerd

/// The state store: the snapshot plus the journal of changes since it, read back after a clean
/// stop, after a crash in the middle of a record, and after a crash in the middle of a compaction.
@Suite struct StateStoreTests {
    static let base: Instant = 1_800_000_000_000_000

    /// Snapshots of a manager after each of `texts` is posted (then the first one removed).
    func snapshots(_ texts: [String]) throws -> [StateSnapshot] {
        var now = Self.base
        let manager = Manager(zones: ZoneTable(), clock: { now })
        var result: [StateSnapshot] = [manager.snapshot()]
        var ids: [String] = []
        for text in texts {
            now += 1_000_000
            ids.append(try manager.post(channel: "main", text: text, request: MessageRequest()))
            result.append(manager.snapshot())
        }
        var configure = ChannelConfigureRequest()
        configure.speed = 21
        try manager.configure(channel: "side", request: configure)
        result.append(manager.snapshot())
        if let first = ids.first {
            try manager.remove(id: first)
            result.append(manager.snapshot())
        }
        return result
    }

    /// A store in a fresh folder (saving through a `SnapshotSaver`) and the snapshots of a manager
    /// after each of `texts` is posted (see `snapshots(_:)`).
    func freshStore(_ texts: [String], journalLimit: Int = 1 << 20) throws
        -> (directory: TemporaryDirectory, saver: SnapshotSaver, states: [StateSnapshot]) {
        let directory = try TemporaryDirectory()
        let saver = SnapshotSaver(StateStore(directory: directory.path, journalLimit: journalLimit))
        return (directory, saver, try snapshots(texts))
    }

    /// `snapshot` as `load()` gives it back (the journal sequence aside).
    func comparable(_ snapshot: StateSnapshot) -> StateSnapshot {
        var copy = snapshot
        copy.journalSequence = nil
        return copy
    }

    func loaded(_ directory: String) throws -> (StateSnapshot, [String]) {
        guard case let .loaded(snapshot, notes) = try StateStore(directory: directory).load(now: Self.base) else {
            throw TestSupportError("no state loaded")
        }
        return (comparable(snapshot), notes)
    }

    func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    @Test func everyStoredChangeIsReadBackFromSnapshotAndJournal() throws {
        let (directory, saver, states) = try freshStore(["one", "two", "three"])
        let store = saver.store
        for (index, state) in states.enumerated() {
            try saver.save(state)
            // Every stored change reads back at once, as a crash right after it would find it.
            let (read, notes) = try loaded(directory.path)
            #expect(read == comparable(state), "after change \(index)")
            #expect(notes.isEmpty)
        }
        // Only the first store wrote a snapshot; the others went to the journal.
        #expect(try fileSize(store.journalPath) > 0)
    }

    @Test func journalRecordsReadBackExactly() throws {
        var now = Self.base
        let manager = Manager(zones: ZoneTable(), clock: { now })
        var request = MessageRequest()
        request.priority = -3
        request.ttl = 5_000_000
        _ = try manager.post(channel: "main", text: "quote \" backslash \\ tab\tand ünïcödé 🚀 …", request: request)
        request = MessageRequest()
        request.start = Self.base + 1
        request.end = Self.base + 9_000_000
        request.effect = .reveal
        _ = try manager.post(channel: "main", text: "later", request: request)
        now += 123_456
        try manager.setValue(channel: "main", name: "n", value: 12.5, options: CounterOptions(duration: 2_000_000, from: 1.25, prefix: "€ \"x\""))
        let snapshot = manager.snapshot()
        let change = StoredState(StateSnapshot(nextSerial: 0, channels: [], messages: []))
            .change(to: snapshot, sequence: 7)
        let bytes = try change.jsonBytes()
        #expect(try JSONDecoder().decode(StateChange.self, from: Data(bytes)) == change)
        // The same JSON as the synthesized conformances write (Foundation's encoder), member by member.
        let written = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
        let reference = try JSONSerialization.jsonObject(with: JSONEncoder().encode(change)) as? NSDictionary
        #expect(written != nil && written == reference)
    }

    @Test func everyKindOfRecordIsWrittenAsTheSynthesizedConformanceWritesIt() throws {
        var now = Self.base
        let manager = Manager(zones: ZoneTable(), clock: { now })
        var previous = StoredState(StateSnapshot(nextSerial: 0, channels: [], messages: []))
        var random = SeededRandom(seed: 11)
        var checked = 0
        for step in 0..<120 {
            var request = MessageRequest()
            switch random.next() % 6 {
            case 0: request.ttl = Int64(random.next() % 9 + 1) * 1_000_000
            case 1: request.start = now + Int64(random.next() % 5) * 1_000_000
            case 2: request.end = now + Int64(random.next() % 50 + 1) * 1_000_000
            case 3: (request.calendar, request.duration) = ("*-*-* 21:00:00", 3_600_000_000)
            default: break
            }
            request.priority = Int32(random.next() % 7) - 3
            request.urgent = random.next() % 4 == 0
            if random.next() % 3 == 0 { (request.effect, request.reveal) = (.reveal, 1_500_000) }
            let channel = ["main", "side"][Int(random.next() % 2)]
            let text = random.next() % 4 == 0 ? "dots \"\\ \u{1}…..." : "message \(step) ünï 🚀"
            if random.next() % 5 == 0 { request.effect = .dots }
            _ = try? manager.post(channel: channel, text: request.effect == .dots ? "wait..." : text, request: request)
            if random.next() % 4 == 0 {
                var configure = ChannelConfigureRequest()
                configure.gap = random.next() % 2 == 0 ? "  " : nil
                configure.cycle = random.next() % 2 == 0 ? 7_000_000 : nil
                configure.delay = 250_000
                // Phase-locked now and then (written only when wall-clock), without drawing numbers.
                configure.phase = [Phase.wallClock, nil, .local, nil][step % 4]
                try? manager.configure(channel: channel, request: configure)
            }
            if random.next() % 4 == 0 {
                try? manager.setValue(
                    channel: channel, name: "n\(step % 3)", value: Double(random.next() % 1000) / 8,
                    options: CounterOptions(duration: 1_000_000, prefix: "€ "))
            }
            now += Int64(random.next() % 3_000_000)
            manager.tick()
            let snapshot = manager.snapshot()
            let change = previous.change(to: snapshot, sequence: UInt64(step))
            previous = StoredState(snapshot)
            let bytes = try change.jsonBytes()
            let written = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
            let reference = try JSONSerialization.jsonObject(with: JSONEncoder().encode(change)) as? NSDictionary
            let same = written != nil && written == reference
            #expect(same, "step \(step): \(String(decoding: bytes, as: UTF8.self))")
            if !same { return }
            #expect(try JSONDecoder().decode(StateChange.self, from: Data(bytes)) == change)
            checked += change.messages.count + change.channels.count
            if step % 10 == 9 {
                // The whole state, as a compaction writes it to state.json.
                var whole = snapshot
                whole.journalSequence = step % 20 == 9 ? UInt64(step) : nil
                let snapshotBytes = try whole.jsonBytes()
                let writtenSnapshot = try JSONSerialization.jsonObject(with: Data(snapshotBytes)) as? NSDictionary
                let referenceSnapshot = try JSONSerialization.jsonObject(with: JSONEncoder().encode(whole)) as? NSDictionary
                #expect(writtenSnapshot != nil && writtenSnapshot == referenceSnapshot, "snapshot at step \(step)")
                #expect(try JSONDecoder().decode(StateSnapshot.self, from: Data(snapshotBytes)) == whole)
            }
        }
        #expect(checked > 100)
    }

    @Test func anUnfinishedLastRecordIsLeftOut() throws {
        let (directory, saver, states) = try freshStore(["one", "two"])
        let store = saver.store
        for state in states.prefix(2) { try saver.save(state) }
        let whole = JournalFile.recordsEnd(atPath: store.journalPath)
        try saver.save(states[2])
        let longer = try #require(try AtomicFile.read(store.journalPath))
        let end = JournalFile.recordsEnd(in: longer)
        #expect(end > whole)
        // A crash in the middle of writing the third change's record (never answered): the file
        // cut there, or the record's tail still zeros as written ahead.
        for cut in [whole + 3, whole + 8, end - 1] {
            try Data(longer[..<cut]).write(to: URL(fileURLWithPath: store.journalPath))
            let (read, notes) = try loaded(directory.path)
            #expect(read == comparable(states[1]), "cut at \(cut)")
            #expect(notes.count == 1)
            var zeroed = longer
            for index in cut..<end { zeroed[index] = 0 }
            try Data(zeroed).write(to: URL(fileURLWithPath: store.journalPath))
            let (readZeroed, notesZeroed) = try loaded(directory.path)
            #expect(readZeroed == comparable(states[1]), "zeros from \(cut)")
            #expect(notesZeroed.count == 1)
        }
    }

    @Test func aDamagedRecordEndsTheReplay() throws {
        let (directory, saver, states) = try freshStore(["one", "two"])
        let store = saver.store
        for state in states.prefix(3) { try saver.save(state) }
        var bytes = try #require(try AtomicFile.read(store.journalPath))
        bytes[JournalFile.recordsEnd(in: bytes) - 2] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: store.journalPath))
        let (read, notes) = try loaded(directory.path)
        #expect(read == comparable(states[1]))
        #expect(!notes.isEmpty)
    }

    @Test func recordsLeftFromACompactionThatStoppedHalfwayAreSkipped() throws {
        let (directory, saver, states) = try freshStore(["one", "two", "three"])
        let store = saver.store
        for state in states.prefix(4) { try saver.save(state) }
        let journal = try #require(try AtomicFile.read(store.journalPath))
        try store.compact(states[4])
        // Emptied.
        #expect(try AtomicFile.read(store.journalPath) == [])
        // The snapshot was written but the journal not yet emptied when the power went.
        try Data(journal).write(to: URL(fileURLWithPath: store.journalPath))
        #expect(try loaded(directory.path).0 == comparable(states[4]))
        // A new run appends after them, and its records are replayed.
        let next = SnapshotSaver(StateStore(directory: directory.path))
        _ = try next.store.load(now: Self.base)
        try next.save(states[4])
        try next.save(states[5])
        #expect(try loaded(directory.path).0 == comparable(states[5]))
    }

    @Test func aFullJournalIsFoldedIntoTheSnapshot() throws {
        let (directory, saver, states) = try freshStore((1...30).map { "message number \($0) with some words to fill the journal" }, journalLimit: 1)
        let store = saver.store
        for state in states {
            try saver.save(state)
            #expect(try loaded(directory.path).0 == comparable(state))
        }
        // The journal outgrew its limit (a few snapshots' worth) and was folded into the snapshot.
        let snapshot = try JSONDecoder().decode(StateSnapshot.self, from: Data(contentsOf: URL(fileURLWithPath: store.path)))
        #expect((snapshot.journalSequence ?? 0) > 0)
        #expect(try JournalFile.recordsEnd(atPath: store.journalPath) < 2 * StateStore.journalFactor * fileSize(store.path))
    }

    /// The bytes a journal holding `payloads` starts with: each one's length, CRC-32 and bytes.
    private static func recordBytes(_ payloads: [[UInt8]]) -> [UInt8] {
        payloads.flatMap { payload -> [UInt8] in
            let length = UInt32(payload.count)
            let checksum = CRC32.checksum(payload)
            return (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
                + (0..<4).map { UInt8(truncatingIfNeeded: checksum >> (8 * $0)) } + payload
        }
    }

    /// Every byte of the file at `path`: the records of `payloads`, and nothing else.
    private static func expectFileHolds(_ payloads: [[UInt8]], at path: String) throws {
        let bytes = try #require(try AtomicFile.read(path))
        #expect(bytes == recordBytes(payloads))
        let (read, unread) = JournalFile.records(in: bytes)
        #expect(read.map(Array.init) == payloads && unread == 0)
    }

    @Test func recordsOfEverySizeAreAppendedExactlyAndReadBack() throws {
        let directory = try TemporaryDirectory()
        let journal = JournalFile(path: directory.file("journal"))
        try journal.open()
        var random = SeededRandom(seed: 9)
        var written: [[UInt8]] = []
        // Records of 1 to 2000 bytes, and now and then one of several pages.
        for _ in 0..<60 {
            let length = random.next() % 10 == 0 ? Int(random.next() % 9000 + 1) : Int(random.next() % 2000 + 1)
            let payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            try journal.append(payload)
            written.append(payload)
            try Self.expectFileHolds(written, at: journal.path)
            #expect(journal.size == Self.recordBytes(written).count)
        }
        try journal.truncate()
        #expect(try AtomicFile.read(journal.path)?.count == 0)
    }

    @Test func zerosAfterTheRecordsAreNoRecordAndOtherBytesAreReported() {
        let records = Self.recordBytes([[1, 2, 3], [4]])
        let zeros = JournalFile.records(in: records + Array(repeating: 0, count: 100))
        #expect(zeros.payloads.map(Array.init) == [[1, 2, 3], [4]] && zeros.unreadBytes == 0)
        let cut = JournalFile.records(in: records + [5, 0, 0, 0, 1])
        #expect(cut.payloads.count == 2 && cut.unreadBytes == 5)
    }

    @Test func aJournalOpenedOnRecordsTakesNewOnesOnlyOnceEmptied() throws {
        // Where a file's records end is the snapshot's business: appending after them unread
        // could overwrite the block they end in.
        let directory = try TemporaryDirectory()
        let first = JournalFile(path: directory.file("journal"))
        try first.open()
        try first.append([1, 2, 3])
        first.close()
        let again = JournalFile(path: directory.file("journal"))
        try again.open()
        #expect(throws: FileSystemError.self) { try again.append([4]) }
        try Self.expectFileHolds([[1, 2, 3]], at: directory.file("journal"))
        try again.truncate()
        try again.append([5, 6])
        try Self.expectFileHolds([[5, 6]], at: directory.file("journal"))
    }

    @Test func aCorruptSnapshotIsMovedAsideWithItsJournal() throws {
        let (directory, saver, states) = try freshStore(["one"])
        let store = saver.store
        for state in states { try saver.save(state) }
        try "{\"version\": 1, \"chann".write(toFile: store.path, atomically: true, encoding: .utf8)
        guard case .corrupt = try StateStore(directory: directory.path).load(now: Self.base) else {
            Issue.record("a corrupt snapshot was read")
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains { $0.hasPrefix("state.json.corrupt-") })
        #expect(files.contains { $0.hasPrefix("state.journal.corrupt-") })
        #expect(!files.contains("state.json") && !files.contains("state.journal"))
    }
}
