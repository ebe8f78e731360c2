import TickerModel

/// Where the messages of a channel that is not phase-locked go on its tape (docs/rendering.md §6,
/// "Where a post goes"): those already on the tape keep their order within their priority, and a
/// message joining it goes where the stream shows it at the next message boundary, when it can,
/// without passing over any other message.
struct TapeArrangement {
    /// The message ids of the tape the channel shows (or will show once a pending change has
    /// switched), in tape order: messages in it are already on the tape; any other joins it.
    var showing: [String]
    /// The message table's slot of each message in ``showing`` (same order; -1 for one whose
    /// slot is not known), when known: kept messages are then found by slot, not by hashing every
    /// id. A slot names the same message only while its id matches, which is checked.
    var showingSlots: [Int]?
    /// The channel's direction: left puts a joining message before the continuing one, right
    /// after it (the stream reads the tape backwards).
    var direction: Direction
    /// The message the stream continues with at the boundary a change made now would switch at
    /// (``TickerModel/Timeline/continuingMessage(at:seamColumns:)``), or nil when a change now
    /// would not switch at a message boundary; asked only when a message joins the tape.
    var continuing: () -> String?

    /// An arrangement for a channel that shows nothing yet: tape order
    /// (``TickerModel/ActiveScheduleEntry/tapeOrder(_:_:)``).
    static var fresh: TapeArrangement { TapeArrangement(showing: [], direction: .left, continuing: { nil }) }

    /// An arrangement of the tape `showing`, read in `direction`, continuing with `continuing()`
    /// at the change's boundary; `showingSlots` are the slots of `showing`, when known.
    init(showing: [String], showingSlots: [Int]? = nil, direction: Direction, continuing: @escaping () -> String?) {
        self.showing = showing
        self.showingSlots = showingSlots.flatMap { $0.count == showing.count ? $0 : nil }
        self.direction = direction
        self.continuing = continuing
    }

    /// `active` (the entries on the tape) in tape order: priority high to low; within a priority,
    /// the messages already on the tape in the order they have there. The joining ones, taken in
    /// ``TickerModel/ActiveScheduleEntry/tapeOrder(_:_:)``, go right before the anchor in the
    /// stream when they have its priority — direction left: before it in the tape, or at the
    /// tape's end when the anchor is the first message and the last has its priority; direction
    /// right: after it — and after the other messages of their priority otherwise. The
    /// anchor is the first message, from the continuing one on in the stream's order of
    /// ``showing`` (left: tape order; right: backwards), that stays on the tape; there is none
    /// when no change would switch at a message boundary or when a joining message is urgent
    /// (the change restarts the stream at home).
    func ordered(_ active: [ActiveScheduleEntry]) -> [ActiveScheduleEntry] {
        ordered(active, entry: { $0 })
    }

    /// `items` in the order ``ordered(_:)`` gives their entries (`entry` of each).
    func ordered<Item>(_ items: [Item], entry: (Item) -> ActiveScheduleEntry) -> [Item] {
        ordered(items, keptAt: [Int](repeating: -1, count: showing.count), others: Array(items.indices), entry: entry)
    }

    /// The items of `slots` (`item` of each; a slot that gives none is not on the tape) in the
    /// order ``ordered(_:)`` gives their entries (`entry` of each); every slot is below `bound`.
    ///
    /// With ``showingSlots``, a message is found at its place by its slot: each slot is marked
    /// in an array of `bound` flags, not hashed, and each kept id is compared, not hashed; only
    /// the messages not found so (those joining) are looked for by id. Without them, it is
    /// ``ordered(_:entry:)`` of the items.
    func ordered<Item>(slots: some Collection<Int>, below bound: Int, item: (Int) -> Item?,
                       entry: (Item) -> ActiveScheduleEntry) -> [Item] {
        guard let showingSlots else { return ordered(slots.compactMap(item), entry: entry) }
        // The slots whose message has not been placed yet.
        var unplaced = [Bool](repeating: false, count: bound)
        for slot in slots { unplaced[slot] = true }
        var items: [Item] = []
        items.reserveCapacity(slots.count)
        var keptAt = [Int](repeating: -1, count: showing.count)
        for (place, slot) in showingSlots.enumerated() where unplaced.indices.contains(slot) && unplaced[slot] {
            // A slot names the message shown there only while it holds the same id.
            guard let kept = item(slot), entry(kept).id == showing[place] else { continue }
            keptAt[place] = items.count
            items.append(kept)
            unplaced[slot] = false
        }
        var others: [Int] = []
        for slot in slots where unplaced[slot] {
            guard let other = item(slot) else { continue }
            others.append(items.count)
            items.append(other)
        }
        return ordered(items, keptAt: keptAt, others: others, entry: entry)
    }

    /// `items` in the order ``ordered(_:)`` gives their entries (`entry` of each), given the
    /// index in `items` of the one already found at each place of ``showing`` (`keptAt`, -1 where
    /// none is) and the indices of the others, which stay at the place of their id when it has
    /// none, and join the tape otherwise.
    ///
    /// Linear in the tape's length, but for joining messages: the kept ones are laid out by their
    /// place on the tape (each id of `others` is hashed once, when there are more than a few),
    /// and sorted by priority only when a priority changed among them.
    private func ordered<Item>(_ items: [Item], keptAt: [Int], others: [Int], entry: (Item) -> ActiveScheduleEntry) -> [Item] {
        var keptAt = keptAt
        var joining: [Int] = []
        let byID = others.count > 8 ? Self.places(of: showing) : nil
        for index in others {
            let id = entry(items[index]).id
            if let at = byID.map({ $0[id] }) ?? showing.firstIndex(of: id), keptAt[at] < 0 {
                keptAt[at] = index
            } else {
                joining.append(index)
            }
        }
        let priority = items.map { entry($0).priority }
        // Indices in `items` from here on.
        var result = keptAt.filter { $0 >= 0 }
        if zip(result, result.dropFirst()).contains(where: { priority[$0] < priority[$1] }) {
            // Stable: within a priority the tape's order stays.
            result = result.enumerated()
                .sorted { a, b in
                    let (pa, pb) = (priority[a.element], priority[b.element])
                    return pa != pb ? pa > pb : a.offset < b.offset
                }
                .map(\.element)
        }
        guard !joining.isEmpty else { return result.map { items[$0] } }
        joining.sort { ActiveScheduleEntry.tapeOrder(entry(items[$0]), entry(items[$1])) }
        let anchor = result.isEmpty || joining.contains { entry(items[$0]).isUrgent } ? nil : anchor(staying: { keptAt[$0] >= 0 })
        let anchorItem = anchor.map { keptAt[$0] }
        let anchorPriority = anchorItem.map { priority[$0] }
        let nextToAnchor = joining.filter { anchorPriority != nil && priority[$0] == anchorPriority }
        // The others after the messages of their priority: a merge of two lists sorted by priority.
        var rest = joining.filter { anchorPriority == nil || priority[$0] != anchorPriority }[...]
        var merged: [Int] = []
        merged.reserveCapacity(items.count)
        var anchorIndex: Int?
        for index in result {
            while let next = rest.first, priority[next] > priority[index] {
                merged.append(next)
                rest = rest.dropFirst()
            }
            if index == anchorItem { anchorIndex = merged.count }
            merged.append(index)
        }
        merged.append(contentsOf: rest)
        if let at = anchorIndex, !nextToAnchor.isEmpty {
            // Before the tape's first message is after its last in the stream: at the end, when
            // the priorities allow, the messages already there keep their places.
            let insertion: Int
            if direction == .right {
                insertion = at + 1
            } else if at == 0, merged.last.map({ priority[$0] }) == anchorPriority {
                insertion = merged.count
            } else {
                insertion = at
            }
            merged.insert(contentsOf: nextToAnchor, at: insertion)
        }
        return merged.map { items[$0] }
    }

    /// The first place of each id in `showing`.
    private static func places(of showing: [String]) -> [String: Int] {
        var place: [String: Int] = [:]
        place.reserveCapacity(showing.count)
        for (index, id) in showing.enumerated() where place[id] == nil { place[id] = index }
        return place
    }

    /// The place in ``showing`` of the first message, from the continuing one on in the stream's
    /// order, that `stays` (by place); nil when there is no continuing message or none stays.
    private func anchor(staying stays: (Int) -> Bool) -> Int? {
        guard !showing.isEmpty, let continuing = continuing(), let start = showing.firstIndex(of: continuing) else { return nil }
        let count = showing.count
        let step = direction == .left ? 1 : count - 1
        return (0..<count).lazy.map { (start + step * $0) % count }.first(where: stays)
    }
}
