import DBus

/// One thing a source shows now: a now-playing track, a notification, a calendar event, a feed
/// entry, a command's line. The lease manager turns it into one ticker message.
///
/// Guarantees: `key` identifies the item within its source for as long as it is current (the same
/// item keeps the same key across publishes and service restarts), so its message keeps its id.
public struct SourceItem: Hashable, Sendable {
    /// The item's identity within its source (any text; the message id is derived from it).
    public var key: String
    /// The values the source's template may name (`{artist}`, `{summary}`, …).
    public var fields: [String: String]
    /// An absolute URI the message opens when activated, if the item has one.
    public var link: String?
    /// Whether the message switches in at once (e.g. a critical notification).
    public var urgent: Bool
    /// Which of the source's templates renders the item: `nil` for the main `template`, else the
    /// name of an alternative form (e.g. `"paused"`); a form the source has no template for hides
    /// the item.
    public var form: String?
    /// When the item stops being current by itself (microseconds since the Unix epoch), if it
    /// knows: its message never outlives this instant, even if the service stops renewing.
    public var expires: Int64?
    /// The channel of its message when not its source's (a fleet message names its own).
    public var channel: String?
    /// The priority of its message when not its source's.
    public var priority: Int32?
    /// Further `Post` options passed through as they are (`start`, `effect`, `reveal`); a change
    /// of these replaces the message (`Post` with its id) rather than updating it.
    public var options: [String: DBusValue]

    /// An item with `key` and `fields`; the rest optional.
    public init(
        key: String, fields: [String: String], link: String? = nil, urgent: Bool = false,
        form: String? = nil, expires: Int64? = nil, channel: String? = nil, priority: Int32? = nil,
        options: [String: DBusValue] = [:]
    ) {
        self.key = key
        self.fields = fields
        self.link = link
        self.urgent = urgent
        self.form = form
        self.expires = expires
        self.channel = channel
        self.priority = priority
        self.options = options
    }
}
