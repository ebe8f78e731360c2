import ArgumentParser
import DBus

/// `tickerctl pause`: freezes a channel where it is.
struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Freeze a channel's text where it is."
    )

    @OptionGroup var connection: BusOptions

    /// The channel.
    @ArgumentParser.Argument(help: "The channel.", completion: BusCompletion.channels)
    var channel: String = TickerAPI.defaultChannel

    func run() throws {
        try FailureReporting.run {
            try DaemonClient(connection.bus).control("Pause", [.string(channel)])
        }
    }
}

/// `tickerctl resume`: lets a paused channel move on.
struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Let a paused channel move on from where it froze."
    )

    @OptionGroup var connection: BusOptions

    /// The channel.
    @ArgumentParser.Argument(help: "The channel.", completion: BusCompletion.channels)
    var channel: String = TickerAPI.defaultChannel

    func run() throws {
        try FailureReporting.run {
            try DaemonClient(connection.bus).control("Resume", [.string(channel)])
        }
    }
}

/// `tickerctl reload`: makes the daemon read its configuration file again.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make the daemon read its configuration file again.",
        discussion: "A bad file keeps the old configuration; the error names the file, line and key."
    )

    @OptionGroup var connection: BusOptions

    func run() throws {
        try FailureReporting.run {
            try DaemonClient(connection.bus).control("Reload")
        }
    }
}
