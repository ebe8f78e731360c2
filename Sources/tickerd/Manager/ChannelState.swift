import TickerModel

/// One channel: its settings, its timeline (where the text is, as a function of time) and which
/// messages are on its tape now.
struct ChannelState: Sendable {
    /// The channel's name (`[A-Za-z0-9_]{1,64}`).
    let name: String
    /// Marquee settings (mode, speed, separator, …).
    var settings: ChannelSettings
    /// Columns of the broadcast frames and of the `Frame` property.
    var columns: UInt32
    /// Broadcast frames per second; 0 broadcasts none.
    var frameRate: Double
    /// Where the text is at every instant.
    var timeline: Timeline
    /// The ids on the tape now, in tape order.
    var activeIDs: [String]
    /// The texts on the tape now, in tape order (to notice an `Update` of an active text).
    var activeTexts: [String]
    /// The message table's slot of each of ``activeIDs`` as the last evaluation found them
    /// (empty when unknown, after a restore), to find them again without hashing their ids.
    var activeSlots: [Int] = []
    /// Counters and per-message effects (dots, reveal) of this channel.
    var effects: EffectState
    /// Whether the tape of ``activeIDs`` waits to be applied: a change came while the previous one
    /// was entering the view, and applying it then would have restarted the stream (a jump), so it
    /// is applied when that one settles; or a new separator or gap asks for the tape to be read
    /// again (the same transaction's evaluation applies it as a content change). Not stored: a
    /// restored channel is held, so the first evaluation after a restart applies whatever differs.
    var tapeHeld = false
    /// The tape last built for the channel's messages while it had no counters, with what it was
    /// built from: the next tape is edited from it (``tape(_:at:)``), and ``text(at:)``
    /// reads it rather than joining the texts again.
    var builtTape: BuiltTape?
    /// A digest of the configuration file's section for this channel when it was last applied,
    /// so a restart keeps runtime `Configure` changes unless the file itself changed.
    var configDigest: String?

    /// The default broadcast/`Frame` width.
    static let defaultColumns: UInt32 = 80

    /// A new, empty channel with `settings`, started at `now`.
    init(name: String, settings: ChannelSettings = ChannelSettings(), now: Instant) {
        self.name = name
        self.settings = settings
        self.columns = Self.defaultColumns
        self.frameRate = 0
        self.timeline = Timeline(tape: .empty, settings: settings, at: now)
        self.activeIDs = []
        self.activeTexts = []
        self.effects = .none
        self.configDigest = nil
    }

    /// The full text of the active messages at `t`, counters written out, for screen readers
    /// and tooltips.
    func text(at t: Instant) -> String {
        if effects.counters.isEmpty, let built = builtTape, built.texts == activeTexts, built.separator == settings.separator {
            return built.tape.textBeforeGap
        }
        return activeTexts.map { Placeholders.expand($0, counters: effects.counters, at: t) }
            .joined(separator: settings.separator)
    }

    /// Whether the stream is frozen.
    var isPaused: Bool { timeline.isPaused }

    /// The tape for `messages`, this channel's separator, gap and counters.
    func tape(_ messages: [TapeMessage], at t: Instant) -> Tape {
        if effects.counters.isEmpty, let built = builtTape, built.separator == settings.separator, built.gap == settings.gap,
           let edited = Tape(messages: messages, separator: settings.separator, gap: settings.gap, editing: built.tape,
                             builtFrom: built.messages) {
            return edited
        }
        return Tape(messages: messages, separator: settings.separator, gap: settings.gap, counters: effects.counters, at: t)
    }

    /// The tape of what is on it now.
    func currentTape(at t: Instant) -> Tape {
        tape(zip(activeIDs, activeTexts).map { TapeMessage(key: $0, text: $1) }, at: t)
    }

    /// The frame a viewer of `columns` sees at `t`, effects applied.
    func frame(columns: Int, at t: Instant) -> Frame {
        timeline.frame(columns: columns, at: t, effects: effects)
    }
}

/// A tape built for a channel's messages without counters, and what it was built from.
struct BuiltTape: Sendable {
    /// The messages, in tape order (kept to edit the next tape from this one without putting
    /// them together again).
    let messages: [TapeMessage]
    /// Their texts (the channel's ``ChannelState/activeTexts`` while they are what it shows).
    let texts: [String]
    /// The separator between them.
    let separator: String
    /// The gap after them (nil: the separator).
    let gap: String?
    /// The tape of these messages, separator and gap, without counters.
    let tape: Tape
}
