import TickerModel

/// One entry of a feed, as the ticker shows it.
public struct FeedItem: Sendable, Hashable {
    /// The entry's own id (RSS `guid`, Atom `id`, JSON Feed `id`), or nil when it has none.
    public let id: String?
    /// The title as plain text: markup removed, entities decoded, white space collapsed; an entry
    /// without a title gives its description (RSS), summary (Atom) or content (JSON Feed) instead.
    public let title: String
    /// The absolute link to the entry (relative links resolved against `xml:base` and the feed's
    /// address), or nil.
    public let link: String?
    /// When it was published (or, lacking that, last updated), or nil when the feed does not say.
    public let date: Instant?

    /// An item with every field given.
    public init(id: String?, title: String, link: String?, date: Instant?) {
        self.id = id
        self.title = title
        self.link = link
        self.date = date
    }

    /// A key that stays the same while the entry does: its id, else its link, else its title.
    public var key: String { id ?? link ?? title }
}
