import DBus
import TickerModel

/// A fleet message's payload: `text` and the `Post` options a fleet can use (the JSON Schema is
/// docs/fleet-message.schema.json).
///
/// Guarantees: ``init(json:)`` accepts exactly the schema's keys with their types and limits, and
/// reports the first problem otherwise; times are microseconds since the Unix epoch and durations
/// microseconds, as on the bus.
struct FleetMessage: Hashable, Sendable {
    /// The keys a payload may have.
    static let keys = ["text", "priority", "urgent", "ttl", "start", "end", "effect", "reveal", "link"]

    /// The message text.
    var text: String
    /// Its priority, when given.
    var priority: Int32?
    /// Whether it switches in at once.
    var urgent: Bool
    /// How long it shows after this screen received it.
    var ttl: Int64?
    /// When it starts showing.
    var start: Int64?
    /// When it ends.
    var end: Int64?
    /// `dots` or `reveal`.
    var effect: String?
    /// The reveal's duration.
    var reveal: Int64?
    /// What a click opens.
    var link: String?

    /// Reads a payload.
    init(json bytes: [UInt8]) throws(FleetPayloadError) {
        guard case .object(let object) = try JSONValue.parse(bytes) else {
            throw FleetPayloadError("the payload must be a JSON object with at least \"text\"")
        }
        for key in object.keys.sorted() where !Self.keys.contains(key) {
            if key == "calendar" || key == "duration" {
                throw FleetPayloadError("option '\(key)' is not available over MQTT: publish with start and end")
            }
            throw FleetPayloadError("unknown option '\(key)' (known: \(Self.keys.joined(separator: ", ")))")
        }
        guard case .string(let text)? = object["text"] else {
            throw FleetPayloadError(object["text"] == nil
                ? "missing \"text\"" : "\"text\" must be a string, got \(object["text"]!.typeName)")
        }
        guard !text.isEmpty else { throw FleetPayloadError("\"text\" must not be empty (an empty payload removes)") }
        self.text = text
        if let value = try Self.integer(object, "priority") {
            guard let exact = Int32(exactly: value) else { throw FleetPayloadError("\"priority\" must fit in 32 bits") }
            priority = exact
        }
        switch object["urgent"] {
        case nil: urgent = false
        case .bool(let value)?: urgent = value
        case let other?: throw FleetPayloadError("\"urgent\" must be a boolean, got \(other.typeName)")
        }
        ttl = try Self.integer(object, "ttl")
        start = try Self.integer(object, "start")
        end = try Self.integer(object, "end")
        if let ttl, ttl <= 0 { throw FleetPayloadError("\"ttl\" must be above 0 (microseconds)") }
        if ttl != nil, end != nil { throw FleetPayloadError("give \"ttl\" or \"end\", not both") }
        if let start, let end, end <= start { throw FleetPayloadError("\"end\" must be after \"start\"") }
        effect = try Self.string(object, "effect")
        if let effect, !["dots", "reveal"].contains(effect) {
            throw FleetPayloadError("\"effect\" must be \"dots\" or \"reveal\", got \"\(effect)\"")
        }
        if effect == "dots", !text.hasSuffix("...") {
            throw FleetPayloadError("\"effect\": \"dots\" needs a \"text\" that ends with three full stops '...'")
        }
        reveal = try Self.integer(object, "reveal")
        if let reveal, reveal < 0 { throw FleetPayloadError("\"reveal\" must not be negative (microseconds)") }
        if reveal != nil, effect != "reveal" { throw FleetPayloadError("\"reveal\" goes with \"effect\": \"reveal\"") }
        link = try Self.string(object, "link")
        if let link, let problem = LinkURI.problem(link) { throw FleetPayloadError("\"link\": \(problem)") }
    }

    /// The `Post` options passed through as they are (``SourceItem/options``).
    var passedOptions: [String: DBusValue] {
        var options: [String: DBusValue] = [:]
        if let start { options["start"] = .int64(start) }
        if let effect { options["effect"] = .string(effect) }
        if let reveal { options["reveal"] = .int64(reveal) }
        return options
    }

    /// When it stops showing, given that it was received at `receivedAt`.
    func expires(receivedAt: Int64) -> Int64? {
        if let end { return end }
        if let ttl { return receivedAt.addingReportingOverflow(ttl).overflow ? .max : receivedAt + ttl }
        return nil
    }

    private static func integer(_ object: [String: JSONValue], _ key: String) throws(FleetPayloadError) -> Int64? {
        switch object[key] {
        case nil: return nil
        case .integer(let value)?: return value
        case let other?: throw FleetPayloadError("\"\(key)\" must be an integer (microseconds or a count), got \(other.typeName)")
        }
    }

    private static func string(_ object: [String: JSONValue], _ key: String) throws(FleetPayloadError) -> String? {
        switch object[key] {
        case nil: return nil
        case .string(let value)?: return value
        case let other?: throw FleetPayloadError("\"\(key)\" must be a string, got \(other.typeName)")
        }
    }
}
