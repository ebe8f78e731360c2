import ArgumentParser
import DBus
import Glibc
import Logging
import TickerHost

/// `tickerd`: publish live ticker text over D-Bus.
@main
struct Tickerd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tickerd",
        abstract: "Publish live ticker (marquee) text over D-Bus.",
        discussion: """
            Owns io.github.tickerd.Ticker1 on the chosen bus. The configuration defaults to \
            $XDG_CONFIG_HOME/tickerd/tickerd.toml (session) or /etc/tickerd/tickerd.toml (system); \
            state lives in $STATE_DIRECTORY or $XDG_STATE_HOME/tickerd. SIGHUP reloads the \
            configuration; SIGTERM stops. --check-config checks the file that these options \
            name (what `systemctl reload tickerd` runs first) and exits: 0 when tickerd would \
            take it, 1 with file:line: key: problem when not.
            """,
        version: BusSurface.version
    )

    @Option(name: .long, help: "session, system, or a D-Bus address such as unix:path=/run/x.")
    var bus: String = "session"

    @Option(name: .long, help: "The configuration file (TOML).")
    var config: String?

    @Option(name: .customLong("state-dir"), help: "Where the state survives restarts.")
    var stateDir: String?

    @Flag(name: .customLong("check-config"),
          help: "Check the configuration file and exit (0: it would be taken; 1: it would not, and why).")
    var checkConfig = false

    mutating func run() throws {
        if checkConfig {
            try check()
            return
        }
        // Signals are taken by the loop's signalfd: block them before any thread starts.
        try EventLoop.blockSignals([SIGTERM, SIGINT, SIGHUP])
        let environment = ProcessEnvironment.current()
        LoggingSystem.bootstrap { label in
            if JournalLogHandler.isAvailable, environment["TICKERD_LOG"] != "stderr" {
                return JournalLogHandler(identifier: "tickerd")
            }
            return StreamLogHandler.standardError(label: label)
        }
        let logger = Logger(label: "tickerd")
        let options = DaemonOptions(bus: bus, config: config, stateDirectory: stateDir, environment: environment)
        let daemon = try Daemon(options: options, logger: logger)
        let code = daemon.run()
        if code != 0 { throw ExitCode(code) }
    }

    /// `--check-config`: the verdict on the configuration file, on standard output when it would
    /// be taken and on standard error (exit 1) when not.
    private func check() throws {
        let options = DaemonOptions(
            bus: bus, config: config, stateDirectory: stateDir, environment: ProcessEnvironment.current())
        switch ConfigCheck(options: options).run() {
        case let .accepted(lines):
            for line in lines { print(line) }
        case let .refused(reason):
            _ = (reason + "\n").withCString { write(STDERR_FILENO, $0, strlen($0)) }
            throw ExitCode(1)
        }
    }
}
