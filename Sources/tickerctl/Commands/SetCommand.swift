import ArgumentParser
import DBus

/// `tickerctl set`: sets a counter that messages show as `{NAME}`.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a counter shown in messages as {NAME}.",
        discussion: """
            Example: tickerctl set --duration 2s --grouping --suffix ' users' online 12500
            A negative VALUE as it is: tickerctl set temperature -4.5
            """
    )

    @OptionGroup var connection: BusOptions

    /// The channel.
    @Option(help: "The channel whose counter it is.", completion: BusCompletion.channels)
    var channel: String = TickerAPI.defaultChannel

    /// The counter's name.
    @ArgumentParser.Argument(help: "The counter's name.")
    var name: String

    /// The new value.
    @ArgumentParser.Argument(help: "The new value.")
    var value: Double

    @OptionGroup var options: ValueOptions

    func validate() throws {
        if !value.isFinite { throw ValidationError("VALUE must be a finite number.") }
    }

    func run() throws {
        try FailureReporting.run {
            let dictionary = try options.dictionary()
            try DaemonClient(connection.bus).control(
                "SetValue", [.string(channel), .string(name), .double(value), .vardict(dictionary)])
        }
    }
}
