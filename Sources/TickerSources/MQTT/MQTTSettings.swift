/// How the MQTT source reaches its broker and which topic tree it follows (its `[[source]]` keys).
///
/// Guarantees: the values were checked when the configuration was read: the topic prefix has no
/// wildcards and no empty level, the port is 1–65535, the keepalive 5 s to 65535 s, and the TLS
/// files are absolute paths (a certificate goes with its key).
public struct MQTTSettings: Hashable, Sendable {
    /// The MQTT protocol version spoken.
    public enum ProtocolVersion: String, Hashable, Sendable, CaseIterable {
        /// MQTT 5.
        case mqtt5
        /// MQTT 3.1.1.
        case mqtt311
    }

    /// The broker's host name or address.
    public var host: String
    /// The broker's port (1883, or 8883 with TLS, unless given).
    public var port: Int32
    /// The fleet's topic prefix (`tickerd/lobby`): messages are `<prefix>/<channel>/<id>`.
    public var topic: String
    /// The client id the broker knows this screen by (unique per screen).
    public var clientID: String
    /// The user name, if the broker wants one.
    public var username: String?
    /// The password (read from `password-file` when given that way).
    public var password: String?
    /// The CA certificate file that makes the connection TLS.
    public var caFile: String?
    /// The client certificate and its key, for brokers that want one.
    public var certFile: String?
    /// The client certificate's key.
    public var keyFile: String?
    /// The keepalive in seconds.
    public var keepalive: Int32
    /// The protocol version.
    public var protocolVersion: ProtocolVersion
    /// The topic this client publishes a token to and reads it back from, which marks the end of
    /// the broker's retained messages (`tickerd/sync/<client id>` by default).
    public var syncTopic: String
    /// The longest wait between two reconnection attempts, in seconds (they start at 1 s and grow).
    public var reconnectMax: UInt32
    /// How long after subscribing the source waits for its sync token before it takes what it
    /// received as the broker's whole retained state (microseconds).
    public var syncTimeout: Int64

    /// The subscription that covers the fleet's tree.
    public var treeFilter: String { topic + "/#" }

    /// Settings for `host` and `topic`; the rest defaulted as documented in docs/sources.md.
    public init(
        host: String, port: Int32? = nil, topic: String, clientID: String, username: String? = nil,
        password: String? = nil, caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil,
        keepalive: Int32 = 60, protocolVersion: ProtocolVersion = .mqtt5, syncTopic: String? = nil,
        reconnectMax: UInt32 = 30, syncTimeout: Int64 = 5_000_000
    ) {
        self.host = host
        self.port = port ?? (caFile == nil ? 1883 : 8883)
        self.topic = topic
        self.clientID = clientID
        self.username = username
        self.password = password
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.keepalive = keepalive
        self.protocolVersion = protocolVersion
        self.syncTopic = syncTopic ?? "tickerd/sync/\(clientID)"
        self.reconnectMax = reconnectMax
        self.syncTimeout = syncTimeout
    }

    /// Whether `filter` is a usable topic prefix: non-empty levels, no wildcards, no leading `$`.
    static func prefixProblem(_ filter: String) -> String? {
        if filter.isEmpty { return "must not be empty" }
        if filter.hasPrefix("$") { return "must not start with '$' (those topics are the broker's)" }
        if filter.contains("+") || filter.contains("#") { return "must not contain the wildcards '+' or '#'" }
        if filter.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "must not have an empty level (no leading, trailing or double '/')"
        }
        if filter.utf8.count > 200 { return "must be at most 200 bytes" }
        return nil
    }
}
