import TickerModel

/// Where the messages of a channel that is not phase-locked go on its tape (docs/rendering.md §6,
/// "Where a post goes"): those already on the tape keep their order within their priority, and a
/// message joining it goes where the stream shows it at the next message boundary, when it can,
/// without passing over any other message.
struct TapeArrangement {
    /// The message ids of the tape the channel shows (or will show once a pending change has
    /// switched), in tape order: messages in it are already on the tape; any other joins it.
    var showing: [String]
    /// The message table's slot of each message in ``showing`` (same order), when known: kept
    /// messages are then found by slot, not by hashing every id. A slot names the same message
    /// only while its id matches, which is checked.
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
        ordered(items, entry: entry, slot: nil)
    }

    /// `items` in the order ``ordered(_:)`` gives their entries (`entry` of each), `slot` giving
    /// each item's slot in the message table to find it in ``showingSlots``.
    ///
    /// Linear in the tape's length, but for joining messages: the kept ones are laid out by their
    /// place on the tape (each id is hashed once, or each slot when the slots are known), and
    /// sorted by priority only when a priority changed among them.
    func ordered<Item>(_ items: [Item], entry: (Item) -> ActiveScheduleEntry, slot: ((Item) -> Int)?) -> [Item] {
        // The index in `items` of the kept message at each place of ``showing``.
        var keptAt = [Int](repeating: -1, count: showing.count)
        var joining: [Item] = []
        if let showingSlots, let slot {
            var place: [Int: Int] = [:]
            place.reserveCapacity(showing.count)
            for (index, slot) in showingSlots.enumerated() where place[slot] == nil { place[slot] = index }
            var missed: [(index: Int, item: Item)] = []
            for (index, item) in items.enumerated() {
                if let at = place[slot(item)], showing[at] == entry(item).id { keptAt[at] = index } else { missed.append((index, item)) }
            }
            // A message not found by its slot may still be on the tape under another slot (its
            // slot was given to another message): looked for by id.
            let byID = missed.count > 8 ? Self.places(of: showing) : nil
            for (index, item) in missed {
                let id = entry(item).id
                if let at = byID.map({ $0[id] }) ?? showing.firstIndex(of: id), keptAt[at] < 0 {
                    keptAt[at] = index
                } else {
                    joining.append(item)
                }
            }
        } else {
            let place = Self.places(of: showing)
            for (index, item) in items.enumerated() {
                if let at = place[entry(item).id] { keptAt[at] = index } else { joining.append(item) }
            }
        }
        var result: [Item] = []
        result.reserveCapacity(items.count)
        var byPriority = true
        for index in keptAt where index >= 0 {
            if let last = result.last, entry(last).priority < entry(items[index]).priority { byPriority = false }
            result.append(items[index])
        }
        if !byPriority {
            // Stable: within a priority the tape's order stays.
            result = result.enumerated()
                .sorted { a, b in
                    let (pa, pb) = (entry(a.element).priority, entry(b.element).priority)
                    return pa != pb ? pa > pb : a.offset < b.offset
                }
                .map(\.element)
        }
        guard !joining.isEmpty else { return result }
        joining.sort { ActiveScheduleEntry.tapeOrder(entry($0), entry($1)) }
        let anchor = result.isEmpty || joining.contains { entry($0).isUrgent } ? nil : anchor(staying: { keptAt[$0] >= 0 })
        let anchorPriority = anchor.map { entry(items[keptAt[$0]]).priority }
        let nextToAnchor = joining.filter { anchorPriority != nil && entry($0).priority == anchorPriority }
        // The others after the messages of their priority: a merge of two lists sorted by priority.
        var rest = joining.filter { anchorPriority == nil || entry($0).priority != anchorPriority }[...]
        var merged: [Item] = []
        merged.reserveCapacity(items.count)
        var anchorIndex: Int?
        let anchorID = anchor.map { showing[$0] }
        for item in result {
            while let next = rest.first, entry(next).priority > entry(item).priority {
                merged.append(next)
                rest = rest.dropFirst()
            }
            if anchorIndex == nil, let anchorID, entry(item).id == anchorID { anchorIndex = merged.count }
            merged.append(item)
        }
        merged.append(contentsOf: rest)
        if let at = anchorIndex, !nextToAnchor.isEmpty {
            // Before the tape's first message is after its last in the stream: at the end, when
            // the priorities allow, the messages already there keep their places.
            let index: Int
            if direction == .right {
                index = at + 1
            } else if at == 0, merged.last.map({ entry($0).priority }) == anchorPriority {
                index = merged.count
            } else {
                index = at
            }
            merged.insert(contentsOf: nextToAnchor, at: index)
        }
        return merged
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
