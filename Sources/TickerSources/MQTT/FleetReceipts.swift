/// When this screen first received each fleet message that carries a `ttl`, kept in the
/// source's state file so that a restarted service counts the `ttl` from that first receipt.
///
/// Guarantees: ``receivedAt(topic:payload:now:)`` returns the instant recorded for exactly that
/// topic and payload, or records and returns `now`; a topic's record goes when its payload
/// changes or it is forgotten, so the file holds at most one record per current `ttl` message.
struct FleetReceipts: Codable, Equatable, Sendable {
    /// One message's first receipt.
    struct Receipt: Codable, Equatable, Sendable {
        /// The payload as received (JSON text).
        var payload: String
        /// When it was first received (microseconds since the Unix epoch).
        var received: Int64
    }

    /// The receipts by topic.
    private(set) var byTopic: [String: Receipt] = [:]

    /// The first receipt of `payload` on `topic`: the recorded one when the payload is the same,
    /// otherwise `now`, which is recorded.
    mutating func receivedAt(topic: String, payload: [UInt8], now: Int64) -> Int64 {
        let text = String(decoding: payload, as: UTF8.self)
        if let known = byTopic[topic], known.payload == text { return known.received }
        byTopic[topic] = Receipt(payload: text, received: now)
        return now
    }

    /// Forgets `topic`'s receipt; returns whether there was one.
    @discardableResult
    mutating func forget(_ topic: String) -> Bool {
        byTopic.removeValue(forKey: topic) != nil
    }
}
