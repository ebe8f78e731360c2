import ArgumentParser
import DBus
import Foundation
import Glibc
import Logging
import TOMLConfig
import TickerSources

/// `tickerd-sources`: fills tickerd from now playing, notifications, commands and more.
@main
struct TickerdSources: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tickerd-sources",
        abstract: "Feed tickerd from sources: now playing, notifications, commands (docs/sources.md).")

    @Option(help: """
        The sources file (default: $CONFIGURATION_DIRECTORY/sources.toml, else \
        /etc/tickerd/sources.toml with --bus system, else $XDG_CONFIG_HOME/tickerd/sources.toml).
        """)
    var config: String?

    @Option(help: "The bus tickerd is on: session, system or a D-Bus address.")
    var bus: String = "session"

    @Option(help: """
        Where sources keep what outlives a restart (default: $STATE_DIRECTORY, else \
        $XDG_STATE_HOME/tickerd-sources, else ~/.local/state/tickerd-sources).
        """)
    var state: String?

    @Flag(help: "Check the configuration, print what it would run, and exit.")
    var check = false

    /// The sources file when `--config` is not given, chosen as tickerd chooses its own: the
    /// unit's `ConfigurationDirectory=`, else `/etc/tickerd` for the system bus, else
    /// `$XDG_CONFIG_HOME/tickerd` (or `~/.config/tickerd`), whoever runs it.
    static func defaultConfigPath(bus: String, environment: [String: String]) -> String {
        func nonEmpty(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        if let directory = nonEmpty("CONFIGURATION_DIRECTORY") {
            // systemd passes a colon-separated list when a unit names several.
            return String(directory.split(separator: ":").first ?? Substring(directory)) + "/sources.toml"
        }
        if bus == "system" { return "/etc/tickerd/sources.toml" }
        let base = nonEmpty("XDG_CONFIG_HOME") ?? (nonEmpty("HOME") ?? "") + "/.config"
        return base + "/tickerd/sources.toml"
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "tickerd-sources")
        let config = self.config ?? Self.defaultConfigPath(bus: bus, environment: ProcessInfo.processInfo.environment)
        let loaded: SourcesConfig
        do {
            loaded = try SourcesConfigLoader().load(path: config)
        } catch {
            FileHandleOutput.reportError(error)
            throw ExitCode(2)
        }
        if check {
            for entry in loaded.entries {
                let network = entry.needsNetwork ? " (network)" : ""
                print("\(entry.binding.name): \(entry.kind) → channel \(entry.binding.channel)\(network)")
            }
            return
        }
        let selected: Connection.Bus
        switch bus {
        case "session": selected = .session
        case "system": selected = .system
        default: selected = .address(bus)
        }
        do {
            let path = config
            let store = SourceStateStore(directory: state ?? SourceStateStore.defaultDirectory())
            try SourcesService(config: loaded, bus: selected, logger: logger, state: store) { () throws(ConfigError) in
                try SourcesConfigLoader().load(path: path)
            }.run()
        } catch {
            FileHandleOutput.reportError(error)
            throw ExitCode(1)
        }
    }
}

/// Writing to stderr without Foundation.
enum FileHandleOutput {
    /// Writes `error` to standard error, each of its lines (a config error lists every mistake
    /// on one) after `tickerd-sources: `.
    static func reportError(_ error: any Error) {
        standardError(String(describing: error).split(separator: "\n", omittingEmptySubsequences: false)
            .map { "tickerd-sources: \($0)\n" }.joined())
    }

    /// Writes `text` to standard error.
    static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
