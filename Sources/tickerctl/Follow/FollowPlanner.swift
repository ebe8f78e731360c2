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

    /// One look at the channel: the line to show and when the visible frame next changes (nil:
    /// not until the channel changes).
    struct Step {
        /// The line to show.
        var line: PanelLine
        /// The timeline's next visible change after the line's instant.
        var nextChange: Instant?
    }

    /// The columns for `source`, given the columns used last.
    func columns(for source: FollowSource, last: Int?) -> Int {
        if let columnsOverride { return columnsOverride }
        if case .channel(let snapshot) = source, snapshot.columns > 0 { return snapshot.columns }
        return last ?? Self.fallbackColumns
    }

    /// The line to show at `now` and the next visible change, each computed once.
    ///
    /// An `offline` or `empty` line has an empty text (a panel hides or collapses the module);
    /// any other line's text is the frame, exactly `columns` cells. The full text is what the
    /// frame shows content of now (``ChannelSnapshot/textInView(columns:at:)``).
    func step(for source: FollowSource, columns: Int, at now: Instant) -> Step {
        switch source {
        case .offline:
            return Step(line: blankLine(.offline, at: now), nextChange: nil)
        case .missingChannel:
            return Step(line: blankLine(.empty, at: now), nextChange: nil)
        case .channel(let snapshot):
            let change = snapshot.nextChange(after: now, columns: columns)
            if snapshot.showsNothing(columns: columns, at: now) {
                return Step(line: blankLine(.empty, at: now), nextChange: change)
            }
            let frame = snapshot.frame(columns: columns, at: now)
            let state: PanelState
            if snapshot.timeline.isPaused {
                state = .paused
            } else if snapshot.timeline.mode == .static || change == nil {
                state = .static
            } else {
                state = .scrolling
            }
            let line = PanelLine(
                text: frame.text, offset: frame.offset, fullText: snapshot.textInView(columns: columns, at: now),
                channel: channel, state: state, at: now)
            return Step(line: line, nextChange: change)
        }
    }

    /// The line to show at `now`.
    func line(for source: FollowSource, columns: Int, at now: Instant) -> PanelLine {
        step(for: source, columns: columns, at: now).line
    }

    /// When to compute the line again after `now` (nil: only when the channel changes): the
    /// timeline's next visible change `nextChange`, but not sooner than `minimumInterval` after
    /// the last line.
    func wake(after now: Instant, nextChange: Instant?, lastLineAt: Instant?) -> Instant? {
        guard let nextChange else { return nil }
        var wake = max(nextChange, now + 1)
        if let lastLineAt { wake = max(wake, lastLineAt + minimumInterval) }
        return wake
    }

    /// ``wake(after:nextChange:lastLineAt:)`` for `source` looked at anew.
    func nextWake(for source: FollowSource, columns: Int, after now: Instant, lastLineAt: Instant?) -> Instant? {
        wake(after: now, nextChange: step(for: source, columns: columns, at: now).nextChange, lastLineAt: lastLineAt)
    }

    private func blankLine(_ state: PanelState, at now: Instant) -> PanelLine {
        PanelLine(text: "", offset: 0, fullText: "", channel: channel, state: state, at: now)
    }
}
