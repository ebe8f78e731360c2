import TestSupport
import Testing
import TickerModel
@testable import tickerd

/// Where the daemon puts the messages of a channel's tape (docs/rendering.md §6, "Where a post
/// goes"): those already on it keep their order within their priority, and a joining one goes
/// right before the message the stream continues with when it has its priority.
@Suite struct TapeArrangementTests {
    static func entry(_ id: String, priority: Int32 = 0, start: Instant = 0, urgent: Bool = false) -> ActiveScheduleEntry {
        ActiveScheduleEntry(id: id, priority: priority, isUrgent: urgent, windowStart: start)
    }

    static func order(_ active: [ActiveScheduleEntry], showing: [String], continuing: String?,
                      direction: Direction = .left) -> [String] {
        TapeArrangement(showing: showing, direction: direction, continuing: { continuing }).ordered(active).map(\.id)
    }

    @Test("on an empty tape: priority, window start, id")
    func fresh() {
        let active = [Self.entry("z", start: 5), Self.entry("a", start: 5), Self.entry("low", priority: -1),
                      Self.entry("early", start: 1), Self.entry("high", priority: 3, start: 9)]
        #expect(TapeArrangement.fresh.ordered(active.reversed()).map(\.id) == ["high", "early", "a", "z", "low"])
    }

    @Test("kept messages keep their order; a priority change moves one to its priority")
    func kept() {
        let active = [Self.entry("a", start: 9), Self.entry("b", start: 1), Self.entry("c", start: 5)]
        #expect(Self.order(active, showing: ["a", "b", "c"], continuing: "b") == ["a", "b", "c"])
        let raised = [Self.entry("a", start: 9), Self.entry("b", start: 1), Self.entry("c", priority: 2, start: 5)]
        #expect(Self.order(raised, showing: ["a", "b", "c"], continuing: "b") == ["c", "a", "b"])
    }

    @Test("a post of the continuing message's priority goes right before it; several together in tape order")
    func beforeContinuing() {
        let showing = ["a", "b", "c", "d"]
        let old = showing.map { Self.entry($0, start: 1) }
        #expect(Self.order(old + [Self.entry("new", start: 9)], showing: showing, continuing: "c") == ["a", "b", "new", "c", "d"])
        let two = old + [Self.entry("y", start: 9), Self.entry("x", start: 9)]
        #expect(Self.order(two, showing: showing, continuing: "b") == ["a", "x", "y", "b", "c", "d"])
        // Before the first message is the tape's end, where the others keep their places.
        #expect(Self.order(old + [Self.entry("new", start: 9)], showing: showing, continuing: "a") == ["a", "b", "c", "d", "new"])
        // Unless the last has another priority: then right before the first.
        let low = old + [Self.entry("z", priority: -1)]
        #expect(Self.order(low + [Self.entry("new", start: 9)], showing: showing + ["z"], continuing: "a")
            == ["new", "a", "b", "c", "d", "z"])
        // Direction right reads the tape backwards: right after it.
        #expect(Self.order(old + [Self.entry("new", start: 9)], showing: showing, continuing: "b", direction: .right)
            == ["a", "b", "new", "c", "d"])
        #expect(Self.order(two, showing: showing, continuing: "d", direction: .right) == ["a", "b", "c", "d", "x", "y"])
    }

    @Test("another priority, an urgent post, or no continuing message: after the others of its priority")
    func byPriority() {
        let showing = ["h", "a", "b", "l"]
        let old = [Self.entry("h", priority: 2), Self.entry("a"), Self.entry("b"), Self.entry("l", priority: -2)]
        #expect(Self.order(old + [Self.entry("n", priority: 2)], showing: showing, continuing: "b") == ["h", "n", "a", "b", "l"])
        #expect(Self.order(old + [Self.entry("n", priority: -1)], showing: showing, continuing: "b") == ["h", "a", "b", "n", "l"])
        #expect(Self.order(old + [Self.entry("n", urgent: true)], showing: showing, continuing: "a") == ["h", "a", "b", "n", "l"])
        #expect(Self.order(old + [Self.entry("n")], showing: showing, continuing: nil) == ["h", "a", "b", "n", "l"])
    }

    @Test("when the continuing message leaves the tape too, the next one that stays in the stream's order")
    func continuingRemoved() {
        let showing = ["a", "b", "c"]
        let staying = [Self.entry("a"), Self.entry("c"), Self.entry("new", start: 9)]
        #expect(Self.order(staying, showing: showing, continuing: "b") == ["a", "new", "c"])
        #expect(Self.order(staying, showing: showing, continuing: "b", direction: .right) == ["a", "new", "c"])
        #expect(Self.order([Self.entry("new")], showing: showing, continuing: "b") == ["new"])
    }

    @Test("property: the same order as placing each message one by one")
    func againstReference() {
        var rng = SeededRandom(seed: 0x7A9E)
        for trial in 0..<500 {
            let count = Int.random(in: 0...9, using: &rng)
            let showing = (0..<count).map { "s\($0)" }
            var active = showing.filter { _ in Int.random(in: 0..<4, using: &rng) > 0 }.map { id in
                Self.entry(id, priority: Int32(Int.random(in: -1...1, using: &rng)), start: Int64.random(in: 0...3, using: &rng))
            }
            for k in 0..<Int.random(in: 0...4, using: &rng) {
                active.append(Self.entry("n\(k)", priority: Int32(Int.random(in: -1...1, using: &rng)), start: Int64.random(in: 0...3, using: &rng),
                                         urgent: Int.random(in: 0..<10, using: &rng) == 0))
            }
            let continuing = showing.isEmpty || Int.random(in: 0..<5, using: &rng) == 0 ? nil : showing.randomElement(using: &rng)
            let direction: Direction = Bool.random(using: &rng) ? .left : .right
            let got = Self.order(active.shuffled(using: &rng), showing: showing, continuing: continuing, direction: direction)
            #expect(got == Self.reference(active, showing: showing, continuing: continuing, direction: direction), "trial \(trial)")
        }
    }

    @Test("property: found by slot, the same order as by id, when slots are reused, moved, unknown or wrong")
    func bySlotAsByID() {
        var rng = SeededRandom(seed: 0x510F)
        for trial in 0..<500 {
            let count = Int.random(in: 0...20, using: &rng)
            let showing = (0..<count).map { "s\($0)" }
            // The slots as the last evaluation found them: distinct, in no order.
            let showingSlots = Array((0..<(count + 10)).shuffled(using: &rng).prefix(count))
            var slotOf = Dictionary(uniqueKeysWithValues: zip(showing, showingSlots))
            var free = Array(Set(0..<(count + 30)).subtracting(showingSlots)).shuffled(using: &rng)
            // Some leave (their slot may go to a newcomer), some move to another slot (replaced).
            var items: [(entry: ActiveScheduleEntry, slot: Int)] = []
            var released: [Int] = []
            for id in showing {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: released.append(slotOf[id]!)
                case 1:
                    slotOf[id] = free.removeLast()
                    fallthrough
                default:
                    items.append((Self.entry(id, priority: Int32(Int.random(in: -1...1, using: &rng)),
                                             start: Int64.random(in: 0...3, using: &rng)), slotOf[id]!))
                }
            }
            for k in 0..<Int.random(in: 0...12, using: &rng) {
                let slot = !released.isEmpty && Bool.random(using: &rng) ? released.removeLast() : free.removeLast()
                items.append((Self.entry("n\(k)", priority: Int32(Int.random(in: -1...1, using: &rng)),
                                         start: Int64.random(in: 0...3, using: &rng),
                                         urgent: Int.random(in: 0..<10, using: &rng) == 0), slot))
            }
            items.shuffle(using: &rng)
            // Slots of the channel whose message is not on the tape (its window closed) give no item.
            let inactive = Array(released.prefix(1)) + Array(free.prefix(Int.random(in: 0...2, using: &rng)))
            let slots = (items.map(\.slot) + inactive).shuffled(using: &rng)
            let continuing = showing.isEmpty || Int.random(in: 0..<5, using: &rng) == 0 ? nil : showing.randomElement(using: &rng)
            let direction: Direction = Bool.random(using: &rng) ? .left : .right
            let bySlot = Dictionary(uniqueKeysWithValues: items.map { ($0.slot, $0) })
            // Slots given for the tape need not be right: one not known (-1), or another's, is
            // found by id.
            let given = showingSlots.map { slot in
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: -1
                case 1: Int.random(in: 0..<(count + 30), using: &rng)
                default: slot
                }
            }
            let placed = TapeArrangement(showing: showing, showingSlots: given, direction: direction, continuing: { continuing })
                .ordered(slots: slots, below: count + 30, item: { slot in bySlot[slot] }, entry: \.entry).map(\.entry.id)
            let byID = TapeArrangement(showing: showing, direction: direction, continuing: { continuing })
                .ordered(items.map(\.entry)).map(\.id)
            #expect(placed == byID, "trial \(trial)")
            #expect(byID == Self.reference(items.map(\.entry), showing: showing, continuing: continuing, direction: direction),
                    "trial \(trial)")
        }
    }

    /// One message at a time: the kept ones by priority then place, each joining one (in tape
    /// order) after the others of its priority, then those of the anchor's priority next to it.
    static func reference(_ active: [ActiveScheduleEntry], showing: [String], continuing: String?, direction: Direction) -> [String] {
        let staying = Set(active.map(\.id)).intersection(showing)
        var result: [ActiveScheduleEntry] = []
        for priority in Set(active.map(\.priority)).sorted(by: >) {
            result += showing.compactMap { id in active.first { $0.id == id && $0.priority == priority } }
        }
        let joining = active.filter { !showing.contains($0.id) }.sorted(by: ActiveScheduleEntry.tapeOrder)
        var anchor: String?
        if let continuing, let start = showing.firstIndex(of: continuing), !joining.contains(where: \.isUrgent) {
            let step = direction == .left ? 1 : showing.count - 1
            anchor = (0..<showing.count).map { showing[(start + step * $0) % showing.count] }.first { staying.contains($0) }
        }
        let priority = anchor.flatMap { id in result.first { $0.id == id }?.priority }
        var block: [ActiveScheduleEntry] = []
        for entry in joining {
            if entry.priority == priority {
                block.append(entry)
            } else {
                result.insert(entry, at: result.lastIndex { $0.priority >= entry.priority }.map { $0 + 1 } ?? 0)
            }
        }
        if let anchor, let at = result.firstIndex(where: { $0.id == anchor }), !block.isEmpty {
            let index = direction == .right ? at + 1 : at == 0 && result.last?.priority == priority ? result.count : at
            result.insert(contentsOf: block, at: index)
        }
        return result.map(\.id)
    }
}
