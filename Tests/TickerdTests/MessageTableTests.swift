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
            priority: Int32.random(in: -3...3, using: &random), urgent: Bool.random(using: &random),
            window: windows[Int.random(in: 0..<windows.count, using: &random)],
            postedAt: base + Int64.random(in: -10_000_000...10_000_000, using: &random),
            effect: effects[Int.random(in: 0..<3, using: &random)],
            reveal: Bool.random(using: &random) ? Int64.random(in: 1...5_000_000, using: &random) : nil,
            origin: Bool.random(using: &random) ? .posted : .config)
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
}
