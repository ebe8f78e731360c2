import DBus
import TickerNames

/// The names of tickerd's D-Bus API as the daemon uses them (``TickerBus`` holds each one once).
enum BusNames {
    /// The well-known bus name.
    static let service = TickerBus.name
    /// The read-only manager interface.
    static let managerInterface = TickerBus.managerInterface
    /// The write interface.
    static let controlInterface = TickerBus.controlInterface
    /// The per-channel read-only interface.
    static let channelInterface = TickerBus.channelInterface
    /// The manager object's path.
    static let managerPath = TickerBus.managerPath

    /// The object path of channel `name` (a valid channel name is a valid path element).
    static func channelPath(_ name: String) throws -> ObjectPath {
        try ObjectPath(TickerBus.channelPath(name))
    }
}
