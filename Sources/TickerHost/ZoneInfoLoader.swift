import Glibc
import TickerModel

/// Loads time zones from the system's zoneinfo files the way glibc finds them: the local zone from
/// the `TZ` environment variable (a zone name, `:name`, an absolute path or a POSIX rule), else
/// `/etc/localtime`, else UTC (named as glibc names it); named zones from `$TZDIR` or `/usr/share/zoneinfo`.
public struct ZoneInfoLoader: TimeZoneLookup {
    /// The local zone.
    public let localZone: ZoneRules
    /// The zoneinfo directory.
    public let directory: String

    /// Reads the local zone from `environment` (usually the process environment).
    public init(environment: [String: String] = ProcessEnvironment.current()) {
        directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        localZone = Self.localZone(environment: environment, directory: directory)
    }

    /// The zone called `name` from the zoneinfo directory, or nil when it is missing or unreadable.
    public func zone(named name: String) -> ZoneRules? {
        guard TimeZoneName.isWellFormed(name) else { return nil }
        return Self.load(path: directory + "/" + name, name: name)
    }

    private static func localZone(environment: [String: String], directory: String) -> ZoneRules {
        guard var tz = environment["TZ"] else {
            return load(path: "/etc/localtime", name: "localtime") ?? .utc
        }
        if tz.hasPrefix(":") { tz.removeFirst() }
        if tz.isEmpty { return .utc }
        if tz.hasPrefix("/") {
            if let rules = load(path: tz, name: tz) { return rules }
        } else if !tz.contains(".."), let rules = load(path: directory + "/" + tz, name: tz) {
            return rules
        }
        if let rule = PosixTimeZone(parsing: tz) { return ZoneRules(name: tz, rule: rule) }
        return ZoneRules(name: tz, rule: .unusable(tz))
    }

    private static func load(path: String, name: String) -> ZoneRules? {
        // A file that cannot be opened or read (a folder, say) is no zone.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let bytes = try? DescriptorReader.bytes(of: fd) else { return nil }
        return try? TZifParser.parse(bytes, name: name)
    }
}
