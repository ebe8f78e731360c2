import ArgumentParser

/// The tickerctl client entry point.
@main
struct Tickerctl: ParsableCommand {
    /// The client's version.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "tickerctl",
        abstract: "Post to, query and follow the tickerd daemon.",
        discussion: """
            Every command takes --bus session|system|ADDRESS (default: session). Shell completions: \
            tickerctl --generate-completion-script bash|zsh|fish.
            """,
        version: version,
        subcommands: [
            PostCommand.self, UpdateCommand.self, RemoveCommand.self, ListCommand.self, SetCommand.self,
            ConfigureCommand.self, PauseCommand.self, ResumeCommand.self, ReloadCommand.self,
            StatusCommand.self, RenderCommand.self, CalendarCommand.self, FollowCommand.self,
            TimelineCommand.self, ActivateCommand.self,
        ]
    )

    /// Without a command: a usage mistake (the usage on stderr, exit status 64), as for an unknown
    /// one, so a script that lost its arguments does not pass as a success. `--help` still prints
    /// the overview and exits 0.
    func run() throws {
        throw ValidationError("Missing a command: one of \(Self.commandNames.joined(separator: ", ")).")
    }

    /// The subcommands' names, in the order the help lists them.
    static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// Parses the command line (with a leading `--bus` moved after the command name, and negative
    /// numbers read as positionals, ``NegativeNumbers``) and runs it.
    static func main() {
        // A completion script's request (`---completion …`) carries the words typed so far as they
        // are: only the parser reads it.
        if CommandLine.arguments.dropFirst().first == "---completion" {
            main(Array(CommandLine.arguments.dropFirst()))
            return
        }
        let arguments = GlobalArguments.reorder(Array(CommandLine.arguments.dropFirst()))
        main(NegativeNumbers.asPositionals(arguments) { (try? parseAsRoot($0)) != nil })
    }
}
