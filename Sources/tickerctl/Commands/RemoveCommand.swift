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

    /// Removes every id it can: one that fails (no such message) is reported and the others are
    /// still removed, as `rm` does; the status is then that of the first failure. A missing
    /// daemon or bus stops at once.
    func run() throws {
        try FailureReporting.run {
            let client = try DaemonClient(connection.bus)
            var firstFailure: ClientFailure?
            for id in ids {
                do {
                    try client.control("Remove", [.string(id)])
                } catch let failure as ClientFailure where failure.exitStatus != 69 {
                    FailureReporting.report(failure.lines)
                    firstFailure = firstFailure ?? failure
                }
            }
            if let firstFailure { throw ExitCode(firstFailure.exitStatus) }
        }
    }
}
