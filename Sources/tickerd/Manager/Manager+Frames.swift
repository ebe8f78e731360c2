import TickerModel
import TickerNames

/// Frames: `Render`, the `Frame` property, subscriptions and broadcasts.
extension Manager {
    /// The widest frame anyone may ask for.
    static let maximumColumns = TickerBus.maximumColumns

    /// What a viewer of `columns` sees on `channel` at `at` (0 = now). Pure: the same arguments
    /// give the same frame, before and after a restart.
    func render(channel: String, columns: UInt32, at: Instant) throws(TickerError) -> Frame {
        let state = try existing(channel)
        guard (1...UInt32(Self.maximumColumns)).contains(columns) else {
            throw .invalidOption("columns must be 1 to \(Self.maximumColumns), got \(columns)")
        }
        return state.frame(columns: Int(columns), at: at == 0 ? now : at)
    }

    /// Starts (or changes) `subscriber`'s frames of `channel`: `columns` wide at `fps` (1–60,
    /// default 10). Without `columns` they follow the channel's `Columns`, whatever a later
    /// `Configure` makes them; with `columns` they keep that width. With `fps` 0 the subscriber
    /// is a *viewer* that computes its frames from the Timeline: it gets no frames and costs no
    /// wake-ups, but its width counts among the channel's viewer widths
    /// (``seamColumns(channel:)``).
    func subscribe(subscriber: String, channel: String, columns: UInt32?, fps: Double?) throws(TickerError) {
        _ = try existing(channel)
        if let columns, !(1...UInt32(Self.maximumColumns)).contains(columns) {
            throw .invalidOption("Subscribe option 'columns' must be 1 to \(Self.maximumColumns), got \(columns)")
        }
        let width = columns.map { SubscriberWidth.fixed(Int($0)) } ?? .channel
        let rate = fps ?? 10
        guard rate == 0 || (1...60).contains(rate) else {
            throw .invalidOption("Subscribe option 'fps' must be 0 (a viewer that computes its own frames) or 1 to 60, got \(rate)")
        }
        let key = SubscriptionKey(subscriber: subscriber, channel: channel)
        let isNew = subscriptions[key] == nil && viewers[key] == nil
        let count = subscriptions.count + viewers.count
        if isNew, count >= limits.subscribers {
            throw .limitExceeded(
                "there are already \(count) subscriptions, the most there may be ([limits] subscribers in the configuration)")
        }
        if rate == 0 {
            subscriptions[key] = nil
            viewers[key] = width
        } else {
            viewers[key] = nil
            subscriptions[key] = FrameStream(width: width, fps: rate, now: now)
        }
        if isNew { emitNow(.channelChanged(channel, .subscribers)) }
        pumpFrames(at: now)
    }

    /// Ends `subscriber`'s frames (or viewing) of `channel`; a no-op when it had none.
    func unsubscribe(subscriber: String, channel: String) throws(TickerError) {
        _ = try existing(channel)
        let key = SubscriptionKey(subscriber: subscriber, channel: channel)
        let hadStream = subscriptions.removeValue(forKey: key) != nil
        let wasViewer = viewers.removeValue(forKey: key) != nil
        guard hadStream || wasViewer else { return }
        emitNow(.channelChanged(channel, .subscribers))
    }

    /// Forgets every subscription of a connection that left the bus.
    func forget(subscriber: String) {
        let keys = Set(subscriptions.keys.filter { $0.subscriber == subscriber })
            .union(viewers.keys.filter { $0.subscriber == subscriber })
        for key in keys.sorted(by: { $0.channel < $1.channel }) {
            subscriptions[key] = nil
            viewers[key] = nil
            emitNow(.channelChanged(key.channel, .subscribers))
        }
    }

    /// The bus names that subscribe to (or view) any channel.
    var subscriberNames: Set<String> {
        Set(subscriptions.keys.map(\.subscriber)).union(viewers.keys.map(\.subscriber))
    }

    /// The widest viewer `channel` has declared: its frame subscribers' and viewers' columns, and
    /// its broadcast width when it broadcasts; nil when none. A content change waits only until
    /// no viewer this wide can see the switch (docs/rendering.md §6).
    func seamColumns(channel: String) -> Int? {
        declaredViewerColumns(channel: channel).max()
    }

    /// The columns of every viewer `channel` has declared: its frame subscribers, its `Subscribe`
    /// fps 0 viewers, and its broadcast width when it broadcasts.
    func declaredViewerColumns(channel: String) -> [Int] {
        guard let state = channels[channel] else { return [] }
        var columns = subscriptions.compactMap { $0.key.channel == channel ? $0.value.width.columns(on: state) : nil }
        columns += viewers.compactMap { $0.key.channel == channel ? $0.value.columns(on: state) : nil }
        if state.frameRate > 0 { columns.append(Int(state.columns)) }
        return columns
    }

    /// Delivers `event` at once, as a batch of its own: subscriptions are not stored, so their
    /// events need no transaction.
    private func emitNow(_ event: ManagerEvent) {
        guard let observer else { return }
        observer.manager(self, didEmit: event)
        observer.managerDidDeliverEvents(self)
    }

    /// How many subscriptions (viewers included) follow `channel`.
    func subscriberCount(channel: String) -> Int {
        subscriptions.keys.reduce(0) { $0 + ($1.channel == channel ? 1 : 0) }
            + viewers.keys.reduce(0) { $0 + ($1.channel == channel ? 1 : 0) }
    }

    /// Makes every frame stream of `channel` due at `t` (its motion changed), or at the next tick
    /// after its last frame when that is later.
    func restartFrames(channel: String, at t: Instant) {
        for key in subscriptions.keys where key.channel == channel {
            subscriptions[key]?.restart(at: t)
        }
        if let state = channels[channel], state.frameRate > 0 {
            var stream = broadcasts[channel] ?? FrameStream(width: .channel, fps: state.frameRate, now: t)
            stream.interval = FrameStream.interval(fps: state.frameRate)
            stream.restart(at: t)
            broadcasts[channel] = stream
        } else {
            broadcasts[channel] = nil
        }
    }

    /// Sends every frame that is due at `t` and differs from the last one its receiver got.
    /// Streams of the same channel, width and pace share one frame computation (and, in the bus
    /// surface, one marshalled signal). A frame the observer dropped is not counted as sent: the
    /// stream is due again at its next tick, so the receiver still gets the frame it should once
    /// the bus takes frames again.
    func pumpFrames(at t: Instant) {
        var plans: [FramePlan] = []
        func plan(_ stream: FrameStream, channel name: String, _ state: ChannelState) -> FramePlan {
            // A subscriber without its own width takes the channel's Columns as they are now.
            let columns = stream.width.columns(on: state)
            if let shared = plans.first(where: { $0.serves(channel: name, columns: columns, interval: stream.interval) }) {
                return shared
            }
            let made = FramePlan(state, columns: columns, interval: stream.interval, at: t)
            plans.append(made)
            return made
        }
        var index = subscriptions.values.startIndex
        while index != subscriptions.values.endIndex {
            let key = subscriptions.keys[index]
            if let due = subscriptions.values[index].nextDue, due <= t, let state = channels[key.channel],
               let frame = subscriptions.values[index].step(plan(subscriptions.values[index], channel: key.channel, state)),
               observer?.manager(self, sendFrame: frame, channel: key.channel, to: key.subscriber) == false {
                subscriptions.values[index].retryAfterDrop(at: t)
            }
            subscriptions.values.formIndex(after: &index)
        }
        for name in Array(broadcasts.keys) {
            guard var stream = broadcasts[name], let due = stream.nextDue, due <= t, let state = channels[name] else { continue }
            if let frame = stream.step(plan(stream, channel: name, state)),
               observer?.manager(self, sendFrame: frame, channel: name, to: nil) == false {
                stream.retryAfterDrop(at: t)
            }
            broadcasts[name] = stream
        }
    }
}
