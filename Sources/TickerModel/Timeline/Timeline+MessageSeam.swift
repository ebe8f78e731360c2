extension Timeline {
    /// Where a content change in continuous mode switches to `newTape`: a message boundary of the
    /// old stream (`switchPosition`) and the new tape's cell there (`nextStart`), docs/rendering.md §6.
    struct MessageSeam: Equatable {
        /// Stream position of the switch.
        var switchPosition: Int
        /// The new tape's cell at the switch.
        var nextStart: Int
    }

    /// True when a change from the current tape to `newTape` switches at a message boundary:
    /// continuous mode, the old tape built from messages, and the new one too or empty.
    func switchesByMessage(to newTape: Tape) -> Bool {
        mode == .continuous && tape.layout != nil && (newTape.layout != nil || newTape.width == 0)
    }

    /// The boundaries of the old tape a change may switch at, as cells of its cycle in ascending
    /// order with the message each belongs to: the message starts (direction left) or ends
    /// (direction right, an end at the cycle's width being cell 0 of the next cycle); `[0]`, the
    /// start of the cycle (message 0), when the change does not switch by message.
    func boundaries(byMessage: Bool) -> [(cell: Int, message: Int)] {
        guard byMessage else { return [(0, 0)] }
        if direction == .left { return tape.messageStarts.enumerated().map { ($1, $0) } }
        let width = max(1, tape.width)
        return tape.messageEnds.enumerated().map { ($1.floorMod(width), $0) }
            .sorted { $0.cell != $1.cell ? $0.cell < $1.cell : $0.message < $1.message }
    }

    /// The switch for a change to `newTape` when the stream is at cell `cell` and no viewer of at
    /// most `reach` columns may see it yet: for direction left the first message start of the old
    /// stream at or beyond `cell + reach`, for direction right the last message end at or below
    /// `cell`. In scroll mode, or when the old tape was built from plain strings, the only
    /// boundaries are the starts of the old tape's cycles, and the new tape starts at its cell 0.
    func messageSeam(to newTape: Tape, cell: Int, reach: Int) -> MessageSeam {
        let byMessage = switchesByMessage(to: newTape)
        let seam = seamPosition(in: boundaries(byMessage: byMessage).map(\.cell), cell: cell, reach: reach)
        guard byMessage, let message = messageIndex(atSeam: seam, byMessage: true) else {
            return MessageSeam(switchPosition: seam, nextStart: 0)
        }
        return MessageSeam(switchPosition: seam, nextStart: continuation(from: message, into: newTape))
    }

    /// The stream position of the boundary a change switches at, for boundaries at `cells` (sorted
    /// cells of the old tape's cycle) repeating every cycle: for direction left the first at or
    /// beyond `cell + reach`, for direction right the last at or below `cell`.
    func seamPosition(in cells: [Int], cell: Int, reach: Int) -> Int {
        let width = tape.width
        let target = direction == .left ? cell + reach : cell
        let cycle = target.floorDiv(width)
        let within = target - cycle * width
        var base = cycle * width
        var index: Int
        if direction == .left {
            index = Timeline.firstIndex(in: cells, atLeast: within)
            if index == cells.count {
                index = 0
                base += width
            }
        } else {
            index = Timeline.firstIndex(in: cells, atLeast: within + 1) - 1
            if index < 0 {
                index = cells.count - 1
                base -= width
            }
        }
        return base + cells[index]
    }

    /// The new tape's cell where the stream continues when the switch lies at old message
    /// `index`'s boundary — its start for direction left, its end for direction right
    /// (docs/rendering.md §6). When the new tape holds messages whose keys were not in the old
    /// tape (posted), the stream continues with them: for direction left at the start of the
    /// first of them in tape order, for direction right at the end of the last (the first the
    /// stream shows that way); the messages the cycle passes over come around in the next cycle.
    /// Otherwise, when the message is still in the new tape (updated or not), its start (left) or
    /// end (right) there. When it was removed: for direction left, the start of the message that
    /// follows the last message kept from before it (the new tape's first message when none was
    /// kept); for direction right, the end of the message that precedes the first message kept
    /// from after it (the new tape's last message when none was kept). So a removed message is
    /// skipped, a posted one comes first, and the messages keep their order.
    func continuation(from index: Int, into newTape: Tape) -> Int {
        guard newTape.width > 0, let oldKeys = tape.messageKeys, let newKeys = newTape.messageKeys,
              index < oldKeys.count, !newKeys.isEmpty else { return 0 }
        var newIndex: [String: Int] = [:]
        for (position, key) in newKeys.enumerated() where newIndex[key] == nil { newIndex[key] = position }
        let oldSet = Set(oldKeys)
        if direction == .left {
            let starts = newTape.messageStarts
            if let posted = newKeys.firstIndex(where: { !oldSet.contains($0) }) { return starts[posted] }
            if let kept = newIndex[oldKeys[index]] { return starts[kept] }
            let before = oldKeys[..<index].reversed().lazy.compactMap { newIndex[$0] }.first
            guard let before, before + 1 < starts.count else { return 0 }
            return starts[before + 1]
        }
        let ends = newTape.messageEnds
        if let posted = newKeys.lastIndex(where: { !oldSet.contains($0) }) { return ends[posted].floorMod(newTape.width) }
        if let kept = newIndex[oldKeys[index]] { return ends[kept].floorMod(newTape.width) }
        let after = oldKeys[(index + 1)...].lazy.compactMap { newIndex[$0] }.first
        let preceding = (after ?? 0) - 1
        return ends[preceding >= 0 ? preceding : ends.count - 1].floorMod(newTape.width)
    }

    /// The first index of sorted `values` whose value is at least `bound` (`values.count` if none).
    static func firstIndex(in values: [Int], atLeast bound: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < bound { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The old message whose boundary (``boundaries(byMessage:)``) lies at stream position `seam`
    /// (the first in tape order when several share it), or nil when none does.
    func messageIndex(atSeam seam: Int, byMessage: Bool = true) -> Int? {
        let all = boundaries(byMessage: byMessage)
        let within = seam.floorMod(max(1, tape.width))
        let index = Timeline.firstIndex(in: all.map(\.cell), atLeast: within)
        return index < all.count && all[index].cell == within ? all[index].message : nil
    }
}
