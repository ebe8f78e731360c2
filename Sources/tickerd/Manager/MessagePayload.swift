import TickerModel

/// What the daemon keeps of a message beside its schedule entry: the entry already holds the id,
/// priority, urgency, posting time and window, so a ``MessageRecord`` is put together from both
/// (``MessageTable``) instead of holding them a second time.
///
/// Kept small, one per message: the channel is a number the ``MessageTable`` gives each channel
/// name (its name is held once, not once per message), and the fields few messages have (a
/// calendar's text, a reveal duration, a link) share one optional box. Four words.
struct MessagePayload: Sendable, Equatable {
    /// The sanitised text.
    var text: String
    /// The calendar text, reveal and link, when the message has any of them.
    private var extras: Extras?
    /// The number of the channel whose tape shows it (``MessageTable``'s numbering).
    var channel: Int32
    /// Its effect, if any.
    var effect: EffectKind?
    /// Posted over the bus or from the configuration file.
    var origin: MessageOrigin

    /// The fields few messages have.
    private final class Extras: Sendable, Equatable {
        /// A recurring window's calendar expression as given (the entry holds it parsed).
        let calendar: String?
        /// The reveal duration in microseconds (effect `reveal`).
        let reveal: Int64?
        /// The URI a click opens.
        let link: String?

        init(calendar: String?, reveal: Int64?, link: String?) {
            self.calendar = calendar
            self.reveal = reveal
            self.link = link
        }

        static func == (a: Extras, b: Extras) -> Bool {
            a.calendar == b.calendar && a.reveal == b.reveal && a.link == b.link
        }
    }

    /// The parts of `record` its schedule entry does not hold, with `channel` the number of
    /// `record.channel`.
    init(_ record: MessageRecord, channel: Int32) {
        text = record.text
        self.channel = channel
        effect = record.effect
        origin = record.origin
        var calendar: String?
        if case let .recurring(expression, _) = record.window { calendar = expression }
        if calendar != nil || record.reveal != nil || record.link != nil {
            extras = Extras(calendar: calendar, reveal: record.reveal, link: record.link)
        }
    }

    /// The record of this payload, its message's schedule `entry` and its channel's name.
    func record(with entry: ScheduleEntry, channelName: String) -> MessageRecord {
        let window: MessageWindow
        switch entry.window {
        case .always: window = .always
        case let .absolute(start, end): window = .absolute(start: start, end: end)
        case let .timeToLive(microseconds): window = .timeToLive(microseconds: microseconds)
        case let .recurring(_, duration): window = .recurring(calendar: extras?.calendar ?? "", duration: duration)
        }
        return MessageRecord(
            id: entry.id, channel: channelName, text: text, priority: entry.priority, urgent: entry.isUrgent,
            window: window, postedAt: entry.postedAt, effect: effect, reveal: extras?.reveal, origin: origin,
            link: extras?.link)
    }
}
