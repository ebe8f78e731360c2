import TickerModel

/// A `Post` or `Update` after its options were read: what the caller asked for, not yet checked
/// against the schedule rules (that is `WindowRules.window(for:postedAt:now:)`).
struct MessageRequest: Sendable, Equatable {
    /// Replace the message with this id (Post) or keep it (Update).
    var id: String?
    /// The channel (Post: its argument; Update: may move the message).
    var channel: String?
    /// The text (Post: its argument; Update: optional new text).
    var text: String?
    /// Tape order: higher first.
    var priority: Int32?
    /// Interrupt at once instead of joining at the seam.
    var urgent: Bool?
    /// Shown for this long after posting.
    var ttl: Int64?
    /// Shown from this instant.
    var start: Instant?
    /// Shown until this instant.
    var end: Instant?
    /// Shown at each occurrence of this systemd calendar expression…
    var calendar: String?
    /// … for this long.
    var duration: Int64?
    /// Its effect.
    var effect: EffectKind?
    /// Update only: the effect is removed (`effect` `"none"`); running dots finish their wave.
    var removesEffect = false
    /// The reveal duration.
    var reveal: Int64?
    /// The absolute URI the message opens when activated (Update: "" removes it).
    var link: String?
}

/// A `Configure` after its options were read: each field present is changed.
struct ChannelConfigureRequest: Sendable, Equatable {
    /// Motion mode.
    var mode: Mode?
    /// Speed in cells per second.
    var speed: Double?
    /// Speed as a cycle duration in microseconds.
    var cycle: Int64?
    /// Hold/start delay in microseconds.
    var delay: Int64?
    /// Easing curve.
    var easing: Easing?
    /// Cycles before holding at home (0 = for ever).
    var loops: UInt32?
    /// Direction of motion.
    var direction: Direction?
    /// Placement of text that fits.
    var align: Align?
    /// Text between messages.
    var separator: String?
    /// Text after the last message.
    var gap: String?
    /// Broadcast and `Frame` columns.
    var columns: UInt32?
    /// Broadcast frames per second (0 = none).
    var frameRate: Double?
    /// What the motion is anchored to.
    var phase: Phase?

    /// Whether no field is set.
    var isEmpty: Bool { self == ChannelConfigureRequest() }

    /// `settings` with this request's motion fields applied.
    func applied(to settings: ChannelSettings) -> ChannelSettings {
        var result = settings
        if let mode { result.mode = mode }
        if let speed { result.speed = .cellsPerSecond(speed) }
        if let cycle { result.speed = .cycleDuration(cycle) }
        if let delay { result.delay = delay }
        if let easing { result.easing = easing }
        if let loops { result.loops = loops }
        if let direction { result.direction = direction }
        if let align { result.align = align }
        if let separator { result.separator = separator }
        if let gap { result.gap = gap }
        if let phase { result.phase = phase }
        return result
    }
}
