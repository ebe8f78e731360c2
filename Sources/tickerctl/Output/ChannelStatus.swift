import DBus

/// What `status` shows of one channel, read from its properties.
struct ChannelStatus {
    /// The properties as read.
    let properties: [String: DBusValue]
    /// The channel's name.
    var name: String
    /// `paused`, `running` or `empty`.
    var state: String
    /// Active messages.
    var messages: Int
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

    /// Reads the channel's `GetAll`.
    init(properties: [String: DBusValue], path: ObjectPath) {
        self.properties = properties
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
            state = messages == 0 ? "empty" : "running"
        }
    }

    /// The channel as JSON (its properties, the Timeline as an object).
    var json: JSONValue {
        .object(properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
    }
}
