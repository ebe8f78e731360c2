/// Configurable size limits for text and channels (DESIGN §4).
public struct Limits: Sendable, Hashable {
    /// The most extended grapheme clusters one message may hold.
    public var clustersPerMessage: Int
    /// The most UTF-8 bytes one message may hold: bounds the work and memory of a text whose
    /// clusters are few but long, before any cluster is counted.
    public var bytesPerMessage: Int
    /// The most Unicode scalars one extended grapheme cluster may hold (a base and its marks,
    /// an emoji ZWJ sequence); a real text's longest clusters hold about a dozen.
    public var scalarsPerCluster: Int
    /// The most active messages one channel may hold.
    public var messagesPerChannel: Int
    /// The most channels the daemon may hold.
    public var channels: Int

    /// Creates limits; every value must be positive.
    public init(
        clustersPerMessage: Int = 4096, bytesPerMessage: Int = 65_536, scalarsPerCluster: Int = 32,
        messagesPerChannel: Int = 1000, channels: Int = 64
    ) {
        self.clustersPerMessage = clustersPerMessage
        self.bytesPerMessage = bytesPerMessage
        self.scalarsPerCluster = scalarsPerCluster
        self.messagesPerChannel = messagesPerChannel
        self.channels = channels
    }

    /// The defaults of DESIGN §4: 4096 clusters, 65536 bytes and clusters of at most 32 scalars
    /// a message, 1000 messages a channel, 64 channels.
    public static let standard = Limits()
}
