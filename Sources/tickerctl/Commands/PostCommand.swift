import ArgumentParser
import DBus
import TickerHost

/// `tickerctl post`: posts a message and prints its id.
struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Post a message and print its id.",
        discussion: """
            Examples:
              tickerctl post 'Build finished'
              tickerctl post --ttl 10min --priority 5 'Standup in 10 minutes'
              tickerctl post --calendar 'Mon..Fri 09:00' --duration 15min 'Standup'
              uptime | tickerctl post --id uptime -
            """
    )

    @OptionGroup var connection: BusOptions

    /// The channel (created when new).
    @Option(help: "The channel to post to (created when new).", completion: BusCompletion.channels)
    var channel: String = TickerAPI.defaultChannel

    /// The id to use; a message with the same id is replaced.
    @Option(help: "Use this id; a message with the same id is replaced.")
    var id: String?

    @OptionGroup var message: MessageOptions

    /// The text, `-` for stdin.
    @ArgumentParser.Argument(help: "The text; - reads it from standard input.")
    var text: String

    func run() throws {
        try FailureReporting.run {
            var options = try message.dictionary(now: WallClock.now(), zones: ZoneInfoLoader())
            if let id { options["id"] = .string(id) }
            let text = try MessageText.resolve(self.text)
            let client = try DaemonClient(connection.bus)
            let reply = try client.control("Post", [.string(channel), .string(text), .vardict(options)])
            guard let id = reply.first?.stringValue else {
                throw ClientFailure.unexpectedReply("Post answered \(reply.map(\.type.signature)) instead of an id")
            }
            print(id)
        }
    }
}
