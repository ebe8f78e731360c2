import ArgumentParser
import DBus
import TickerHost

/// `tickerctl update`: changes a message's text or options.
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change a message's text, schedule or options.",
        discussion: "Only the options given change; --text - reads the new text from standard input."
    )

    @OptionGroup var connection: BusOptions

    /// The message to change.
    @ArgumentParser.Argument(help: "The message's id (as post printed it).", completion: BusCompletion.messageIDs)
    var id: String

    /// A new text.
    @Option(help: "A new text; - reads it from standard input.")
    var text: String?

    @OptionGroup var message: MessageOptions

    func validate() throws {
        if text == nil && message.isEmpty {
            throw ValidationError("Nothing to change: give --text or another option.")
        }
    }

    func run() throws {
        try FailureReporting.run {
            var changes = try message.dictionary(now: WallClock.now(), zones: ZoneInfoLoader())
            if let text { changes["text"] = .string(try MessageText.resolve(text)) }
            let client = try DaemonClient(connection.bus)
            try client.control("Update", [.string(id), .vardict(changes)])
        }
    }
}

extension MessageOptions {
    /// Whether no option was given.
    var isEmpty: Bool {
        priority == nil && urgent == nil && ttl == nil && start == nil && end == nil
            && calendar == nil && duration == nil && effect == nil && reveal == nil && link == nil
    }
}
