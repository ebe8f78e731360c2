import TestSupport
import Testing
@testable import TickerModel

/// The slot index finds, adds, removes and moves exactly as a `[String: Int32]` would.
@Suite struct SlotIndexTests {
    /// An array of keys with free slots (nil), as the schedule keeps them.
    struct Table {
        var elements: [String?] = []
        var free: [Int] = []
        var index = SlotIndex()
        var reference: [String: Int32] = [:]

        static func key(_ element: String?) -> String? { element }

        mutating func add(_ key: String) {
            let slot: Int
            if let reused = free.popLast() { slot = reused } else { slot = elements.count; elements.append(nil) }
            index.insert(key, slot: Int32(slot), in: elements, key: Self.key)
            elements[slot] = key
            reference[key] = Int32(slot)
        }

        mutating func remove(_ key: String) -> Int32? {
            let removed = index.remove(key, in: elements, key: Self.key)
            if let removed {
                elements[Int(removed)] = nil
                free.append(Int(removed))
            }
            #expect(removed == reference.removeValue(forKey: key))
            return removed
        }

        /// Moves `key` to a fresh slot at the end, as a compacting array would.
        mutating func relocate(_ key: String) {
            guard let old = reference[key] else { return }
            let new = Int32(elements.count)
            elements.append(key)
            elements[Int(old)] = nil
            free.append(Int(old))
            index.move(key, from: old, to: new)
            reference[key] = new
        }
    }

    @Test("random adds, removes and moves answer every lookup as a dictionary does")
    func matchesADictionary() {
        var rng = SeededRandom(seed: 0x5107)
        // Few distinct keys, so removal often shifts colliding runs back.
        let keys = (0..<300).map { "id-\($0)" } + ["", "ü", "🚀", String(repeating: "k", count: 40)]
        for round in 0..<4 {
            var table = Table()
            if round == 1 { table.index.reserveCapacity(200, in: table.elements, key: Table.key) }
            for _ in 0..<4000 {
                let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<5:
                    if table.reference[key] == nil { table.add(key) }
                case 5..<8:
                    _ = table.remove(key)
                default:
                    table.relocate(key)
                }
                #expect(table.index.count == table.reference.count)
            }
            for key in keys {
                #expect(table.index.slot(of: key, in: table.elements, key: Table.key) == table.reference[key], "\(key)")
            }
        }
    }

    @Test("a table emptied entry by entry finds nothing and takes keys again")
    func emptiedAndRefilled() {
        var table = Table()
        for number in 0..<1000 { table.add("m\(number)") }
        for number in stride(from: 0, to: 1000, by: 1) { #expect(table.remove("m\(number)") != nil) }
        #expect(table.index.count == 0)
        #expect(table.index.slot(of: "m5", in: table.elements, key: Table.key) == nil)
        table.add("again")
        #expect(table.index.slot(of: "again", in: table.elements, key: Table.key) == table.reference["again"])
    }
}
