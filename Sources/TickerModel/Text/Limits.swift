/// Configurable size limits for text and channels (DESIGN §4).
public struct Limits: Sendable, Hashable {
    /// The most extended grapheme clusters one message may hold.
    public var clustersPerMessage: Int
    /// The most active messages one channel may hold.
    public var messagesPerChannel: Int
    /// The most channels the daemon may hold.
    public var channels: Int

    /// Creates limits; every value must be positive.
    public init(clustersPerMessage: Int = 4096, messagesPerChannel: Int = 1000, channels: Int = 64) {
        self.clustersPerMessage = clustersPerMessage
        self.messagesPerChannel = messagesPerChannel
        self.channels = channels
    }

    /// The defaults of DESIGN §4: 4096 clusters a message, 1000 messages a channel, 64 channels.
    public static let standard = Limits()
}
