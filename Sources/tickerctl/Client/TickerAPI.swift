import DBus

/// Names of the daemon's D-Bus API, version 1 (DESIGN.md §3).
enum TickerAPI {
    /// The daemon's well-known bus name.
    static let busName = "io.github.tickerd.Ticker1"
    /// The manager object's path as text.
    static let managerPathString = "/io/github/tickerd/Ticker1"
    /// The manager object's path.
    static var managerPath: ObjectPath {
        get throws { try ObjectPath(managerPathString) }
    }
    /// The read-only manager interface (`Version`, `Channels`).
    static let managerInterface = "io.github.tickerd.Ticker1.Manager"
    /// The interface of every write.
    static let controlInterface = "io.github.tickerd.Ticker1.Control"
    /// The read-only interface of each channel object.
    static let channelInterface = "io.github.tickerd.Ticker1.Channel"
    /// The standard properties interface.
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// The prefix of the daemon's own error names.
    static let errorPrefix = "io.github.tickerd.Ticker1.Error."
    /// The channel used when none is given.
    static let defaultChannel = "main"

    /// The object path of channel `name`, or a usage error for a name outside `[A-Za-z0-9_]{1,64}`.
    static func channelPath(_ name: String) throws -> ObjectPath {
        let valid = (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F
        }
        guard valid else {
            throw UsageError("channel name '\(name)' must be 1 to 64 letters, digits or underscores")
        }
        return try ObjectPath(managerPathString + "/channel/" + name)
    }
}
