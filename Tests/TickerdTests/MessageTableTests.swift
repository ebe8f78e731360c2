import TestSupport
import Testing
import TickerModel
@testable import tickerd

/// The message table puts each record together from its schedule entry and its payload: what goes
/// in comes out, field for field, whatever is added, replaced and removed.
@Suite struct MessageTableTests {
    static let base: Instant = 1_800_000_000_000_000

    static func randomRecord(id: String, _ random: inout SeededRandom) -> MessageRecord {
        let windows: [MessageWindow] = [
            .always, .absolute(start: base + 5_000_000, end: nil), .absolute(start: nil, end: base + 9_000_000),
            .absolute(start: base - 1, end: base + 1), .timeToLive(microseconds: 3_000_000),
            .recurring(calendar: "*-*-* 21:00:00", duration: 3_600_000_000), .recurring(calendar: "Mon..Fri 09:00", duration: 60_000_000),
        ]
        let effects: [EffectKind?] = [nil, .dots, .reveal]
        return MessageRecord(
            id: id, channel: ["main", "side", "x"][Int.random(in: 0..<3, using: &random)],
            text: ["short", "a longer text with ünïcödé 🚀 in it", "dots..."][Int.random(in: 0..<3, using: &random)],
            priority: [Int32.min, -3, 0, 3, Int32.max][Int.random(in: 0..<5, using: &random)], urgent: Bool.random(using: &random),
            window: windows[Int.random(in: 0..<windows.count, using: &random)],
            postedAt: base + Int64.random(in: -10_000_000...10_000_000, using: &random),
            effect: effects[Int.random(in: 0..<3, using: &random)],
            reveal: Bool.random(using: &random) ? Int64.random(in: 1...5_000_000, using: &random) : nil,
            origin: Bool.random(using: &random) ? .posted : .config,
            link: Bool.random(using: &random) ? "https://example.org/\(id)" : nil)
    }

    @Test("random adds, replacements and removals read back exactly, with counts and unstored ids")
    func readsBackWhatWasSet() throws {
        let manager = Manager(zones: ZoneTable(), clock: { Self.base })
        var random = SeededRandom(seed: 0x7AB1E)
        var table = MessageTable()
        var reference: [String: MessageRecord] = [:]
        var unstored: Set<String> = []
        for step in 0..<3000 {
            let id = "m\(Int.random(in: 0..<60, using: &random))"
            if Int.random(in: 0..<4, using: &random) == 0 {
                table.remove(id)
                if reference.removeValue(forKey: id) != nil { unstored.insert(id) }
            } else {
                let record = Self.randomRecord(id: id, &random)
                table.set(record, entry: try manager.scheduleEntry(for: record))
                if reference[id] != record { unstored.insert(id) }
                reference[id] = record
            }
            if step % 500 == 499 {
                table.markStored()
                unstored.removeAll()
            }
            #expect(table[id] == reference[id], "step \(step)")
            #expect(table.count == reference.count)
            #expect(table.unstored == unstored)
        }
        #expect(Dictionary(uniqueKeysWithValues: table.values.map { ($0.id, $0) }) == reference)
        for channel in ["main", "side", "x"] {
            #expect(table.count(inChannel: channel) == reference.values.filter { $0.channel == channel }.count)
        }
        for (id, record) in reference {
            #expect(table.entry(id: id) == (try manager.scheduleEntry(for: record)))
        }
    }

    @Test("each channel's shown messages, kept by slot as time moves and messages change, match a full scan")
    func shownMessagesMatchAFullScan() throws {
        let manager = Manager(zones: ZoneTable(), clock: { Self.base })
        var random = SeededRandom(seed: 0x5107)
        var table = MessageTable()
        var reference: [String: MessageRecord] = [:]
        var t = Self.base - 2_000_000
        var changesSeen = 0
        var previous: [String: (ids: [String], slots: [Int])] = [:]
        for step in 0..<1500 {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let id = "m\(Int.random(in: 0..<40, using: &random))"
                if Int.random(in: 0..<4, using: &random) == 0 {
                    table.remove(id)
                    reference[id] = nil
                } else {
                    let record = Self.randomRecord(id: id, &random)
                    table.set(record, entry: try manager.scheduleEntry(for: record))
                    reference[id] = record
                }
            }
            t += Int64.random(in: 0...400_000, using: &random)
            let changed = table.takeChangedChannels(at: t)
            changesSeen += changed.count
            for channel in ["main", "side", "x"] {
                let shown = try reference.values.filter { $0.channel == channel }.compactMap { record -> ActiveScheduleEntry? in
                    let entry = try manager.scheduleEntry(for: record)
                    guard let since = entry.state(at: t).activeSince else { return nil }
                    return ActiveScheduleEntry(id: entry.id, priority: entry.priority, isUrgent: entry.isUrgent, windowStart: since)
                }.sorted(by: ActiveScheduleEntry.tapeOrder)
                let got = table.activeMessages(inChannel: channel)
                #expect(got.ids == shown.map(\.id), "step \(step), channel \(channel)")
                #expect(got.texts == shown.compactMap { reference[$0.id]?.text }, "step \(step), channel \(channel)")
                // Kept by the slots the last step found them in, as by their ids.
                if let (ids, slots) = previous[channel] {
                    let continuing = ids.randomElement(using: &random)
                    let direction: Direction = Bool.random(using: &random) ? .left : .right
                    let bySlot = table.activeMessages(inChannel: channel, arrangement: TapeArrangement(
                        showing: ids, showingSlots: slots, direction: direction, continuing: { continuing }))
                    let byID = table.activeMessages(inChannel: channel, arrangement: TapeArrangement(
                        showing: ids, direction: direction, continuing: { continuing }))
                    #expect(bySlot.ids == byID.ids && bySlot.texts == byID.texts && bySlot.slots == byID.slots,
                            "step \(step), channel \(channel)")
                }
                previous[channel] = (got.ids, got.slots)
            }
        }
        #expect(changesSeen > 500)
    }
}
