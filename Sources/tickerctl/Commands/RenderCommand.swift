import ArgumentParser
import DBus

/// `tickerctl render`: what a channel shows at one instant, as the daemon computes it.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the frame a channel shows now (or at --at) in N columns."
    )

    @OptionGroup var connection: BusOptions

    @OptionGroup var frame: FrameOptions

    /// JSON output.
    @Flag(help: "Print {text, offset, extras} as JSON.")
    var json = false

    func run() throws {
        try FailureReporting.run {
            let instant = try frame.instant()
            let client = try DaemonClient(connection.bus)
            let path = try client.channelPath(frame.channel)
            let width = try frame.width(client, path: path)
            let reply = try client.call(
                "Render", interface: TickerAPI.channelInterface, path: path,
                arguments: [.uint32(width), .int64(instant)])
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
