import DBus
import TickerNames

/// The daemon's errors, each answered on the bus as `io.github.tickerd.Ticker1.Error.<Name>` with a
/// message a person can act on (see docs/dbus-api.md, "Errors").
enum TickerError: Error, Equatable, CustomStringConvertible, DBusErrorConvertible {
    /// A text the rendering rules refuse: a forbidden character, too long, `dots` without `...`.
    case invalidText(String)
    /// An unknown option key, a value of the wrong type, or a value out of range.
    case invalidOption(String)
    /// A channel name outside `[A-Za-z0-9_]{1,64}`.
    case invalidChannel(String)
    /// A channel that does not exist.
    case noSuchChannel(String)
    /// A message id that is not there.
    case noSuchMessage(String)
    /// A calendar expression that does not parse.
    case invalidCalendar(String)
    /// Too many messages, channels or subscribers.
    case limitExceeded(String)
    /// The state could not be stored; the change was not made.
    case storageFailed(String)
    /// The configuration file is bad; the old configuration stays in force.
    case invalidConfig(String)
    /// A local motion change (pause) asked of a phase-locked channel.
    case phaseLocked(String)

    /// The prefix of every tickerd error name.
    static let namePrefix = TickerBus.errorPrefix

    /// The last part of the error name, e.g. `InvalidText`.
    var shortName: String {
        switch self {
        case .invalidText: return TickerBus.Error.invalidText.rawValue
        case .invalidOption: return TickerBus.Error.invalidOption.rawValue
        case .invalidChannel: return TickerBus.Error.invalidChannel.rawValue
        case .noSuchChannel: return TickerBus.Error.noSuchChannel.rawValue
        case .noSuchMessage: return TickerBus.Error.noSuchMessage.rawValue
        case .invalidCalendar: return TickerBus.Error.invalidCalendar.rawValue
        case .limitExceeded: return TickerBus.Error.limitExceeded.rawValue
        case .storageFailed: return TickerBus.Error.storageFailed.rawValue
        case .invalidConfig: return TickerBus.Error.invalidConfig.rawValue
        case .phaseLocked: return TickerBus.Error.phaseLocked.rawValue
        }
    }

    /// The message a person reads.
    var message: String {
        switch self {
        case .invalidText(let text), .invalidOption(let text), .invalidChannel(let text),
            .noSuchChannel(let text), .noSuchMessage(let text), .invalidCalendar(let text),
            .limitExceeded(let text), .storageFailed(let text), .invalidConfig(let text),
            .phaseLocked(let text):
            return text
        }
    }

    var description: String { "\(shortName): \(message)" }

    var dbusError: DBusError { DBusError(name: Self.namePrefix + shortName, message: message) }
}
