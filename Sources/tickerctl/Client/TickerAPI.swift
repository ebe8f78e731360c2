import DBus
import TickerNames

/// Names of the daemon's D-Bus API as tickerctl uses them (``TickerBus`` holds each one once).
enum TickerAPI {
    /// The daemon's well-known bus name.
    static let busName = TickerBus.name
    /// The manager object's path as text.
    static let managerPathString = TickerBus.managerPath
    /// The manager object's path.
    static var managerPath: ObjectPath {
        get throws { try ObjectPath(managerPathString) }
    }
    /// The read-only manager interface (`Version`, `Channels`).
    static let managerInterface = TickerBus.managerInterface
    /// The interface of every write.
    static let controlInterface = TickerBus.controlInterface
    /// The read-only interface of each channel object.
    static let channelInterface = TickerBus.channelInterface
    /// The standard properties interface.
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// The prefix of the daemon's own error names.
    static let errorPrefix = TickerBus.errorPrefix
    /// The channel used when none is given.
    static let defaultChannel = TickerBus.mainChannel

    /// The object path of channel `name`, or a usage error for a name outside `[A-Za-z0-9_]{1,64}`.
    static func channelPath(_ name: String) throws -> ObjectPath {
        guard TickerBus.isValidChannelName(name) else {
            throw UsageError("channel name '\(name)' must be 1 to 64 letters, digits or underscores")
        }
        return try ObjectPath(TickerBus.channelPath(name))
    }
}
