import ArgumentParser
import DBus
import TickerHost
import TickerModel
import TickerNames

/// `tickerctl status`: the daemon's version and each channel's state, with what it holds but does
/// not show now (its scheduled messages) and when the next of those comes on.
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
            let zones = ZoneInfoLoader()
            let now = WallClock.now()
            var channels: [ChannelStatus] = []
            for path in paths.sorted() {
                let properties = try client.properties(of: TickerAPI.channelInterface, at: path)
                let name = properties["Name"]?.stringValue ?? String(path.elements.last ?? "")
                let scheduled = try Self.listing(of: name, client: client).map {
                    ScheduledMessages(listing: $0, now: now, zones: zones)
                }
                channels.append(ChannelStatus(properties: properties, path: path, scheduled: scheduled))
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
            let scheduledCount = channels.reduce(0) { $0 + ($1.scheduled?.ids.count ?? 0) }
            let subscriberCount = channels.reduce(0) { $0 + $1.subscribers }
            print("\(channels.count) channel\(channels.count == 1 ? "" : "s"), \(messageCount) active message"
                + "\(messageCount == 1 ? "" : "s"), \(scheduledCount) scheduled, "
                + "\(subscriberCount) subscriber\(subscriberCount == 1 ? "" : "s")")
            var table = TextTable(header: ["CHANNEL", "STATE", "MESSAGES", "SCHEDULED", "NEXT", "SUBSCRIBERS", "MODE",
                                           "SPEED", "COLUMNS", "FPS", "TEXT"])
            for channel in channels {
                table.rows.append([
                    channel.name, channel.state, String(channel.messages), channel.scheduledCount,
                    channel.nextStart(zones: zones), String(channel.subscribers),
                    channel.mode, channel.speed, String(channel.columns), DBusValue.double(channel.frameRate).plainText,
                    channel.text,
                ])
            }
            for line in table.lines { print(line) }
        }
    }

    /// The channel's `List`; nil when the daemon refuses it as too large for one bus message
    /// (`status` then says `?` rather than failing).
    static func listing(of channel: String, client: DaemonClient) throws(ClientFailure) -> MessageListing? {
        do {
            return try MessageListing(reply: client.control("List", [.string(channel)]))
        } catch let .daemon(error, selection) {
            if error.name == TickerBus.Error.limitExceeded.name { return nil }
            throw .daemon(error, selection)
        }
    }
}
