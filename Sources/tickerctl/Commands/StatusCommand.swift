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
