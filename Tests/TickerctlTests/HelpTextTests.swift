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
}
