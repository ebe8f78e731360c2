import TickerNames

/// Channel names: `[A-Za-z0-9_]{1,64}`, so each one is a valid object path element.
enum ChannelName {
    /// The channel that always exists.
    static let main = TickerBus.mainChannel

    /// Whether `name` is a valid channel name.
    static func isValid(_ name: String) -> Bool {
        TickerBus.isValidChannelName(name)
    }

    /// `name` itself when valid, else `InvalidChannel` saying what is allowed.
    static func checked(_ name: String) throws(TickerError) -> String {
        guard isValid(name) else {
            throw .invalidChannel(
                "channel name '\(name)' is not allowed: use \(TickerBus.channelNameRule)")
        }
        return name
    }
}
