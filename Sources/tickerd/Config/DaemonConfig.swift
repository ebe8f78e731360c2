import TickerModel

/// The configuration file, read and checked: limits, channel settings and scheduled messages.
struct DaemonConfig: Sendable, Equatable {
    /// `[limits]`.
    var limits = DaemonLimits.standard
    /// `[channel.NAME]` sections, by channel name.
    var channels: [String: ConfiguredChannel] = [:]
    /// `[[message]]` entries, in file order.
    var messages: [ConfiguredMessage] = []

    /// The configuration used when there is no file: defaults, no messages.
    static let empty = DaemonConfig()
}

/// A `[channel.NAME]` section.
struct ConfiguredChannel: Sendable, Equatable {
    /// The settings it sets.
    var request: ChannelConfigureRequest
    /// A digest of the section, to notice when the file changed it.
    var digest: String
}

/// A `[[message]]` entry.
struct ConfiguredMessage: Sendable, Equatable {
    /// Its id (given, or `config-<n>` by position).
    var id: String
    /// Its channel (default `main`).
    var channel: String
    /// Its text.
    var text: String
    /// Its options (priority, window, effect).
    var request: MessageRequest
}
