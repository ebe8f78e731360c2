import DBus
import TickerModel

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

    /// The messages as JSON: an array of objects, `id` first.
    var json: JSONValue {
        .array(messages.map { message in
            .object([("id", .string(message.id))]
                + message.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
        })
    }

    /// The messages as a table: ID, CHANNEL, PRIO, STATE (active, waiting, urgent), WHEN (the
    /// window), TEXT.
    func table(zones: any TimeZoneLookup) -> TextTable {
        var table = TextTable(header: ["ID", "CHANNEL", "PRIO", "STATE", "WHEN", "TEXT"])
        for (id, fields) in messages {
            var state = fields["active"]?.boolValue == false ? "waiting" : "active"
            if fields["urgent"]?.boolValue == true { state += ",urgent" }
            if let effect = fields["effect"]?.stringValue { state += "," + effect }
            table.rows.append([
                id, fields["channel"]?.plainText ?? "-", fields["priority"]?.plainText ?? "0", state,
                Self.window(fields, zones: zones), fields["text"]?.plainText ?? "",
            ])
        }
        return table
    }

    /// The message's window in words: `always`, `until T`, `from T`, `T – T`, `EXPR for SPAN`.
    static func window(_ fields: [String: DBusValue], zones: any TimeZoneLookup) -> String {
        func time(_ key: String) -> String? {
            fields[key]?.int64Value.map { TimestampFormat.timestamp($0, in: zones.localZone) }
        }
        if let calendar = fields["calendar"]?.stringValue {
            let duration = fields["duration"]?.int64Value.map { TimeSpan(microseconds: $0).formatted() } ?? "?"
            return "\(calendar) for \(duration)"
        }
        switch (time("start"), time("end")) {
        case let (start?, end?): return "\(start) – \(end)"
        case let (start?, nil): return "from \(start)"
        case let (nil, end?): return "until \(end)"
        case (nil, nil): return "always"
        }
    }
}
