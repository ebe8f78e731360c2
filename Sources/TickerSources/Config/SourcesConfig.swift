/// The sources service's configuration (`sources.toml`): its lease and its sources.
public struct SourcesConfig {
    /// One configured source: how its items become messages, and the source itself.
    public struct Entry {
        /// Channel, priority, templates and name.
        public let binding: SourceBinding
        /// The kind named by `type`.
        public let kind: String
        /// Whether it needs the network.
        public let needsNetwork: Bool
        /// The source, not started yet.
        public let source: any ItemSource
        /// The canonical text of its `[[source]]` table: a reload restarts the source only when
        /// this differs (see `ConfigTable.fingerprint`).
        public var fingerprint: String = ""
    }

    /// The lease of every message.
    public var timing: LeaseTiming = .standard
    /// The sources, in file order.
    public var entries: [Entry] = []
}
