import ArgumentParser

/// The tickerctl client entry point.
@main
struct Tickerctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tickerctl",
        abstract: "Post to, query and follow the tickerd daemon.",
        version: "0.1.0",
        subcommands: [CalendarCommand.self]
    )
}
