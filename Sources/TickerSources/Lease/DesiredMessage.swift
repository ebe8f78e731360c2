import DBus

/// A message as a source wants it shown now (what the lease manager keeps tickerd in line with).
public struct DesiredMessage: Hashable, Sendable {
    /// Its channel.
    public var channel: String
    /// Its text (already rendered; never empty).
    public var text: String
    /// Its priority.
    public var priority: Int32
    /// Whether it switches in at once.
    public var urgent: Bool
    /// The URI it opens when activated.
    public var link: String?
    /// When it ends by itself (microseconds since the Unix epoch), if it does.
    public var expires: Int64?
    /// Further `Post` options (`start`, `effect`, `reveal`), as tickerd lists them back.
    public var options: [String: DBusValue] = [:]

    /// When it starts, if it is scheduled (`start`, microseconds since the Unix epoch).
    var start: Int64? { options["start"]?.int64Value }

    /// Whether tickerd's copy `held` was posted with the same further options as far as they
    /// matter at `now`: two starts that have both passed (or are absent) count as the same.
    func hasSameOptions(as held: DesiredMessage, at now: Int64) -> Bool {
        var mine = options
        var theirs = held.options
        if (start ?? .min) <= now, (held.start ?? .min) <= now {
            mine["start"] = nil
            theirs["start"] = nil
        }
        return mine == theirs
    }

    /// Whether tickerd's copy `held` shows the same (ignoring when each ends).
    func looksLike(_ held: DesiredMessage) -> Bool {
        channel == held.channel && text == held.text && priority == held.priority && urgent == held.urgent
            && (link ?? "") == (held.link ?? "")
    }
}
