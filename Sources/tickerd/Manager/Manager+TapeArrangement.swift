import TickerModel

/// Where a message joining a channel's tape goes (docs/rendering.md §6, "Where a post goes").
extension Manager {
    /// The arrangement of `channel`'s tape read at `t`: what it shows is its timeline's tape (the
    /// pending one, if a change is pending), and a joining message goes next to the message the
    /// stream continues with after a change at `t` (for the widest declared viewer) — unless
    /// every declared viewer shows the current content still (it fits them all): they see the
    /// change at once wherever the message goes, so it goes after the others of its priority,
    /// in the order they read.
    func tapeArrangement(for channel: ChannelState, at t: Instant) -> TapeArrangement {
        let timeline = channel.timeline
        let tape = timeline.pending?.tape ?? timeline.tape
        let name = channel.name
        let showing = tape.layout?.messages.map(\.key) ?? []
        return TapeArrangement(
            showing: showing, showingSlots: Self.slots(of: showing, from: channel.activeIDs, channel.activeSlots),
            direction: timeline.direction,
            continuing: {
                if let narrowest = self.narrowestViewer(channel: name), narrowest >= tape.contentWidth { return nil }
                return timeline.continuingMessage(at: t, seamColumns: self.seamColumns(channel: name))
            })
    }

    /// The slot of each of the ids `showing` as `ids` (with their `slots`) have it, -1 where not
    /// known: `showing` is the tape of `ids` but while a change is held, and then they differ
    /// only between the ids both start and end with. Nil when `slots` are not known.
    static func slots(of showing: [String], from ids: [String], _ slots: [Int]) -> [Int]? {
        guard slots.count == ids.count, !slots.isEmpty else { return nil }
        let (keep, keepEnd) = CommonEnds.of(showing, ids)
        if keep == showing.count, keep == ids.count { return slots }
        return Array(slots[..<keep]) + repeatElement(-1, count: showing.count - keep - keepEnd) + slots[(slots.count - keepEnd)...]
    }

    /// The columns of the narrowest viewer `channel` has declared (frame subscribers, the
    /// broadcast, `Subscribe` fps 0 viewers); nil when none is declared.
    func narrowestViewer(channel: String) -> Int? {
        declaredViewerColumns(channel: channel).min()
    }
}
