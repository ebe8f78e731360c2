import TickerModel

/// The `Control` interface's operations: every one is a transaction (stored before it answers).
extension Manager {
    /// Posts a message to `channel` (created when new) and returns its id. With `request.id` set it
    /// replaces the message with that id (`MessageEnded` reason 3 when that one was shown).
    func post(channel: String, text: String, request: MessageRequest) throws(TickerError) -> String {
        try transaction { () throws(TickerError) -> String in
            let name = try ChannelName.checked(channel)
            let cleaned = try sanitized(text, effect: request.effect)
            let postedAt = now
            let id = try request.id.map { (id: String) throws(TickerError) -> String in try Self.checkedID(id) }
                ?? newID()
            let window = try windowRules.window(for: request, postedAt: postedAt)
            if let old = messages[id] { endMessage(old, reason: .replaced) }
            try ensureChannel(name)
            let count = messages.count(inChannel: name)
            guard count < limits.model.messagesPerChannel else {
                throw .limitExceeded(
                    "channel '\(name)' already holds \(count) messages, the most it may ([limits] messages in the configuration)")
            }
            let record = MessageRecord(
                id: id, channel: name, text: cleaned, priority: request.priority ?? 0,
                urgent: request.urgent ?? false, window: window, postedAt: postedAt,
                effect: request.effect, reveal: request.reveal, origin: .posted, link: request.link)
            try insert(record)
            return id
        }
    }

    /// Changes fields of message `id`; the fields of `changes` that are set replace the old ones.
    /// A changed effect of a shown message starts at once; a removed one stops gracefully.
    func update(id: String, changes: MessageRequest) throws(TickerError) {
        try transaction { () throws(TickerError) in
            guard var record = messages[id] else { throw .noSuchMessage("there is no message with id '\(id)'") }
            let oldEffect = record.effect
            if let text = changes.text { record.text = text }
            if let priority = changes.priority { record.priority = priority }
            if let urgent = changes.urgent { record.urgent = urgent }
            if changes.effect != nil { record.effect = changes.effect }
            if changes.removesEffect { (record.effect, record.reveal) = (nil, nil) }
            if let reveal = changes.reveal { record.reveal = reveal }
            // As in Post: a reveal duration goes with the reveal effect, and leaves with it.
            if record.effect != .reveal {
                guard changes.reveal == nil else {
                    throw .invalidOption("option 'reveal' (a duration) goes with effect 'reveal'")
                }
                record.reveal = nil
            }
            if let link = changes.link { record.link = link.isEmpty ? nil : link }
            record.text = try sanitized(record.text, effect: record.effect)
            if changes.ttl != nil || changes.start != nil || changes.end != nil
                || changes.calendar != nil || changes.duration != nil {
                record.window = try windowRules.window(for: changes, postedAt: record.postedAt, now: now)
            }
            try insert(record)
            if record.effect != oldEffect, var state = channels[record.channel], state.activeIDs.contains(id) {
                let t = now
                if record.effect == nil {
                    // Removing the effect is graceful: dots finish the wave under way, then rest.
                    state.effects.messages[id] = state.effects.messages[id]?.stopping(at: t)
                } else {
                    state.effects.messages[id] = startedEffect(of: record, entering: state.timeline, at: t)
                }
                channels[record.channel] = state
                // Clients that compute frames from the Timeline see the effects change.
                emit(.channelChanged(record.channel, [.timeline]))
                restartFrames(channel: record.channel, at: t)
            }
        }
    }

    /// Removes message `id` (`MessageEnded` reason 2 when it was shown).
    func remove(id: String) throws(TickerError) {
        try transaction { () throws(TickerError) in
            guard let record = messages[id] else { throw .noSuchMessage("there is no message with id '\(id)'") }
            endMessage(record, reason: .removed)
        }
    }

    /// Changes a channel's settings (creating the channel when new); motion restarts at home when
    /// they change. With `reset` the request starts from the channel's configured settings (its
    /// `[channel.NAME]` section, else the defaults) rather than from its current ones.
    func configure(channel: String, request: ChannelConfigureRequest, reset: Bool = false) throws(TickerError) {
        try transaction { () throws(TickerError) in
            let name = try ChannelName.checked(channel)
            try ensureChannel(name)
            try apply(request, to: name, reset: reset)
        }
    }

    /// Freezes the channel's stream where it is.
    func pause(channel: String) throws(TickerError) {
        try transaction { () throws(TickerError) in
            var state = try existing(channel)
            guard !state.isPaused else { return }
            guard state.settings.phase != .wallClock else {
                throw .phaseLocked(
                    "channel '\(channel)' is phase-locked (phase wall-clock): its motion follows the wall clock "
                        + "on every screen, so it cannot be paused here; Configure phase=local first")
            }
            state.timeline = state.timeline.paused(at: now)
            channels[channel] = state
            emit(.channelChanged(channel, [.paused, .timeline]))
            restartFrames(channel: channel, at: now)
        }
    }

    /// Lets a paused channel's stream move on from where it froze.
    func resume(channel: String) throws(TickerError) {
        try transaction { () throws(TickerError) in
            var state = try existing(channel)
            guard state.isPaused else { return }
            state.timeline = state.timeline.resumed(at: now)
            channels[channel] = state
            emit(.channelChanged(channel, [.paused, .timeline]))
            restartFrames(channel: channel, at: now)
        }
    }

    // MARK: Helpers shared by the operations

    /// The channel called `name`, or `NoSuchChannel` (`InvalidChannel` for a malformed name).
    func existing(_ name: String) throws(TickerError) -> ChannelState {
        let checked = try ChannelName.checked(name)
        guard let state = channels[checked] else {
            throw .noSuchChannel("there is no channel '\(name)' (Post or Configure creates one)")
        }
        return state
    }

    /// Creates channel `name` with default settings unless it exists (`LimitExceeded` past the limit).
    func ensureChannel(_ name: String) throws(TickerError) {
        guard channels[name] == nil else { return }
        guard channels.count < limits.model.channels else {
            throw .limitExceeded(
                "there are already \(channels.count) channels, the most there may be ([limits] channels in the configuration)")
        }
        channels[name] = ChannelState(name: name, now: now)
        emit(.channelAdded(name))
    }

    /// Applies the fields of `request` to channel `name` (which exists); with `reset`, to the
    /// channel's configured settings, columns and frame rate.
    func apply(_ request: ChannelConfigureRequest, to name: String, reset: Bool = false) throws(TickerError) {
        guard var state = channels[name] else { return }
        var changes: ChannelChanges = []
        var request = request
        let base: ChannelSettings
        if reset {
            let configured = configuredChannels[name] ?? ChannelConfigureRequest()
            base = configured.applied(to: ChannelSettings())
            request.columns = request.columns ?? configured.columns ?? ChannelState.defaultColumns
            request.frameRate = request.frameRate ?? configured.frameRate ?? 0
        } else {
            base = state.settings
        }
        let settings: ChannelSettings
        do {
            // Separators are bounded by the standard cluster limit, not `[limits] message-length`
            // (a limit on posted texts, which the default separator alone could break).
            settings = try request.applied(to: base).validated()
        } catch {
            throw .invalidOption(error.description)
        }
        if settings.phase == .wallClock, state.isPaused {
            throw .phaseLocked(
                "channel '\(name)' is paused; a phase-locked channel (phase wall-clock) cannot be: Resume it first")
        }
        if settings != state.settings {
            // A phase-locked tape is ordered by priority then id, a local one by arrival too.
            if settings.phase != state.settings.phase { messages.markChanged(channel: name) }
            let previous = state.settings
            state.settings = settings
            // A new speed, hold or alignment goes on from the frame in view, and a new separator
            // or gap is new content: this transaction's evaluation reads the tape again and applies
            // it like any content change, at a seam (``ChannelState/tapeHeld``). Any other change
            // (a mode, a direction) starts the motion again at home.
            // (`retimed` leaves a timeline whose speed and hold are unchanged as it is.)
            if settings.keepsMotion(of: previous), let kept = state.timeline.retimed(to: settings, at: now) {
                state.timeline = kept
                if settings.separator != previous.separator || settings.gap != previous.gap {
                    state.tapeHeld = true
                    messages.markChanged(channel: name)
                }
            } else {
                let tape = state.currentTape(at: now)
                state.timeline = Timeline(tape: tape, settings: settings, at: now, paused: state.isPaused)
            }
            // A reveal waiting for its message to come into view starts when the new motion brings it.
            state.effects = waitingRevealsUpdated(state.effects, for: state.timeline, at: now)
            changes.formUnion([.timeline, .text])
        }
        if let columns = request.columns {
            guard (1...4096).contains(columns) else {
                throw .invalidOption("Configure option 'columns' must be 1 to 4096, got \(columns)")
            }
            if columns != state.columns { state.columns = columns; changes.insert(.columns) }
        }
        if let rate = request.frameRate {
            guard rate == 0 || (1...60).contains(rate) else {
                throw .invalidOption("Configure option 'frame-rate' must be 0 (none) or 1 to 60, got \(rate)")
            }
            if rate != state.frameRate { state.frameRate = rate; changes.insert(.frameRate) }
        }
        channels[name] = state
        if !changes.isEmpty {
            emit(.channelChanged(name, changes))
            restartFrames(channel: name, at: now)
        }
    }

    /// Drops `record`, queueing `MessageEnded(reason)` when it was on its channel's tape.
    func endMessage(_ record: MessageRecord, reason: MessageEndReason) {
        if channels[record.channel]?.activeIDs.contains(record.id) == true {
            emit(.messageEnded(channel: record.channel, id: record.id, reason: reason))
            endedExplicitly.insert(record.id)
        }
        dropMessage(record.id)
    }

    /// Adds or replaces `record` in the messages and the schedule.
    func insert(_ record: MessageRecord) throws(TickerError) {
        let entry = try scheduleEntry(for: record)
        noteUndo(record.id)
        messages.set(record, entry: entry)
    }

    /// Removes message `id` from the messages and the schedule (nothing when there is none).
    func dropMessage(_ id: String) {
        noteUndo(id)
        messages.remove(id)
    }

    /// The schedule entry of `record` (its calendar parsed with the host's zones).
    func scheduleEntry(for record: MessageRecord) throws(TickerError) -> ScheduleEntry {
        let window: ScheduleWindow
        switch record.window {
        case .always: window = .always
        case let .absolute(start, end): window = .absolute(start: start, end: end)
        case let .timeToLive(microseconds): window = .timeToLive(microseconds: microseconds)
        case let .recurring(expression, duration):
            window = .recurring(calendar: try windowRules.calendar(expression), duration: duration)
        }
        return ScheduleEntry(
            id: record.id, priority: record.priority, isUrgent: record.urgent, window: window,
            postedAt: record.postedAt)
    }

    /// `text` sanitised per the rendering rules; `dots` needs a trailing `...`; an empty text
    /// (which would only put a second separator on the tape) is refused.
    func sanitized(_ text: String, effect: EffectKind?) throws(TickerError) -> String {
        try Self.sanitized(text, effect: effect, limits: limits.model)
    }

    /// ``sanitized(_:effect:)`` under `limits`: the one rule the bus and the configuration file
    /// (checked against its own `[limits]`) share.
    static func sanitized(_ text: String, effect: EffectKind?, limits: Limits) throws(TickerError) -> String {
        guard !text.isEmpty else { throw .invalidText(Self.emptyText) }
        // The sanitizer checks the byte limit first, in constant time: a huge text (megabytes over
        // the bus) is refused before any of it is walked.
        let cleaned: String
        do {
            cleaned = try TextSanitizer.sanitize(text, limits: limits)
        } catch {
            throw error.isLimit ? .limitExceeded(error.description) : .invalidText(error.description)
        }
        if effect == .dots, !cleaned.hasSuffix("...") {
            throw .invalidText("the 'dots' effect needs a text that ends with three full stops '...'")
        }
        return cleaned
    }

    /// Why an empty text is refused.
    static let emptyText = "the text is empty; a message needs something to show (Remove takes a message away)"

    /// A fresh message id, `m<serial>`, never reused.
    func newID() -> String {
        while messages["m\(nextSerial)"] != nil { nextSerial += 1 }
        defer { nextSerial += 1 }
        return "m\(nextSerial)"
    }

    /// `id` when it is 1 to 128 visible ASCII characters without spaces, else `InvalidOption`.
    static func checkedID(_ id: String) throws(TickerError) -> String {
        let ok = (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        guard ok else {
            throw .invalidOption("option 'id' must be 1 to 128 visible ASCII characters without spaces")
        }
        return id
    }
}
