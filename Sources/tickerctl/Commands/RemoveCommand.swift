import ArgumentParser
import DBus

/// `tickerctl remove`: removes messages by id.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove messages by id."
    )

    @OptionGroup var connection: BusOptions

    /// The messages to remove.
    @ArgumentParser.Argument(help: "The ids of the messages to remove.")
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give the id of a message to remove.") }
    }

    func run() throws {
        try FailureReporting.run {
            let client = try DaemonClient(connection.bus)
            for id in ids {
                try client.control("Remove", [.string(id)])
            }
        }
    }
}
