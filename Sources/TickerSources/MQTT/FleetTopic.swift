import TickerNames

/// Where a topic of the fleet's tree points: `<prefix>/<channel>/<id>` is a message,
/// `<prefix>/<channel>/$settings` the channel's settings.
///
/// Guarantees: a message's channel is a valid channel name and its id 1–128 visible ASCII
/// characters without `/`; anything else under the prefix is ``invalid(_:)`` with the reason.
enum FleetTopic: Hashable, Sendable {
    /// The last level that carries a channel's settings.
    static let settingsLevel = "$settings"

    /// A message of `channel` with `id`.
    case message(channel: String, id: String)
    /// The settings of `channel`.
    case settings(channel: String)
    /// Not a topic of the tree, and why.
    case invalid(String)

    /// Reads `topic` under `prefix` (nil when it is not under the prefix at all).
    init?(_ topic: String, prefix: String) {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2 else {
            self = .invalid("expected <prefix>/<channel>/<id>, got \(levels.count) level(s) after the prefix")
            return
        }
        let channel = String(levels[0])
        let last = String(levels[1])
        guard TickerBus.isValidChannelName(channel) else {
            self = .invalid("'\(channel)' is not a channel name (\(TickerBus.channelNameRule))")
            return
        }
        if last == Self.settingsLevel {
            self = .settings(channel: channel)
        } else if (1...128).contains(last.utf8.count), last.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
                  !last.hasPrefix("$") {
            self = .message(channel: channel, id: last)
        } else {
            self = .invalid("a message id is 1 to 128 visible ASCII characters, not starting with '$'")
        }
    }
}
