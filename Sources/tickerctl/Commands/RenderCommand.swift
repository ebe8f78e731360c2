import ArgumentParser
import DBus
import TickerHost

/// `tickerctl render`: what a channel shows at one instant, as the daemon computes it.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the frame a channel shows now (or at --at) in N columns."
    )

    @OptionGroup var connection: BusOptions

    /// The channel.
    @Option(help: "The channel.")
    var channel: String = TickerAPI.defaultChannel

    /// Width in cells.
    @Option(help: "Width in terminal cells (default: the channel's Columns).")
    var columns: UInt32?

    /// When.
    @Option(help: ArgumentHelp("The instant ('now', '+5s', '2025-06-01 09:00', '@SECONDS').", valueName: "TIME"))
    var at: String?

    /// JSON output.
    @Flag(help: "Print {text, offset, extras} as JSON.")
    var json = false

    func run() throws {
        try FailureReporting.run {
            let instant = try at.map { (text: String) throws(UsageError) -> Int64 in
                try TimeArgument.instant(text, option: "at", now: WallClock.now(), zones: ZoneInfoLoader())
            } ?? 0
            let client = try DaemonClient(connection.bus)
            let path = try client.channelPath(channel)
            var width = columns
            if width == nil {
                let reply = try client.call(
                    "Get", interface: TickerAPI.propertiesInterface, path: path,
                    arguments: [.string(TickerAPI.channelInterface), .string("Columns")])
                width = reply.first?.unwrappingVariant.uint32Value
            }
            let reply = try client.call(
                "Render", interface: TickerAPI.channelInterface, path: path,
                arguments: [.uint32(width ?? 80), .int64(instant)])
            guard reply.count == 3, let text = reply[0].stringValue, let offset = reply[1].doubleValue else {
                throw ClientFailure.unexpectedReply("Render answered \(reply.map(\.type.signature))")
            }
            if json {
                print(JSONValue.object([("text", .string(text)), ("offset", .number(offset)), ("extras", reply[2].json)]).text)
            } else {
                print(text)
            }
        }
    }
}
