import ArgumentParser
import DBus

/// `tickerctl configure`: changes a channel's settings.
struct ConfigureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure",
        abstract: "Change a channel's settings (creates the channel when new).",
        discussion: """
            Settings: mode=continuous|scroll|bounce|static|pages, speed=CELLS_PER_SECOND, \
            cycle=SPAN (speed as one cycle's duration), delay=SPAN, easing=NAME, loops=N, \
            direction=left|right, align=left|center|right, separator=TEXT, gap=TEXT, columns=N, \
            frame-rate=FPS (0 = no broadcast), phase=local|wall-clock (wall-clock: the same frame \
            on every screen at the same instant, docs/rendering.md §13).
            --reset starts from the channel's configured settings (its [channel.NAME] section of \
            tickerd.toml, else the defaults) instead of its current ones, then applies the settings \
            given: `tickerctl configure main --reset` brings the channel back to its configuration.
            Example: tickerctl configure main mode=scroll delay=3s easing=easeInOutCubic
            """
    )

    @OptionGroup var connection: BusOptions

    /// The channel.
    @ArgumentParser.Argument(help: "The channel.", completion: BusCompletion.channels)
    var channel: String

    /// Whether to start from the channel's configured settings (`Configure` `reset`).
    @Flag(help: "Start from the channel's configured settings (tickerd.toml, else the defaults), not its current ones.")
    var reset = false

    /// `key=value` words.
    @ArgumentParser.Argument(help: ArgumentHelp("Settings to change.", valueName: "key=value"))
    var settings: [String] = []

    func run() throws {
        try FailureReporting.run {
            var dictionary = try ChannelSettingArguments.parse(settings)
            if reset { dictionary["reset"] = .bool(true) }
            try DaemonClient(connection.bus).control("Configure", [.string(channel), .vardict(dictionary)])
        }
    }
}
