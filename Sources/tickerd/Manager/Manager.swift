import TickerModel

/// Owns all of the daemon's mutable state — channels, messages, the schedule, subscriptions — on
/// the one serial event loop, and keeps it consistent.
///
/// Every change runs as a transaction: mutate, re-evaluate the schedule, then hand the change to
/// the ``ChangeCommitter``, which stores it and then announces it; the caller is answered after
/// both. When the store fails the state is rolled back, nothing is announced and the caller gets
/// `StorageFailed`, so nothing is kept in memory only and no client sees a change that is undone.
///
/// What is stored is what changed: the channel and message tables note the names and ids set
/// since the last store, and only those go into the journal record (``StateChange``), so a
/// change costs the same with 10 messages or 100,000 and no second copy of the state is kept.
final class Manager {
    /// Channels by name.
    var channels = ChannelTable()
    /// Messages by id (ids are unique across channels), with their schedule.
    var messages = MessageTable()
    /// Subscriptions by (subscriber, channel).
    var subscriptions: [SubscriptionKey: FrameStream] = [:]
    /// Viewers (`Subscribe` with fps 0) by (subscriber, channel): the width each declared. They
    /// get no frames; their widths decide how long a content change waits (``seamColumns(channel:)``).
    var viewers: [SubscriptionKey: SubscriberWidth] = [:]
    /// Each broadcasting channel's frame stream.
    var broadcasts: [String: FrameStream] = [:]
    /// Limits on texts, messages, channels and subscribers.
    var limits: DaemonLimits
    /// How requests become message windows (calendar expressions use the host's zones).
    let windowRules: WindowRules
    /// Stores each change, then announces it.
    let committer = ChangeCommitter()
    /// Receives events and frames.
    var observer: (any ManagerObserver)? {
        get { committer.observer }
        set { committer.observer = newValue }
    }
    /// Stores a change durably (``StateStoring``); nil keeps state in memory only (tests of the
    /// model logic).
    var store: (any StateStoring)? {
        get { committer.store }
        set { committer.store = newValue }
    }
    /// The realtime clock, in µs since the epoch (injected so tests can move time).
    let clock: () -> Instant

    /// Each channel's `[channel.NAME]` section as the configuration file last applied gave it:
    /// what a `Configure` with `reset` starts from (a channel without one starts from the
    /// defaults). Not stored: the file is read again at every start.
    var configuredChannels: [String: ChannelConfigureRequest] = [:]

    var nextSerial: UInt64 = 1
    /// Each channel as last stored, to leave channels that were set but did not change out of
    /// the journal (small: settings, timeline and the texts on each tape).
    var storedChannels: [String: StoredChannel] = [:]
    /// The next serial as last stored.
    var storedSerial: UInt64 = 0

    /// A manager with the `main` channel, reading time from `clock`.
    init(limits: DaemonLimits = .standard, zones: any TimeZoneLookup, clock: @escaping () -> Instant) {
        self.limits = limits
        self.windowRules = WindowRules(zones: zones)
        self.clock = clock
        let now = clock()
        lastEvaluation = now
        channels[ChannelName.main] = ChannelState(name: ChannelName.main, now: now)
    }

    /// The instant "now" for this manager.
    var now: Instant { clock() }

    /// Counts for the status line: "3 channels, 12 messages, 2 subscribers".
    var statusLine: String {
        let active = channels.values.reduce(0) { $0 + $1.activeIDs.count }
        return "\(channels.count) channel\(channels.count == 1 ? "" : "s"), "
            + "\(active) of \(messages.count) message\(messages.count == 1 ? "" : "s") shown, "
            + "\(subscriptions.count + viewers.count) subscriber\(subscriptions.count + viewers.count == 1 ? "" : "s")"
    }

    // MARK: Transactions

    /// Runs `body` as a transaction (see the type's documentation) and returns its result.
    ///
    /// The channels (at most a few dozen) are copied for the rollback; the messages and the
    /// schedule, which may hold 100,000 entries, are not: each message the transaction sets or
    /// drops notes its old record and schedule entry in ``undoLog``, and a rollback puts those
    /// back.
    func transaction<T>(_ body: () throws(TickerError) -> T) throws(TickerError) -> T {
        let saved = SavedState(channels: channels, limits: limits, nextSerial: nextSerial, queuedEvents: committer.queuedCount,
                               lastEvaluation: lastEvaluation, stateDue: stateDue, scheduleDue: scheduleDue,
                               unstoredMessages: messages.unstored, endedExplicitly: endedExplicitly)
        undoLog = []
        defer { undoLog = nil }
        do {
            let result = try body()
            evaluate(at: now)
            try committer.commit(takeUnstoredChange(), snapshot: snapshot, from: self)
            noteStored()
            return result
        } catch {
            rollBack(to: saved)
            throw error
        }
    }

    /// What a transaction puts back when it is rolled back (with ``undoLog``).
    struct SavedState {
        /// The channels (copied whole: at most a few dozen).
        var channels: ChannelTable
        /// The limits (a configuration that fails to apply leaves the old ones in force).
        var limits: DaemonLimits
        /// The next message serial.
        var nextSerial: UInt64
        /// How many events were queued before the transaction.
        var queuedEvents: Int
        /// When the schedule was last evaluated.
        var lastEvaluation: Instant
        /// When the state next changes by itself.
        var stateDue: Instant?
        /// The next schedule boundary after the last evaluation.
        var scheduleDue: Instant?
        /// The ids of messages set or dropped since the last store.
        var unstoredMessages: Set<String>
        /// The ids already reported ended (a refused change that replaced or removed a shown
        /// message must not leave it marked: it would be announced as started again).
        var endedExplicitly: Set<String>
    }

    /// Puts back the state saved at a transaction's start and what its ``undoLog`` noted, and
    /// drops the events it queued.
    private func rollBack(to saved: SavedState) {
        for (id, record, entry) in (undoLog ?? []).reversed() {
            if let record, let entry { messages.set(record, entry: entry) } else { messages.remove(id) }
        }
        undoLog = []
        messages.restoreUnstored(saved.unstoredMessages)
        (channels, limits, nextSerial) = (saved.channels, saved.limits, saved.nextSerial)
        (lastEvaluation, stateDue, scheduleDue) = (saved.lastEvaluation, saved.stateDue, saved.scheduleDue)
        endedExplicitly = saved.endedExplicitly
        committer.dropQueued(from: saved.queuedEvents)
        pendingChange = nil
        // The rolled-back evaluation may have taken changes of the schedule that the channels put
        // back do not show yet.
        evaluatesEveryChannel = true
    }

    /// While a transaction runs: each message it set or dropped, with its record and schedule
    /// entry from before (nil: there was none), in order; nil outside transactions.
    var undoLog: [(id: String, record: MessageRecord?, entry: ScheduleEntry?)]?

    /// Notes message `id` as it is now in the running transaction's undo log.
    func noteUndo(_ id: String) {
        guard undoLog != nil else { return }
        undoLog?.append((id, messages[id], messages.entry(id: id)))
    }

    /// Re-evaluates at `now` without a caller (a timer fired, the clock jumped): the schedule,
    /// then events, then storing. A failed store is returned for logging; the change stands, as
    /// time cannot be rolled back.
    ///
    /// When no schedule boundary or effect milestone has come since the last evaluation (the
    /// wake-up was for frames only) and the clock has not gone back, the state cannot have
    /// changed: only the due frames are sent, with no evaluation and no store.
    @discardableResult
    func tick() -> TickerError? {
        let t = now
        if t >= lastEvaluation, stateDue.map({ $0 > t }) ?? true {
            pumpFrames(at: t)
            return nil
        }
        for name in channels.keys {
            if let effects = channels[name]?.effects, effects != .none {
                channels[name]?.effects = effects.pruned(at: t)
            }
        }
        evaluate(at: t)
        // Time's changes stand whether or not they are stored: announced even when the store fails.
        var failure: TickerError?
        do {
            try committer.commit(takeUnstoredChange(), snapshot: snapshot, from: self)
            noteStored()
        } catch {
            failure = error
            committer.announce(from: self)
        }
        pumpFrames(at: now)
        return failure
    }

    /// Queues an event for delivery once the transaction's change is stored.
    func emit(_ event: ManagerEvent) {
        committer.queue(event)
    }

    /// What changed since the last store, for the committer; nil when there is no store or
    /// nothing changed (then it is all noted as stored at once).
    private func takeUnstoredChange() -> StateChange? {
        guard store != nil else {
            markStored()
            return nil
        }
        let change = unstoredChange()
        guard !change.isEmpty(after: storedSerial) else {
            markStored()
            return nil
        }
        pendingChange = change
        return change
    }

    /// Notes the change ``takeUnstoredChange()`` handed out as stored (its commit succeeded). On
    /// failure the changes stay noted, so the next store (or the rollback) accounts for them.
    private func noteStored() {
        guard let change = pendingChange else { return }
        pendingChange = nil
        for channel in changedChannels { storedChannels[channel.name] = channel }
        for name in change.removedChannels { storedChannels[name] = nil }
        markStored()
    }

    /// The change handed to the committer and not yet noted as stored.
    private var pendingChange: StateChange?
    /// The channels of the last ``unstoredChange()``, whole (its record may hold them as edits).
    private var changedChannels: [StoredChannel] = []

    /// What changed since the last store: the channels set since then that differ from their
    /// stored form, and every message added, changed or removed since then.
    func unstoredChange() -> StateChange {
        var change = StateChange(sequence: 0, nextSerial: nextSerial)
        changedChannels = []
        for name in channels.unstored.sorted() {
            if let channel = channels[name] {
                let stored = StoredChannel(channel)
                guard storedChannels[name] != stored else { continue }
                changedChannels.append(stored)
                if let previous = storedChannels[name] {
                    change.channelEdits = (change.channelEdits ?? []) + [StoredChannelEdit(stored, after: previous)]
                } else {
                    change.channels.append(stored)
                }
            } else if storedChannels[name] != nil {
                change.removedChannels.append(name)
            }
        }
        for id in messages.unstored.sorted() {
            if let record = messages[id] {
                change.messages.append(record)
            } else {
                change.removedMessages.append(id)
            }
        }
        return change
    }

    /// Notes the state as it is now as stored (after a store or a compaction succeeded).
    func markStored() {
        channels.markStored()
        messages.markStored()
        storedSerial = nextSerial
    }

    /// Notes `snapshot`, just written whole, as the stored state.
    func markStored(_ snapshot: StateSnapshot) {
        storedChannels = Dictionary(snapshot.channels.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        markStored()
    }

    // MARK: Schedule evaluation

    /// Brings every channel's tape up to date with the schedule at `t`: drops messages whose
    /// window has passed for good, applies changed active sets to the timelines (seamlessly,
    /// or at once for urgent newcomers) and queues MessageStarted/MessageEnded.
    func evaluate(at t: Instant) {
        for id in messages.endedEntries(at: t) {
            dropMessage(id)
        }
        let settledAt = settleChanges(at: t)
        var scheduledAt: Instant??
        let changed = messages.takeChangedChannels(at: t)
        let everyChannel = evaluatesEveryChannel
        evaluatesEveryChannel = false
        for name in channels.keys.sorted() {
            guard var channel = channels[name] else { continue }
            for reached in channel.effects.counters.reached(after: lastEvaluation, through: t) {
                emit(.valueReached(channel: name, name: reached.name, value: reached.value))
            }
            // Only a channel whose messages changed can show other ones, and a held tape is read
            // again until it is applied (its newcomers take their place then); the others are
            // looked at only when a counter may change their layout.
            let touched = everyChannel || changed.contains(name) || channel.tapeHeld
            guard touched || !channel.effects.counters.isEmpty else { continue }
            let (ids, texts, slots) = touched
                ? messages.activeMessages(
                    inChannel: name, phaseLocked: channel.settings.phase == .wallClock,
                    arrangement: tapeArrangement(for: channel, at: t))
                : (channel.activeIDs, channel.activeTexts, channel.activeSlots)
            // A Remove ends one id, and a tape holds up to a thousand: the few ended ids are
            // looked for on it (compared, where asking the set about each id hashes them all).
            let restarted = endedExplicitly.count <= 8
                ? endedExplicitly.contains(where: ids.contains) : ids.contains(where: endedExplicitly.contains)
            let contentChanged = ids != channel.activeIDs || texts != channel.activeTexts || restarted
            // Counters can change the tape's layout (a field's width) without any message changing.
            guard contentChanged || channel.tapeHeld || !channel.effects.counters.isEmpty else { continue }
            let tapeMessages = zip(ids, texts).map { TapeMessage(key: $0, text: $1) }
            let tape = channel.tape(tapeMessages, at: t)
            let showing = channel.timeline.pending?.tape ?? channel.timeline.tape
            guard contentChanged || channel.tapeHeld || tape != showing else { continue }
            let membership = TapeMembershipChange(from: channel.activeIDs, to: ids)
            // Joined the tape, or restarted on it (ended explicitly, as a replaced message is).
            let started = restarted
                ? ids.filter { [joined = Set(membership.joined)] in joined.contains($0) || endedExplicitly.contains($0) }
                : membership.joined
            // A phase-locked channel changes at an instant every screen knows alike, however late
            // each one woke: the schedule's, when the schedule made the change, or the settle
            // instant of the change a held one waited for (docs/rendering.md §13). Its messages'
            // effects start and stop then too, so that their frames agree as well.
            var changeAt = t
            if channel.settings.phase == .wallClock {
                if scheduledAt == nil { scheduledAt = .some(scheduleBoundary(through: t)) }
                let released = channel.tapeHeld ? settledAt[name] : nil
                changeAt = [scheduledAt ?? nil, released].compactMap { $0 }.max() ?? t
            }
            for id in membership.left {
                if !endedExplicitly.contains(id) { emit(.messageEnded(channel: name, id: id, reason: .expired)) }
                // The old tape stays in view until its seam: its dots finish their wave gracefully.
                channel.effects.messages[id] = channel.effects.messages[id]?.stopping(at: changeAt)
            }
            let urgent = started.contains { messages[$0]?.urgent == true }
            let reach = seamColumns(channel: name)
            if !urgent, tape != showing,
               channel.timeline.pendingChangeIsInView(at: changeAt, seamColumns: reach, narrowestViewer: narrowestViewer(channel: name)) {
                // Applied when the change entering the view settles (a wake-up at its settle instant).
                channel.tapeHeld = true
            } else {
                channel.tapeHeld = false
                if tape != showing || urgent {
                    channel.timeline = channel.timeline.applying(tape, at: changeAt, urgent: urgent, seamColumns: reach)
                    channel.effects = waitingRevealsUpdated(channel.effects, for: channel.timeline, at: changeAt)
                }
            }
            channel.activeIDs = ids
            channel.activeTexts = texts
            channel.activeSlots = slots
            channel.builtTape = channel.effects.counters.isEmpty
                ? BuiltTape(messages: tapeMessages, texts: texts, separator: channel.settings.separator, gap: channel.settings.gap,
                            tape: tape) : nil
            for id in started {
                emit(.messageStarted(channel: name, id: id))
                if let record = messages[id] {
                    channel.effects.messages[id] = startedEffect(of: record, entering: channel.timeline, at: changeAt)
                }
            }
            channels[name] = channel
            emit(.channelChanged(name, contentChanged ? [.text, .messages, .timeline] : [.text, .timeline]))
            restartFrames(channel: name, at: t)
        }
        lastEvaluation = t
        endedExplicitly.removeAll()
        scheduleDue = messages.nextBoundary(after: t)
        stateDue = nextStateChange(after: t)
    }

    /// The schedule boundary that came since the last evaluation — the instant a change this
    /// evaluation finds was due (a `start`, an `end`, a calendar occurrence, a TTL running out) —
    /// or nil when none came. When a daemon slept past several, the first of them: such a daemon
    /// is out of step with the fleet anyway, and rejoins it when its change settles. Read from
    /// ``scheduleDue`` rather than by asking the schedule about the past, which would rebuild it.
    private func scheduleBoundary(through t: Instant) -> Instant? {
        guard let due = scheduleDue, due > lastEvaluation, due <= t else { return nil }
        return due
    }

    /// Folds each pending content change that has fully taken effect by `t` into its timeline and
    /// re-publishes the Timeline, so clients see `next` go (and a client's frame clock can stop
    /// where the text stands still). Frames do not change.
    ///
    /// Returns the instant each channel's change settled at (its `settleInstant`), by name.
    @discardableResult
    private func settleChanges(at t: Instant) -> [String: Instant] {
        var settledAt: [String: Instant] = [:]
        for name in channels.keys.sorted() {
            guard var channel = channels[name], channel.timeline.pending != nil else { continue }
            let settled = channel.timeline.settled(at: t)
            guard settled.pending == nil else { continue }
            settledAt[name] = channel.timeline.settleInstant
            channel.timeline = settled
            channels[name] = channel
            emit(.channelChanged(name, .timeline))
        }
        return settledAt
    }

    /// The earliest instant after `t` at which the state itself changes (a schedule boundary, a
    /// counter's end, an effect's end, a pending content change settling), as opposed to frames
    /// merely moving on.
    private func nextStateChange(after t: Instant) -> Instant? {
        var earliest = messages.nextBoundary(after: t)
        for channel in channels.values {
            if let due = channel.effects.nextMilestone(after: t) { earliest = min(earliest ?? due, due) }
            if !channel.timeline.isPaused, let due = channel.timeline.settleInstant, due > t {
                earliest = min(earliest ?? due, due)
            }
        }
        return earliest
    }

    /// The model's effect for a message that has just joined the tape at `t`: dots start jumping
    /// now (every viewer sees the same phase, whenever the message comes into its view); a reveal
    /// starts when the message comes into view — at the seam for viewers whose text scrolls, if it
    /// waits for one, and at `t` for viewers that show the change still (old and new content fit,
    /// docs/rendering.md §11.4).
    func startedEffect(of record: MessageRecord, entering timeline: Timeline, at t: Instant) -> MessageEffect? {
        switch record.effect {
        case nil:
            return nil
        case .dots:
            return .dots(DotsEffect(start: t))
        case .reveal:
            return (try? RevealEffect.entering(timeline, message: record.id, at: t, duration: record.reveal ?? Self.defaultReveal))
                .map { .reveal($0) }
        }
    }

    /// After a change at `t`, the reveals of messages still waiting for the seam
    /// (``RevealEffect/after(change:message:at:)``).
    func waitingRevealsUpdated(_ effects: EffectState, for timeline: Timeline, at t: Instant) -> EffectState {
        var result = effects
        for (key, effect) in effects.messages {
            if case let .reveal(reveal) = effect { result.messages[key] = .reveal(reveal.after(change: timeline, message: key, at: t)) }
        }
        return result
    }

    /// The reveal duration when a message asks for `reveal` without giving one: 1 s.
    static let defaultReveal: Int64 = 1_000_000

    /// The instant of the last evaluation, so counters that finished since are reported once.
    var lastEvaluation: Instant = 0

    /// When the state next changes by itself, as of the last evaluation (nil: never); until then
    /// a `tick` only sends frames.
    var stateDue: Instant?

    /// The first schedule boundary after the last evaluation (nil: none), so an evaluation knows
    /// when a change the schedule made was due (phase-locked channels change at that instant).
    var scheduleDue: Instant?

    /// Whether the next evaluation re-reads every channel's messages, not only those of channels
    /// whose messages changed (at the first one, and after a rollback put channels back).
    var evaluatesEveryChannel = true

    /// Ids whose MessageEnded was already queued with reason removed or replaced in this
    /// transaction, so `evaluate` does not report them again as expired.
    var endedExplicitly: Set<String> = []

    /// The next instant anything is due: a schedule boundary or a frame.
    func nextWake() -> Instant? {
        var earliest = stateDue
        for stream in subscriptions.values {
            if let due = stream.nextDue { earliest = min(earliest ?? due, due) }
        }
        for stream in broadcasts.values {
            if let due = stream.nextDue { earliest = min(earliest ?? due, due) }
        }
        return earliest
    }
}
