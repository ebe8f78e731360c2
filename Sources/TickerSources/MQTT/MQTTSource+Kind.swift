import Glibc
import TOMLConfig

extension MQTTSource {
    /// The `mqtt` kind: keys `host`, `port`, `topic`, `client-id`, `username`, `password`,
    /// `password-file`, `ca-file`, `cert-file`, `key-file`, `keepalive`, `protocol`,
    /// `sync-topic`, `reconnect-max`, `sync-timeout`; fields `{text}`, `{channel}`, `{id}`.
    public static let kind = SourceKind(
        name: "mqtt", fields: ["text", "channel", "id"],
        keys: [
            "host", "port", "topic", "client-id", "username", "password", "password-file", "ca-file", "cert-file",
            "key-file", "keepalive", "protocol", "sync-topic", "reconnect-max", "sync-timeout",
        ],
        needsNetwork: { _ in true }
    ) { table throws(ConfigError) in
        MQTTSource(settings: try readSettings(table))
    }

    static func readSettings(_ table: ConfigTable) throws(ConfigError) -> MQTTSettings {
        guard let host = try table.string("host"), !host.isEmpty else {
            throw table.error(nil, "missing key 'host' (the broker's host name or address)")
        }
        guard let topic = try table.string("topic") else {
            throw table.error(nil, "missing key 'topic' (the fleet's topic prefix, e.g. \"tickerd/lobby\")")
        }
        if let problem = MQTTSettings.prefixProblem(topic) { throw table.error("topic", problem) }
        var port: Int32?
        if let value = try table.int("port") {
            guard (1...65535).contains(value) else { throw table.error("port", "must be 1 to 65535") }
            port = Int32(value)
        }
        var clientID = try table.string("client-id") ?? ""
        if try table.string("client-id") == nil { clientID = try defaultClientID(table) }
        guard (1...128).contains(clientID.utf8.count), clientID.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
              !clientID.contains("+"), !clientID.contains("#"), !clientID.contains("/") else {
            throw table.error("client-id", "a client id is 1 to 128 visible ASCII characters without '/', '+' and '#'")
        }
        let username = try table.string("username")
        var password = try table.string("password")
        if let file = try table.string("password-file") {
            guard password == nil else { throw table.error("password-file", "give 'password' or 'password-file', not both") }
            password = try readSecret(file, table)
        }
        if password != nil, username == nil { throw table.error("password", "a password goes with a 'username'") }
        let caFile = try absolute(table, "ca-file")
        let certFile = try absolute(table, "cert-file")
        let keyFile = try absolute(table, "key-file")
        if (certFile == nil) != (keyFile == nil) {
            throw table.error(certFile == nil ? "key-file" : "cert-file", "'cert-file' and 'key-file' go together")
        }
        if certFile != nil, caFile == nil { throw table.error("cert-file", "a client certificate needs TLS: give 'ca-file'") }
        var keepalive: Int32 = 60
        if let span = try SourcesConfigLoader.timeSpan(table, "keepalive") {
            guard (5_000_000...65_535_000_000).contains(span) else { throw table.error("keepalive", "must be 5s to 65535s") }
            keepalive = Int32(span / 1_000_000)
        }
        var version = MQTTSettings.ProtocolVersion.mqtt5
        if let text = try table.string("protocol") {
            guard let chosen = MQTTSettings.ProtocolVersion(rawValue: text) else {
                throw table.error("protocol", "must be \"mqtt5\" or \"mqtt311\"")
            }
            version = chosen
        }
        let syncTopic = try table.string("sync-topic").map { $0.replacingClientID(with: clientID) }
        if let syncTopic, MQTTSettings.prefixProblem(syncTopic) != nil || syncTopic.hasPrefix(topic + "/") {
            throw table.error("sync-topic", "must be a plain topic (no wildcards or empty levels) outside 'topic'")
        }
        var reconnectMax: UInt32 = 30
        if let span = try SourcesConfigLoader.timeSpan(table, "reconnect-max") {
            guard (1_000_000...3_600_000_000).contains(span) else { throw table.error("reconnect-max", "must be 1s to 1h") }
            reconnectMax = UInt32(span / 1_000_000)
        }
        var syncTimeout: Int64 = 5_000_000
        if let span = try SourcesConfigLoader.timeSpan(table, "sync-timeout") {
            guard (100_000...600_000_000).contains(span) else { throw table.error("sync-timeout", "must be 100ms to 10min") }
            syncTimeout = span
        }
        return MQTTSettings(
            host: host, port: port, topic: topic, clientID: clientID, username: username, password: password,
            caFile: caFile, certFile: certFile, keyFile: keyFile, keepalive: keepalive, protocolVersion: version,
            syncTopic: syncTopic, reconnectMax: reconnectMax, syncTimeout: syncTimeout)
    }

    /// `tickerd-<host name>-<source name>`.
    private static func defaultClientID(_ table: ConfigTable) throws(ConfigError) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "host"
        let name = try table.string("name") ?? "mqtt"
        return "tickerd-\(host.isEmpty ? "host" : host)-\(name)"
    }

    private static func absolute(_ table: ConfigTable, _ key: String) throws(ConfigError) -> String? {
        guard let path = try table.string(key) else { return nil }
        guard path.hasPrefix("/") else { throw table.error(key, "must be an absolute path") }
        guard access(path, R_OK) == 0 else { throw table.error(key, "cannot read '\(path)': \(String(cString: strerror(errno)))") }
        return path
    }

    /// The first line of a secret file.
    private static func readSecret(_ path: String, _ table: ConfigTable) throws(ConfigError) -> String {
        guard path.hasPrefix("/") else { throw table.error("password-file", "must be an absolute path") }
        guard let file = fopen(path, "rb") else {
            throw table.error("password-file", "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { throw table.error("password-file", "'\(path)' is empty") }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let secret = line.hasSuffix("\n") ? String(line.dropLast()) : line
        guard !secret.isEmpty else { throw table.error("password-file", "'\(path)' starts with an empty line") }
        return secret
    }
}

extension String {
    /// The text with each `%c` replaced by `clientID` (as in mosquitto's ACL patterns).
    fileprivate func replacingClientID(with clientID: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: "%c") {
            result += rest[..<range.lowerBound] + clientID
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
