import Foundation
import Glibc

/// Where sources keep what must outlive a restart of the service (a feed's last good items), one
/// file per source in one directory.
///
/// Guarantees: a file is replaced whole (written beside it, then renamed over it), so a reader
/// never sees half of one; files are readable by the service's user alone (mode 0600, in a
/// directory of mode 0700 made on the first save), as they hold what notifications said. A
/// file that is missing or cannot be read reads as nothing.
public struct SourceStateStore: Sendable {
    /// The directory holding the files.
    public let directory: String

    /// A store in `directory` (made when first needed).
    public init(directory: String) {
        self.directory = directory
    }

    /// The default directory: `$STATE_DIRECTORY` (the units' `StateDirectory=`), else
    /// `$XDG_STATE_HOME/tickerd-sources`, else `~/.local/state/tickerd-sources`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let systemd = environment["STATE_DIRECTORY"], !systemd.isEmpty {
            // systemd passes a colon-separated list when a unit names several.
            return String(systemd.split(separator: ":").first ?? Substring(systemd))
        }
        if let base = environment["XDG_STATE_HOME"], base.hasPrefix("/") { return base + "/tickerd-sources" }
        return (environment["HOME"] ?? "") + "/.local/state/tickerd-sources"
    }

    /// The path of file `name` (a source's `<type>-<source name>.json`).
    public func path(_ name: String) -> String { directory + "/" + name }

    /// The contents of file `name`, or nil when there is none (or it cannot be read).
    public func load(_ name: String) -> Data? {
        FileManager.default.contents(atPath: path(name))
    }

    /// Replaces file `name` with `data`. Throws (with the system's reason) when the directory
    /// cannot be made or the file cannot be written.
    public func save(_ name: String, _ data: Data) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path(".\(name).new")
        guard files.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        guard rename(temporary, path(name)) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = try? files.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path(name), NSLocalizedDescriptionKey: reason])
        }
    }
}
