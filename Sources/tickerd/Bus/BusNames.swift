import DBus

/// The names of tickerd's D-Bus API, version 1 (DESIGN §3).
enum BusNames {
    /// The well-known bus name.
    static let service = "io.github.tickerd.Ticker1"
    /// The read-only manager interface.
    static let managerInterface = "io.github.tickerd.Ticker1.Manager"
    /// The write interface.
    static let controlInterface = "io.github.tickerd.Ticker1.Control"
    /// The per-channel read-only interface.
    static let channelInterface = "io.github.tickerd.Ticker1.Channel"
    /// The manager object's path.
    static let managerPath = "/io/github/tickerd/Ticker1"

    /// The object path of channel `name` (a valid channel name is a valid path element).
    static func channelPath(_ name: String) throws -> ObjectPath {
        try ObjectPath("\(managerPath)/channel/\(name)")
    }
}
