import TickerModel

/// The pure part of `follow`: which line to show at an instant and when to look again.
struct FollowPlanner: Sendable {
    /// The channel followed.
    let channel: String
    /// `--columns`, or nil to use the channel's configured columns.
    let columnsOverride: Int?
    /// The least time between two timer-driven lines, in µs (from `--fps`).
    let minimumInterval: Int64
    /// Columns used before any channel was read.
    static let fallbackColumns = 80

    /// The columns for `source`, given the columns used last.
    func columns(for source: FollowSource, last: Int?) -> Int {
        if let columnsOverride { return columnsOverride }
        if case .channel(let snapshot) = source, snapshot.columns > 0 { return snapshot.columns }
        return last ?? Self.fallbackColumns
    }

    /// The line to show at `now`.
    func line(for source: FollowSource, columns: Int, at now: Instant) -> PanelLine {
        let blank = String(repeating: " ", count: max(0, columns))
        switch source {
        case .offline:
            return PanelLine(text: blank, offset: 0, fullText: "", channel: channel, state: .offline, at: now)
        case .missingChannel:
            return PanelLine(text: blank, offset: 0, fullText: "", channel: channel, state: .empty, at: now)
        case .channel(let snapshot):
            let frame = snapshot.frame(columns: columns, at: now)
            return PanelLine(
                text: CellFit.fit(frame.text, columns: columns), offset: frame.offset, fullText: snapshot.text,
                channel: channel, state: state(of: snapshot, columns: columns, at: now), at: now)
        }
    }

    /// What the channel looks like at `now`.
    func state(of snapshot: ChannelSnapshot, columns: Int, at now: Instant) -> PanelState {
        if snapshot.isEmpty { return .empty }
        if snapshot.timeline.isPaused { return .paused }
        if snapshot.timeline.mode == .static || snapshot.nextChange(after: now, columns: columns) == nil {
            return .static
        }
        return .scrolling
    }

    /// When to compute the line again after `now` (nil: only when the channel changes): the
    /// timeline's next visible change, but not sooner than `minimumInterval` after the last line.
    func nextWake(for source: FollowSource, columns: Int, after now: Instant, lastLineAt: Instant?) -> Instant? {
        guard case .channel(let snapshot) = source,
              let change = snapshot.nextChange(after: now, columns: columns) else { return nil }
        var wake = max(change, now + 1)
        if let lastLineAt { wake = max(wake, lastLineAt + minimumInterval) }
        return wake
    }
}
