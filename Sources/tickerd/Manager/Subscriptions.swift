import TickerModel

/// Who receives frames of which channel: one entry per (subscriber connection, channel).
struct SubscriptionKey: Hashable, Sendable {
    /// The subscriber's unique bus name.
    let subscriber: String
    /// The channel it follows.
    let channel: String
}

/// A frame stream to one destination: its width, its pace, the last frame it got and when the
/// next one may be due. Used for subscribers and for a channel's broadcast.
struct FrameStream: Sendable {
    /// Columns of its frames.
    var columns: Int
    /// Microseconds between frames (1/fps).
    var interval: Int64
    /// The last frame sent, so identical frames are not sent again.
    var lastFrame: Frame?
    /// When a frame may next be due; nil when nothing will change.
    var nextDue: Instant?
    /// When the last frame was sent, so a restart never sends faster than `interval`.
    var lastSentAt: Instant?

    /// A stream of `columns`-wide frames at `fps`, due at once.
    init(columns: Int, fps: Double, now: Instant) {
        self.columns = columns
        self.interval = max(1, Int64((1_000_000 / fps).rounded()))
        self.lastFrame = nil
        self.nextDue = now
        self.lastSentAt = nil
    }

    /// The motion changed at `t`: due at once, unless a frame went out less than one interval
    /// ago — then one interval after it, so frequent changes (a Post every 10 ms) never push
    /// frames faster than the rate the receiver asked for.
    mutating func restart(at t: Instant) {
        let earliest = max(t, (lastSentAt ?? t) + interval)
        nextDue = min(nextDue ?? earliest, earliest)
    }

    /// Forgets the frame that was just dropped instead of sent, and makes the stream due again
    /// one interval after `now` (or sooner if it already was).
    mutating func retryAfterDrop(at now: Instant) {
        lastFrame = nil
        nextDue = min(nextDue ?? now + interval, now + interval)
    }

    /// Advances the stream at `now` on `channel`'s timeline and effects: the frame to send (nil when it equals the last
    /// one) and the next due instant — one interval on while the frame is moving, else the
    /// timeline's next visible change (never sooner than one interval), else never.
    mutating func step(_ channel: ChannelState, at now: Instant) -> Frame? {
        let frame = channel.frame(columns: columns, at: now)
        let send = frame == lastFrame ? nil : frame
        lastFrame = frame
        if send != nil { lastSentAt = now }
        // One interval after the instant this step was due, not after the (later) wake-up, so
        // timer latency does not slow the rate; a stream that fell a whole interval behind
        // skips ahead rather than bursting.
        var soon = (nextDue ?? now) + interval
        if soon <= now { soon = now + interval }
        if channel.frame(columns: columns, at: soon) != frame {
            nextDue = soon
        } else if let change = channel.timeline.nextChange(after: now, columns: columns, effects: channel.effects) {
            nextDue = max(change, soon)
        } else {
            nextDue = nil
        }
        return send
    }
}
