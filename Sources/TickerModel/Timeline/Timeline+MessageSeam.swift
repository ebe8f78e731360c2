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
    /// (docs/rendering.md §6). First the message the stream continues with: the old message
    /// itself when it is still in the new tape (updated or not); when it was removed, for
    /// direction left the message that follows, in the new tape, the last message kept from
    /// before it in the old tape, for direction right the one that precedes the first message
    /// kept from after it (both looking round the tape's end; the new tape's first message, or
    /// for direction right its last, when none was kept). Then, when that message was in the old
    /// tape and the messages right before it in the new tape (direction left; right after it for
    /// direction right, the stream reading the tape backwards), round the tape's end, were
    /// posted (keys not in the old tape), the stream continues with them first. The result is
    /// that message's start (left) or end (right). So a removed message is skipped, a post next
    /// to the continuing message comes at the switch, a post elsewhere comes when the stream
    /// reaches its place, and no message is ever skipped for a post.
    func continuation(from index: Int, into newTape: Tape) -> Int {
        guard newTape.width > 0, let oldKeys = tape.messageKeys, let newKeys = newTape.messageKeys,
              index < oldKeys.count, !newKeys.isEmpty else { return 0 }
        // A change keeps most messages and the continuing one is usually among them: its place
        // and the few keys next to it are looked up by scanning, and the tables of every key are
        // built only when a scan would be repeated many times.
        let count = newKeys.count
        let step = direction == .left ? -1 : 1
        var target: Int
        if let kept = newKeys.firstIndex(of: oldKeys[index]) {
            target = kept
        } else {
            var newIndex: [String: Int] = [:]
            newIndex.reserveCapacity(count)
            for (position, key) in newKeys.enumerated() where newIndex[key] == nil { newIndex[key] = position }
            if direction == .left {
                let before = (Array(oldKeys[..<index].reversed()) + oldKeys[(index + 1)...].reversed()).lazy.compactMap { newIndex[$0] }.first
                target = before.map { ($0 + 1) % count } ?? 0
            } else {
                let after = (oldKeys[(index + 1)...] + oldKeys[..<index]).lazy.compactMap { newIndex[$0] }.first
                target = after.map { ($0 - 1).floorMod(count) } ?? count - 1
            }
        }
        var oldSet: Set<String>?
        var lookups = 0
        func isOld(_ key: String) -> Bool {
            lookups += 1
            if oldSet == nil, lookups > 8 { oldSet = Set(oldKeys) }
            return oldSet?.contains(key) ?? oldKeys.contains(key)
        }
        if isOld(newKeys[target]) {
            // Posts first, when they lie next to the continuing message in the stream's order.
            let continuing = target
            var neighbour = (target + step).floorMod(count)
            while neighbour != continuing, !isOld(newKeys[neighbour]) {
                target = neighbour
                neighbour = (target + step).floorMod(count)
            }
        }
        return direction == .left ? newTape.messageStarts[target] : newTape.messageEnds[target].floorMod(newTape.width)
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
