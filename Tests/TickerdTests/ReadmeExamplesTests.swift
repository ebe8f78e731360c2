import Foundation
import Testing
import TestSupport

/// README.md's quick look and its tickerctl blocks, as a new user pastes them: every line of its
/// ```sh blocks that runs `tickerctl` or `busctl --user`/`--system` is run by the shell, in order,
/// against the real daemon on a private bus that stands in for the session bus
/// (`DBUS_SESSION_BUS_ADDRESS`) and for the system bus (`--bus system` swapped for its address),
/// with the built tickerctl first on `PATH`. Each must succeed; `tickerctl follow` must show the
/// ticker, and the messages the lines post must be on the channel.
@Suite(.serialized) struct ReadmeExamplesTests {
    /// The README's shell lines that talk to the daemon, continuation lines joined.
    static func commands() throws -> [String] {
        try MarkdownShellLines.commands(in: Repository.read("README.md")).filter { command in
            command.hasPrefix("tickerctl ") || command.hasPrefix("busctl --user ") || command.hasPrefix("busctl --system ")
                || command.contains("| tickerctl ")
        }
    }

    @Test func everyTickerctlAndBusctlLineOfTheReadmeWorks() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 8)
        let fixture = try DaemonFixture()
        let folder = (TickerdProcess.binary("tickerctl") as NSString).deletingLastPathComponent
        let environment = [
            "DBUS_SESSION_BUS_ADDRESS": fixture.address,
            "PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
        var followed = false
        for written in commands {
            // The system-wide daemon's lines reach this one: its bus stands in for both.
            let command = written.replacingOccurrences(of: "--bus system", with: "--bus " + fixture.address)
                .replacingOccurrences(of: "busctl --system", with: "busctl --address=" + fixture.address)
            if command.hasPrefix("tickerctl follow") {
                // It runs until stopped: it must print the ticker, then end cleanly on Ctrl-C.
                let follow = try ChildProcess("/bin/sh", ["-c", "exec " + command], environment: environment)
                defer { follow.kill(SIGKILL) }
                #expect(follow.waitForOutput(timeout: .seconds(20)) { $0.contains("Build running") },
                        "\(command)\n\(follow.standardOutput)\n\(follow.standardError)")
                follow.kill(SIGINT)
                #expect(try follow.wait(timeout: .seconds(10)) == 0)
                followed = true
                continue
            }
            let output = try ChildProcess.run("/bin/sh", ["-c", command], environment: environment)
            #expect(output.status == 0, "\(command)\n\(output.stdout)\n\(output.stderr)")
        }
        #expect(followed, "the README shows tickerctl follow")
        // What the lines posted is there: the quick look's busctl post, the TTL post, the
        // scheduled one (waiting for its window) and the one read from stdin.
        let listed = try fixture.busctl(["call", DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "List", "s", ""])
        for text in ["Build running", "Fire drill", "Standup in 10 minutes", "\"Standup\"", "load average"] {
            #expect(listed.stdout.contains(text), "\(text) is not listed: \(listed.stdout)")
        }
        #expect(listed.stdout.contains("\"uptime\""), "the stdin post keeps its --id")
    }

    /// The commands the shipped configuration files name in their comments (`tickerctl reload
    /// --bus system` in /etc/tickerd/tickerd.toml, `tickerctl set …` in the example), run against the
    /// daemon with the system bus's address swapped for the private bus's. `tickerctl set` alone
    /// (no arguments) is a mention, not a command.
    @Test func theCommandsInTheShippedConfigCommentsWork() throws {
        let fixture = try DaemonFixture()
        var ran = 0
        for file in ["debian/tickerd.toml", "examples/tickerd.toml"] {
            for match in try Repository.read(file).matches(of: /`(tickerctl [^`]*)`/) {
                let command = String(match.1)
                let arguments = command.split(separator: " ").dropFirst().map(String.init)
                if arguments.count < 2 && arguments != ["reload"] { continue }
                let swapped = arguments.map { $0 == "system" ? fixture.address : $0 }
                let bus = swapped.contains("--bus") ? [] : ["--bus", fixture.address]
                let output = try ChildProcess.run(TickerdProcess.binary("tickerctl"), swapped + bus)
                #expect(output.status == 0, "\(file): \(command)\n\(output.stderr)")
                ran += 1
            }
        }
        #expect(ran >= 3)
    }
}
