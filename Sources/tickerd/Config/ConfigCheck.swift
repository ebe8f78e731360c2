import Glibc
import TickerHost
import TickerModel

/// `tickerd --check-config`: reads the configuration file that a daemon started with the same
/// options would read, exactly as a start or a reload reads it, and says whether it would be
/// taken — without connecting to a bus or touching the state folder.
///
/// The units run it before signalling a reload (`ExecReload=`), so `systemctl reload tickerd`
/// fails, with the mistake's file, line and key, instead of succeeding while the daemon keeps the
/// old configuration.
struct ConfigCheck {
    /// What the check found: lines for standard output, or the error for standard error.
    enum Outcome: Equatable {
        /// The file would be taken; each line is one fact about it.
        case accepted([String])
        /// The file would be refused, for this reason (`file:line: key: problem`).
        case refused(String)
    }

    /// The resolved options (the file's path and whether it was given explicitly).
    let options: DaemonOptions

    /// Reads, checks and applies the file to an empty daemon state in memory. A file that
    /// parses is also applied to a fresh manager, so a message whose window has closed for good
    /// is named as the daemon would name it in its log.
    func run() -> Outcome {
        let zones = ZoneInfoLoader()
        let path = options.configPath
        if !options.configExplicit, Self.isMissing(path) {
            return .accepted(["\(path): no such file; tickerd runs with the built-in defaults"])
        }
        let config: DaemonConfig
        do {
            config = try ConfigLoader(zones: zones).load(path: path, missingIsEmpty: !options.configExplicit)
        } catch {
            return .refused("\(error)")
        }
        let manager = Manager(zones: zones, clock: RealtimeClock.now)
        let skipped: [String]
        do {
            skipped = try manager.apply(config: config)
        } catch {
            return .refused(ConfigError(file: path, line: 0, key: "", problem: "cannot be applied: \(error)").description)
        }
        var lines = ["\(path): ok (\(Self.count(config.channels.count, "channel section")), \(Self.count(config.messages.count, "message")))"]
        for id in skipped {
            lines.append("\(path): message '\(id)' skipped: its window has closed for good or can never open")
        }
        return .accepted(lines)
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// Whether `path` is not there at all (a folder that cannot be entered is not "missing":
    /// the loader then reports why it cannot read the file).
    private static func isMissing(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) != 0 && errno == ENOENT
    }
}
