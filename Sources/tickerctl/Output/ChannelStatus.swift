import DBus
import TickerModel

/// What `status` shows of one channel, read from its properties and its `List`.
struct ChannelStatus {
    /// The properties as read.
    let properties: [String: DBusValue]
    /// The channel's name.
    var name: String
    /// `paused`; `running` (a message is shown); `scheduled` (none is shown now, but some are
    /// scheduled); `empty` (the channel holds no message at all).
    var state: String
    /// Active messages.
    var messages: Int
    /// The messages it holds but does not show now; nil when the daemon would not list them.
    var scheduled: ScheduledMessages?
    /// Frame subscribers.
    var subscribers: Int
    /// Motion mode, with `/wall-clock` after it for a phase-locked channel.
    var mode: String
    /// Speed in cells per second, as text.
    var speed: String
    /// Columns of broadcast frames.
    var columns: UInt32
    /// Broadcast rate.
    var frameRate: Double
    /// The full text.
    var text: String

    /// Reads the channel's `GetAll` and what it holds but does not show (`scheduled`).
    init(properties: [String: DBusValue], path: ObjectPath, scheduled: ScheduledMessages?) {
        self.properties = properties
        self.scheduled = scheduled
        name = properties["Name"]?.stringValue ?? String(path.elements.last ?? "?")
        messages = properties["Messages"]?.stringArrayValue?.count ?? 0
        subscribers = Int(properties["Subscribers"]?.uint32Value ?? 0)
        columns = properties["Columns"]?.uint32Value ?? 0
        frameRate = properties["FrameRate"]?.doubleValue ?? 0
        text = properties["Text"]?.stringValue ?? ""
        let timeline = properties["Timeline"]?.vardictValue ?? [:]
        mode = timeline["mode"]?.stringValue ?? "?"
        if let phase = timeline["phase"]?.stringValue, phase != "local" { mode += "/" + phase }
        speed = "?"
        if let value = timeline["speed"]?.doubleValue {
            speed = DBusValue.double((value * 100).rounded() / 100).plainText
        }
        if properties["Paused"]?.boolValue == true {
            state = "paused"
        } else {
            state = messages > 0 ? "running" : scheduled?.ids.isEmpty == false ? "scheduled" : "empty"
        }
    }

    /// The scheduled messages' count as the table shows it (`?` when unknown).
    var scheduledCount: String { scheduled.map { String($0.ids.count) } ?? "?" }

    /// When the next scheduled message comes on, as the table shows it (`-` when none will).
    func nextStart(zones: any TimeZoneLookup) -> String {
        guard let scheduled else { return "?" }
        return scheduled.nextStart.map { TimestampFormat.timestamp($0, in: zones.localZone) } ?? "-"
    }

    /// The channel as JSON: its properties (the Timeline as an object), then `state`,
    /// `scheduled` (the ids of the messages not shown now; null when unknown) and `nextStart`
    /// (µs since the epoch when the first of them comes on; null when none will or unknown).
    var json: JSONValue {
        .object(properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) } + [
            ("state", .string(state)),
            ("scheduled", scheduled.map { .array($0.ids.map(JSONValue.string)) } ?? .null),
            ("nextStart", scheduled?.nextStart.map(JSONValue.integer) ?? .null),
        ])
    }
}
