/// The daemon's channels by name, noting which names were set or removed since ``markStored()``,
/// so the state journal records only those channels.
struct ChannelTable: Sendable {
    private var channels: [String: ChannelState] = [:]
    /// Names set or removed since the last ``markStored()`` (a set channel may be unchanged;
    /// the store compares it with what it last wrote).
    private(set) var unstored: Set<String> = []

    /// An empty table.
    init() {}

    /// How many channels there are.
    var count: Int { channels.count }

    /// Every channel's name, in no particular order.
    var keys: Dictionary<String, ChannelState>.Keys { channels.keys }

    /// Every channel, in no particular order.
    var values: Dictionary<String, ChannelState>.Values { channels.values }

    /// The channel named `name`; setting one adds or replaces it, setting nil removes it.
    subscript(name: String) -> ChannelState? {
        get { channels[name] }
        set {
            channels[name] = newValue
            unstored.insert(name)
        }
    }

    /// Forgets which names changed: the state as it is now is stored.
    mutating func markStored() {
        unstored.removeAll()
    }
}
