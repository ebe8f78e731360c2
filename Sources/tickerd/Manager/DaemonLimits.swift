import TickerModel

/// The daemon's limits (configurable under `[limits]`): text length (clusters, bytes and scalars
/// a cluster), messages a channel, channels, and subscribers, each answered with `LimitExceeded`
/// when reached.
struct DaemonLimits: Sendable, Equatable {
    /// Text and count limits of the model.
    var model: Limits = .standard
    /// Subscriptions at once, over all channels.
    var subscribers: Int = 256

    /// The defaults: 4096 clusters, 65536 bytes and clusters of at most 32 scalars a message,
    /// 1000 messages a channel, 64 channels, 256 subscribers.
    static let standard = DaemonLimits()
}
