import TickerModel

/// Why a message left its channel's tape (the `u reason` of `MessageEnded`).
enum MessageEndReason: UInt32, Sendable {
    /// Its window closed or it expired.
    case expired = 1
    /// It was removed (`Remove`, or gone from the configuration on reload).
    case removed = 2
    /// A `Post` with the same id replaced it.
    case replaced = 3
}

/// Which of a channel's published properties changed.
struct ChannelChanges: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    /// `Text`.
    static let text = ChannelChanges(rawValue: 1 << 0)
    /// `Timeline` (motion changed discontinuously).
    static let timeline = ChannelChanges(rawValue: 1 << 1)
    /// `Messages` (the active ids).
    static let messages = ChannelChanges(rawValue: 1 << 2)
    /// `Paused`.
    static let paused = ChannelChanges(rawValue: 1 << 3)
    /// `Columns`.
    static let columns = ChannelChanges(rawValue: 1 << 4)
    /// `FrameRate`.
    static let frameRate = ChannelChanges(rawValue: 1 << 5)
    /// `Subscribers`.
    static let subscribers = ChannelChanges(rawValue: 1 << 6)
}

/// What the manager tells the outside world (the bus surface) about a change, once it is stored.
enum ManagerEvent: Sendable, Equatable {
    /// A channel was created.
    case channelAdded(String)
    /// Properties of a channel changed.
    case channelChanged(String, ChannelChanges)
    /// A message joined its channel's tape.
    case messageStarted(channel: String, id: String)
    /// A message left its channel's tape.
    case messageEnded(channel: String, id: String, reason: MessageEndReason)
    /// A counter reached its target value.
    case valueReached(channel: String, name: String, value: Double)
}

/// Receives the manager's events and frames; the bus surface implements it.
protocol ManagerObserver: AnyObject {
    /// An event of a change that is stored (see ``ManagerEvent``).
    func manager(_ manager: Manager, didEmit event: ManagerEvent)
    /// The events of one stored change have all been delivered (their signals are out): the time
    /// for what only follows them, such as log lines.
    func managerDidDeliverEvents(_ manager: Manager)
    /// A frame for one subscriber (`destination`), or a broadcast (`destination` nil); false when
    /// it was dropped (the bus is not taking frames now), so the stream tries again next interval.
    func manager(_ manager: Manager, sendFrame frame: Frame, channel: String, to destination: String?) -> Bool
}
