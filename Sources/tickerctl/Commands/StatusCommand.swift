import ArgumentParser
import DBus

/// `tickerctl status`: the daemon's version and each channel's state.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's version, channels, messages and subscribers."
    )

    @OptionGroup var connection: BusOptions

    /// JSON output.
    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        try FailureReporting.run {
            let client = try DaemonClient(connection.bus)
            let manager = try client.properties(of: TickerAPI.managerInterface, at: client.managerPath())
            let version = manager["Version"]?.stringValue ?? "?"
            let paths = manager["Channels"]?.objectPathArrayValue ?? []
            var channels: [ChannelStatus] = []
            for path in paths.sorted() {
                channels.append(ChannelStatus(
                    properties: try client.properties(of: TickerAPI.channelInterface, at: path),
                    path: path))
            }
            if json {
                let object = JSONValue.object([
                    ("version", .string(version)),
                    ("client", .string(Tickerctl.version)),
                    ("bus", .string(connection.bus.description)),
                    ("channels", .array(channels.map(\.json))),
                ])
                print(object.text)
                return
            }
            print("tickerd \(version) on \(connection.bus) (tickerctl \(Tickerctl.version))")
            let messageCount = channels.reduce(0) { $0 + $1.messages }
            let subscriberCount = channels.reduce(0) { $0 + $1.subscribers }
            print("\(channels.count) channel\(channels.count == 1 ? "" : "s"), \(messageCount) active message"
                + "\(messageCount == 1 ? "" : "s"), \(subscriberCount) subscriber\(subscriberCount == 1 ? "" : "s")")
            var table = TextTable(header: ["CHANNEL", "STATE", "MESSAGES", "SUBSCRIBERS", "MODE", "SPEED", "COLUMNS",
                                           "FPS", "TEXT"])
            for channel in channels {
                table.rows.append([
                    channel.name, channel.state, String(channel.messages), String(channel.subscribers),
                    channel.mode, channel.speed, String(channel.columns), DBusValue.double(channel.frameRate).plainText,
                    channel.text,
                ])
            }
            for line in table.lines { print(line) }
        }
    }
}

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
    /// Motion mode.
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
