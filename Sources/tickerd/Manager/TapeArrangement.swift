import TickerModel

/// Where the messages of a channel that is not phase-locked go on its tape (docs/rendering.md §6,
/// "Where a post goes"): those already on the tape keep their order within their priority, and a
/// message joining it goes where the stream shows it at the next message boundary, when it can,
/// without passing over any other message.
struct TapeArrangement {
    /// The message ids of the tape the channel shows (or will show once a pending change has
    /// switched), in tape order: messages in it are already on the tape; any other joins it.
    var showing: [String]
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
        var place: [String: Int] = [:]
        for (index, id) in showing.enumerated() where place[id] == nil { place[id] = index }
        var kept: [(item: Item, priority: Int, place: Int)] = []
        var joining: [Item] = []
        kept.reserveCapacity(items.count)
        for item in items {
            let entry = entry(item)
            if let index = place[entry.id] { kept.append((item, entry.priority, index)) } else { joining.append(item) }
        }
        kept.sort { $0.priority != $1.priority ? $0.priority > $1.priority : $0.place < $1.place }
        let result = kept.map(\.item)
        joining.sort { ActiveScheduleEntry.tapeOrder(entry($0), entry($1)) }
        guard !joining.isEmpty else { return result }
        let anchor = joining.contains { entry($0).isUrgent } ? nil : anchor(staying: Set(result.map { entry($0).id }))
        let anchorPriority = anchor.flatMap { id in result.first { entry($0).id == id }.map { entry($0).priority } }
        let nextToAnchor = joining.filter { anchorPriority != nil && entry($0).priority == anchorPriority }
        // The others after the messages of their priority: a merge of two lists sorted by priority.
        var rest = joining.filter { anchorPriority == nil || entry($0).priority != anchorPriority }[...]
        var merged: [Item] = []
        merged.reserveCapacity(items.count)
        for item in result {
            while let next = rest.first, entry(next).priority > entry(item).priority {
                merged.append(next)
                rest = rest.dropFirst()
            }
            merged.append(item)
        }
        merged.append(contentsOf: rest)
        if let anchor, !nextToAnchor.isEmpty, let at = merged.firstIndex(where: { entry($0).id == anchor }) {
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

    /// The first message of ``showing``, from the continuing one on in the stream's order, that
    /// is in `staying`; nil when there is no continuing message or none stays.
    private func anchor(staying: Set<String>) -> String? {
        guard !staying.isEmpty, let continuing = continuing(), let start = showing.firstIndex(of: continuing) else { return nil }
        let count = showing.count
        let step = direction == .left ? 1 : count - 1
        return (0..<count).lazy.map { showing[(start + step * $0) % count] }.first(where: staying.contains)
    }
}
