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
    @Option(help: "Only this channel's messages.", completion: BusCompletion.channels)
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
                for line in messages.table(zones: ZoneInfoLoader()).lines { print(line) }
            }
        }
    }
}
