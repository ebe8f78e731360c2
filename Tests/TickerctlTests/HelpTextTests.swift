import Foundation
import Testing
import TestSupport
@testable import tickerctl

/// What an admin reads in `tickerctl help COMMAND`: each argument and option says its default
/// once (ArgumentParser adds `(default: …)` itself; a help text that says it too reads twice).
@Suite struct HelpTextTests {
    @Test func everyDefaultIsSaidOnce() throws {
        for command in Tickerctl.configuration.subcommands {
            let name = command.configuration.commandName ?? ""
            let help = try ChildProcess.run(CLIFixture.tickerctl, ["help", name])
            #expect(help.status == 0)
            // An entry's wrapped lines joined, so a default said at a line's end and again on the next counts.
            let joined = help.stdout.replacingOccurrences(of: "\n {20,}", with: " ", options: .regularExpression)
            for entry in joined.split(separator: "\n") {
                let defaults = entry.components(separatedBy: "(default").count - 1
                #expect(defaults <= 1, "tickerctl \(name): \(entry)")
            }
        }
    }

    /// `tickerctl` with no command printed the overview and exited 0, so a script whose command
    /// word went missing (an empty variable) passed as a success; docs/tickerctl.md says a usage
    /// mistake exits 64. `--help` is the way to ask for the overview.
    @Test func noCommandIsAUsageMistake() throws {
        for arguments in [[], ["--bus", "session"], ["--bus=system"]] {
            let run = try ChildProcess.run(CLIFixture.tickerctl, arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout)")
            #expect(run.stderr.hasPrefix("Error: Missing a command: one of post, "), "\(arguments): \(run.stderr)")
        }
        let help = try ChildProcess.run(CLIFixture.tickerctl, ["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: Post to, query and follow"))
    }
}
