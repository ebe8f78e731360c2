import ArgumentParser
import DBus
import TickerHost
import TickerModel

/// `tickerctl list`: the messages the daemon holds.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the messages (all channels, or one)."
    )

    @OptionGroup var connection: BusOptions

    /// Only this channel.
    @Option(help: "Only this channel's messages.")
    var channel: String?

    /// JSON instead of a table.
    @Flag(help: "Print one JSON array (each message an object with its id and fields).")
    var json = false

    func run() throws {
        try FailureReporting.run {
            let reply = try DaemonClient(connection.bus).control("List", [.string(channel ?? "")])
            let messages = try MessageListing(reply: reply)
            if json {
                print(messages.json.text)
            } else {
                for line in messages.table(zones: ZoneInfoLoader(), now: WallClock.now()).lines { print(line) }
            }
        }
    }
}

/// The reply of `Control.List` (`a(sa{sv})`), as a table or JSON.
struct MessageListing {
    /// Each message: its id and its fields.
    var messages: [(id: String, fields: [String: DBusValue])]

    /// Reads the reply's `a(sa{sv})`.
    init(reply: [DBusValue]) throws(ClientFailure) {
        guard let items = reply.first?.arrayValue else {
            throw .unexpectedReply("List answered \(reply.map(\.type.signature))")
        }
        var messages: [(id: String, fields: [String: DBusValue])] = []
        for item in items {
            guard let fields = item.structureFields, fields.count == 2, let id = fields[0].stringValue,
                  let dictionary = fields[1].vardictValue else {
                throw .unexpectedReply("a List entry of type \(item.type.signature)")
            }
            messages.append((id, dictionary))
        }
        self.messages = messages
    }

    /// Field keys shown first, in this order; the text always comes last.
    static let leadingKeys = ["channel", "priority", "active", "urgent", "start", "end", "ttl", "calendar",
                              "duration", "effect", "reveal"]
    /// Keys holding instants (shown as local timestamps).
    static let instantKeys: Set<String> = ["start", "end", "posted", "postedAt", "next", "until"]
    /// Keys holding durations (shown as time spans).
    static let spanKeys: Set<String> = ["ttl", "duration", "reveal"]

    /// The messages as JSON: an array of objects, `id` first.
    var json: JSONValue {
        .array(messages.map { message in
            .object([("id", .string(message.id))]
                + message.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
        })
    }

    /// The messages as a table: ID, the fields any message has, TEXT.
    func table(zones: any TimeZoneLookup, now: Instant) -> TextTable {
        let present = Set(messages.flatMap { $0.fields.keys })
        var keys = Self.leadingKeys.filter(present.contains)
        keys += present.subtracting(keys).subtracting(["text", "id"]).sorted()
        if present.contains("text") { keys.append("text") }
        var table = TextTable(header: ["ID"] + keys.map { $0.uppercased() })
        for message in messages {
            table.rows.append([message.id] + keys.map { key in
                guard let value = message.fields[key] else { return "-" }
                return Self.cell(key: key, value: value, zones: zones)
            })
        }
        return table
    }

    /// One field as a person reads it.
    static func cell(key: String, value: DBusValue, zones: any TimeZoneLookup) -> String {
        if instantKeys.contains(key), let instant = value.int64Value {
            return TimestampFormat.timestamp(instant, in: zones.localZone)
        }
        if spanKeys.contains(key), let span = value.int64Value {
            return TimeSpan(microseconds: span).formatted()
        }
        return value.plainText
    }
}
