import TickerModel

/// What a feed subscription keeps across a restart of the service: the last good items, the
/// feed's title, when it was last read successfully and the validators for the next request.
///
/// Guarantees: it round-trips through JSON unchanged, and it names the URL it was read from, so
/// a subscription to another URL never takes it.
public struct SavedFeed: Codable, Sendable, Equatable {
    /// One saved entry (``FeedItem``'s fields).
    public struct Entry: Codable, Sendable, Equatable {
        /// The entry's id, if it has one.
        public var id: String?
        /// Its title as plain text.
        public var title: String
        /// Its absolute link, if any.
        public var link: String?
        /// When it was published (microseconds since the epoch), if the feed says.
        public var date: Instant?
    }

    /// The subscribed URL (as configured, before redirects).
    public var url: String
    /// When the feed was last read successfully (microseconds since the epoch).
    public var lastGood: Instant
    /// The feed's title.
    public var title: String
    /// The entries in the feed's own order.
    public var entries: [Entry]
    /// The ETag of the last full answer, if any.
    public var etag: String?
    /// The Last-Modified of the last full answer, if any.
    public var lastModified: String?
}
