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
    @ArgumentParser.Argument(help: "The ids of the messages to remove.", completion: BusCompletion.messageIDs)
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give the id of a message to remove.") }
    }

    /// Removes every id it can, like `rm`: one the daemon refuses (not there) is reported and the
    /// others are still removed; the exit status is then 1. A missing daemon stops at once.
    func run() throws {
        var refused: Int32?
        try FailureReporting.run {
            let client = try DaemonClient(connection.bus)
            for id in ids {
                do throws(ClientFailure) {
                    _ = try client.control("Remove", [.string(id)])
                } catch {
                    guard case .daemon = error, error.exitStatus == 1 else { throw error }
                    FailureReporting.report(error.lines)
                    refused = error.exitStatus
                }
            }
        }
        if let refused { throw ExitCode(refused) }
    }
}
