import TickerModel

/// Where a message came from: posted over the bus (kept in the state file) or written in the
/// configuration file (replaced on each start and reload).
enum MessageOrigin: String, Codable, Sendable {
    /// Posted with `Control.Post`.
    case posted
    /// A `[[message]]` of the configuration file.
    case config
}

/// The effect a message asks for (DESIGN §4 "Effects"); the model's `MessageEffect` holds its timing.
enum EffectKind: String, Codable, Sendable, CaseIterable {
    /// Jumping dots on the trailing `...`.
    case dots
    /// Typewriter reveal over the `reveal` duration.
    case reveal
}

/// When a message is shown, as stored: the serialisable form of `ScheduleWindow`, keeping a
/// calendar window's expression text (it is parsed again, with the host's zones, when loaded).
enum MessageWindow: Codable, Sendable, Equatable {
    /// Always on, from posting until removed.
    case always
    /// On from `start` (inclusive) until `end` (exclusive); either may be open.
    case absolute(start: Instant?, end: Instant?)
    /// On for `microseconds` after posting.
    case timeToLive(microseconds: Int64)
    /// On during each occurrence of `calendar` for `duration` microseconds.
    case recurring(calendar: String, duration: Int64)
}

/// One message the daemon holds, shown or not.
///
/// The stored properties are declared widest first, so the small ones pack at the end (a stride
/// of 112 bytes instead of 120, for one record per message); the initializer keeps the
/// parameters in the order they are read.
struct MessageRecord: Codable, Sendable, Equatable {
    /// The message id, unique across channels.
    var id: String
    /// The channel whose tape shows it.
    var channel: String
    /// The sanitised text.
    var text: String
    /// When it is shown.
    var window: MessageWindow
    /// When it was posted (the start of a TTL).
    var postedAt: Instant
    /// The reveal duration in microseconds (effect `reveal`).
    var reveal: Int64?
    /// Higher priorities come first on the tape.
    var priority: Int32
    /// Whether it interrupts at once instead of joining at the next seam.
    var urgent: Bool
    /// Its effect, if any.
    var effect: EffectKind?
    /// Posted over the bus or from the configuration file.
    var origin: MessageOrigin
    /// The absolute URI a click on the message opens (`link`), if it has one.
    var link: String?

    /// A record of every field.
    init(
        id: String, channel: String, text: String, priority: Int32, urgent: Bool, window: MessageWindow,
        postedAt: Instant, effect: EffectKind?, reveal: Int64?, origin: MessageOrigin, link: String? = nil
    ) {
        self.id = id
        self.channel = channel
        self.text = text
        self.window = window
        self.postedAt = postedAt
        self.reveal = reveal
        self.priority = priority
        self.urgent = urgent
        self.effect = effect
        self.origin = origin
        self.link = link
    }
}
