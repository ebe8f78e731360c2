import TickerModel

/// What the daemon keeps of a message beside its schedule entry: the entry already holds the id,
/// priority, urgency, posting time and window, so a ``MessageRecord`` is put together from both
/// (``MessageTable``) instead of holding them a second time.
struct MessagePayload: Sendable, Equatable {
    /// The channel whose tape shows it.
    var channel: String
    /// The sanitised text.
    var text: String
    /// A recurring window's calendar expression as given (the entry holds it parsed).
    var calendar: String?
    /// The reveal duration in microseconds (effect `reveal`).
    var reveal: Int64?
    /// Its effect, if any.
    var effect: EffectKind?
    /// Posted over the bus or from the configuration file.
    var origin: MessageOrigin
    /// The URI a click opens, if any.
    var link: String?

    /// The parts of `record` its schedule entry does not hold.
    init(_ record: MessageRecord) {
        channel = record.channel
        text = record.text
        if case let .recurring(calendar, _) = record.window { self.calendar = calendar }
        reveal = record.reveal
        effect = record.effect
        origin = record.origin
        link = record.link
    }

    /// The record of this payload and its message's schedule `entry`.
    func record(with entry: ScheduleEntry) -> MessageRecord {
        let window: MessageWindow
        switch entry.window {
        case .always: window = .always
        case let .absolute(start, end): window = .absolute(start: start, end: end)
        case let .timeToLive(microseconds): window = .timeToLive(microseconds: microseconds)
        case let .recurring(_, duration): window = .recurring(calendar: calendar ?? "", duration: duration)
        }
        return MessageRecord(
            id: entry.id, channel: channel, text: text, priority: Int32(truncatingIfNeeded: entry.priority),
            urgent: entry.isUrgent, window: window, postedAt: entry.postedAt, effect: effect, reveal: reveal,
            origin: origin, link: link)
    }
}
