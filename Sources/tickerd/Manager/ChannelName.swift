/// Channel names: `[A-Za-z0-9_]{1,64}`, so each one is a valid object path element.
enum ChannelName {
    /// The channel that always exists.
    static let main = "main"

    /// Whether `name` is a valid channel name.
    static func isValid(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count) else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
    }

    /// `name` itself when valid, else `InvalidChannel` saying what is allowed.
    static func checked(_ name: String) throws(TickerError) -> String {
        guard isValid(name) else {
            throw .invalidChannel(
                "channel name '\(name)' is not allowed: use 1 to 64 of A-Z, a-z, 0-9 and _")
        }
        return name
    }
}
