import ArgumentParser
import DBus
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

    @Option(help: "The sources file.")
    var config: String = TickerdSources.defaultConfigPath

    @Option(help: "The bus tickerd is on: session, system or a D-Bus address.")
    var bus: String = "session"

    @Option(help: """
        Where sources keep what outlives a restart (default: $STATE_DIRECTORY, else \
        $XDG_STATE_HOME/tickerd-sources, else ~/.local/state/tickerd-sources).
        """)
    var state: String?

    @Flag(help: "Check the configuration, print what it would run, and exit.")
    var check = false

    /// `$XDG_CONFIG_HOME/tickerd/sources.toml` (else `~/.config/…`); `/etc/tickerd/sources.toml` for root.
    static var defaultConfigPath: String {
        if getuid() == 0 { return "/etc/tickerd/sources.toml" }
        if let base = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), !base.isEmpty {
            return base + "/tickerd/sources.toml"
        }
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        return home + "/.config/tickerd/sources.toml"
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "tickerd-sources")
        let loaded: SourcesConfig
        do {
            loaded = try SourcesConfigLoader().load(path: config)
        } catch {
            FileHandleOutput.standardError("tickerd-sources: \(error)\n")
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
            FileHandleOutput.standardError("tickerd-sources: \(error)\n")
            throw ExitCode(1)
        }
    }
}

/// Writing to stderr without Foundation.
enum FileHandleOutput {
    /// Writes `text` to standard error.
    static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
