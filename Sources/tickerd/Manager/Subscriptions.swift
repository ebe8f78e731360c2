import TickerModel

/// Who receives frames of which channel: one entry per (subscriber connection, channel).
struct SubscriptionKey: Hashable, Sendable {
    /// The subscriber's unique bus name.
    let subscriber: String
    /// The channel it follows.
    let channel: String
}

/// The width a subscriber's frames (or a viewer's declared width) take.
enum SubscriberWidth: Hashable, Sendable {
    /// The channel's `Columns`, as they are at each frame: `Subscribe` gave no `columns`, so a
    /// `Configure columns` changes the width of its frames too.
    case channel
    /// The `columns` `Subscribe` gave, kept whatever the channel's `Columns` become.
    case fixed(Int)

    /// The width in columns on `channel`.
    func columns(on channel: ChannelState) -> Int {
        switch self {
        case .channel: return Int(channel.columns)
        case .fixed(let columns): return columns
        }
    }
}

/// A frame stream to one destination: its width, its pace, the last frame it got and when the
/// next one may be due. Used for subscribers and for a channel's broadcast.
struct FrameStream: Sendable {
    /// The width of its frames.
    let width: SubscriberWidth
    /// Microseconds between frames (1/fps).
    var interval: Int64
    /// The last frame sent, so identical frames are not sent again.
    var lastFrame: Frame?
    /// When a frame may next be due; nil when nothing will change.
    var nextDue: Instant?
    /// When the last frame was sent, so a restart never sends faster than `interval`.
    var lastSentAt: Instant?

    /// A stream of `width` frames at `fps`, due at once.
    init(width: SubscriberWidth, fps: Double, now: Instant) {
        self.width = width
        self.interval = Self.interval(fps: fps)
        self.lastFrame = nil
        self.nextDue = now
        self.lastSentAt = nil
    }

    /// Microseconds between frames at `fps`: 1/fps, at least 1.
    static func interval(fps: Double) -> Int64 {
        max(1, Int64((1_000_000 / fps).rounded()))
    }

    /// The motion changed at `t`: due at once, unless a frame went out in the current interval —
    /// then at the next tick after it, so frequent changes (a Post every 10 ms) never push frames
    /// faster than the rate the receiver asked for, and the stream stays on its shared ticks.
    mutating func restart(at t: Instant) {
        let earliest = lastSentAt.map { max(t, FramePlan.tick(following: $0, interval: interval)) } ?? t
        nextDue = min(nextDue ?? earliest, earliest)
    }

    /// Forgets the frame that was just dropped instead of sent, and makes the stream due again
    /// at the next tick after `now` (or sooner if it already was).
    mutating func retryAfterDrop(at now: Instant) {
        lastFrame = nil
        let tick = FramePlan.nextTick(after: now, interval: interval)
        nextDue = min(nextDue ?? tick, tick)
    }

    /// Advances the stream by `plan` (made for this stream's columns and interval at the same instant):
    /// the frame to send, nil when it equals the last one.
    mutating func step(_ plan: FramePlan) -> Frame? {
        let send = plan.frame == lastFrame ? nil : plan.frame
        lastFrame = plan.frame
        nextDue = plan.nextDue
        if send != nil {
            lastSentAt = plan.instant
            // A frame sent off the shared ticks (the first one, or one after a change) is followed
            // by the first tick at least half an interval later, never sooner.
            nextDue = nextDue.map { max($0, FramePlan.tick(following: plan.instant, interval: interval)) }
        }
        return send
    }
}

/// What every frame stream of one channel, width and pace gets at one instant: the frame, and
/// when its next frame is due — the next multiple of the interval (so that streams of the same pace
/// share their wake-ups) while the frame is moving, else the timeline's next visible change (never
/// sooner than that), else never.
struct FramePlan {
    /// The channel's name.
    let channel: String
    /// Columns of the frame.
    let columns: Int
    /// The stream's interval.
    let interval: Int64
    /// The instant the plan was made for.
    let instant: Instant
    /// The frame at the instant.
    let frame: Frame
    /// When the next frame is due; nil when nothing will change.
    let nextDue: Instant?

    /// The plan for `columns`-wide frames every `interval` µs of `channel` at `now`.
    init(_ channel: ChannelState, columns: Int, interval: Int64, at now: Instant) {
        self.channel = channel.name
        self.columns = columns
        self.interval = interval
        self.instant = now
        let frame = channel.frame(columns: columns, at: now)
        self.frame = frame
        let soon = Self.nextTick(after: now, interval: interval)
        if channel.frame(columns: columns, at: soon) != frame {
            nextDue = soon
        } else if let change = channel.timeline.nextChange(after: now, columns: columns, effects: channel.effects) {
            nextDue = max(change, soon)
        } else {
            nextDue = nil
        }
    }

    /// The first multiple of `interval` (counted from the epoch) after `now`.
    static func nextTick(after now: Instant, interval: Int64) -> Instant {
        let (quotient, remainder) = now.quotientAndRemainder(dividingBy: interval)
        return (quotient + (remainder < 0 ? 0 : 1)) * interval
    }

    /// The first multiple of `interval` at least half an interval after `sent`: where a stream that
    /// sent a frame at `sent` may send its next one. A frame sent on a tick (a little late) is
    /// followed by the very next tick.
    static func tick(following sent: Instant, interval: Int64) -> Instant {
        nextTick(after: sent + interval / 2 - 1, interval: interval)
    }

    /// Whether this plan serves a stream of `columns` and `interval` on `channel`.
    func serves(channel: String, columns: Int, interval: Int64) -> Bool {
        self.columns == columns && self.interval == interval && self.channel == channel
    }
}
