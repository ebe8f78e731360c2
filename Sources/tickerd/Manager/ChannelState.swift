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
        self.configDigest = nil
    }

    /// The full text of the active messages (the newest content while a change waits for its
    /// seam), for screen readers and tooltips.
    var text: String {
        (timeline.pending?.tape ?? timeline.tape).content
    }

    /// Whether the stream is frozen.
    var isPaused: Bool { timeline.isPaused }

    /// The tape for `texts` with this channel's separator and gap.
    func tape(for texts: [String]) -> Tape {
        Tape(messages: texts, separator: settings.separator, gap: settings.gap)
    }
}
