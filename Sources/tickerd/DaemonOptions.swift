import DBus
import FoundationEssentials

/// Where the daemon connects and keeps its files, resolved from the command line and the
/// environment as DESIGN §5 says.
struct DaemonOptions: Sendable {
    /// The bus to serve on.
    var bus: Connection.Bus
    /// Whether that is the system bus (it changes the default config path).
    var isSystemBus: Bool
    /// The configuration file.
    var configPath: String
    /// Whether the path was given explicitly (then a missing file is an error).
    var configExplicit: Bool
    /// The state directory.
    var stateDirectory: String

    /// Resolves `--bus`, `--config` and `--state-dir` against `environment`.
    init(bus: String, config: String?, stateDirectory: String?, environment: [String: String]) {
        switch bus {
        case "session": self.bus = .session; isSystemBus = false
        case "system": self.bus = .system; isSystemBus = true
        default: self.bus = .address(bus); isSystemBus = false
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        if let config {
            configPath = config
            configExplicit = true
        } else if let directory = environment["CONFIGURATION_DIRECTORY"].flatMap(Self.firstPath) {
            configPath = directory + "/tickerd.toml"
            configExplicit = false
        } else if isSystemBus {
            configPath = "/etc/tickerd/tickerd.toml"
            configExplicit = false
        } else {
            let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
            configPath = base + "/tickerd/tickerd.toml"
            configExplicit = false
        }
        if let stateDirectory {
            self.stateDirectory = stateDirectory
        } else if let directory = environment["STATE_DIRECTORY"].flatMap(Self.firstPath) {
            self.stateDirectory = directory
        } else {
            let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
            self.stateDirectory = base + "/tickerd"
        }
    }

    /// systemd passes several directories separated by `:`; the first is ours.
    private static func firstPath(_ value: String) -> String? {
        value.split(separator: ":").first.map(String.init)
    }
}
