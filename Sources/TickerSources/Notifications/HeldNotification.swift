/// One notification the server holds, as it is shown and as it is saved across a restart.
struct HeldNotification: Codable, Equatable {
    /// The sending application's name (plain text).
    var app: String
    /// Its summary (plain text).
    var summary: String
    /// Its body (plain text).
    var body: String
    /// Whether it was sent with urgency critical.
    var urgent: Bool
    /// The keys of its actions.
    var actions: [String]
    /// When it expires (microseconds since the epoch); nil: when it is closed.
    var expires: Int64?
    /// Its stack tag (`x-dunst-stack-tag`, `x-canonical-private-synchronous`): a later
    /// notification of the same app and tag replaces it.
    var tag: String?
}

/// The notifications a server holds, saved so that a restarted service goes on serving them.
///
/// Guarantees: it round-trips through JSON unchanged, in the order the notifications came.
struct SavedNotifications: Codable, Equatable {
    /// One notification with its id.
    struct Entry: Codable, Equatable {
        /// The id `Notify` returned.
        var id: UInt32
        /// The notification.
        var notification: HeldNotification
    }

    /// The notifications, oldest first.
    var entries: [Entry]
    /// The id the next new notification is given.
    var nextID: UInt32
}
