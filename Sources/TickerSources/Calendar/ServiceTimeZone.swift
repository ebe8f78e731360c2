import Foundation

/// The zone name of the service's own local time, found the way glibc finds the local zone (and
/// tickerd with it, docs/configuration.md): `TZ` — a zone name, with or without glibc's leading
/// `:`, or an absolute path into the zoneinfo directory (`$TZDIR`, else `/usr/share/zoneinfo`) —
/// else the zone `/etc/localtime` links to, else `/etc/timezone`, else UTC.
///
/// Guarantees: the name is one Foundation and libical know; when the local zone has no such name
/// (a POSIX rule in `TZ`, a copied `/etc/localtime`), the name is "UTC" and `problem` says why and
/// what to set instead, so a calendar is never placed in another zone silently.
enum ServiceTimeZone {
    /// The name, and what kept the local zone from being used (nil when nothing did).
    static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment,
                        localtime: String = "/etc/localtime",
                        timezoneFile: String = "/etc/timezone") -> (name: String, problem: String?) {
        let directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        if let value = environment["TZ"] {
            var tz = Substring(value)
            if tz.hasPrefix(":") { tz = tz.dropFirst() }
            if tz.isEmpty { return ("UTC", nil) }
            let name = tz.hasPrefix("/") ? zoneName(ofPath: String(tz), directory: directory) : String(tz)
            if let name, isKnown(name) { return (name, nil) }
            return ("UTC", "TZ='\(value)' is not a zone name tickerd-sources can place calendars in; all-day and "
                + "floating times are placed in UTC: set the source's 'timezone' (e.g. \"Europe/Berlin\")")
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime) {
            let absolute = target.hasPrefix("/") ? target
                : URL(fileURLWithPath: localtime).deletingLastPathComponent().appendingPathComponent(target).path
            if let name = zoneName(ofPath: absolute, directory: directory), isKnown(name) { return (name, nil) }
        }
        if let text = try? String(contentsOfFile: timezoneFile, encoding: .utf8) {
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if isKnown(name) { return (name, nil) }
        }
        if FileManager.default.fileExists(atPath: localtime) {
            return ("UTC", "\(localtime) names no zone (it is not a link into \(directory)); all-day and floating "
                + "times are placed in UTC: set the source's 'timezone' (e.g. \"Europe/Berlin\")")
        }
        return ("UTC", nil)
    }

    /// The zone name of a zoneinfo file's path: the part after the zoneinfo directory (or after
    /// any `zoneinfo/`, as distributions link /etc/localtime to `../usr/share/zoneinfo/…`).
    private static func zoneName(ofPath path: String, directory: String) -> String? {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        for root in [directory, "/usr/share/zoneinfo"] {
            let prefix = URL(fileURLWithPath: root).standardizedFileURL.path + "/"
            if standard.hasPrefix(prefix) { return String(standard.dropFirst(prefix.count)) }
        }
        if let range = standard.range(of: "/zoneinfo/", options: .backwards) { return String(standard[range.upperBound...]) }
        return nil
    }

    /// Whether `name` is a zone name (not a path, not a rule) that Foundation knows.
    private static func isKnown(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.contains("..") && !name.contains(",") && TimeZone(identifier: name) != nil
    }
}
