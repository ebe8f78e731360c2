/// Where calendar expressions and timestamps find their time zones: the local zone (TZ, then
/// /etc/localtime) and zones by IANA name. TickerModel never reads files; the executables and
/// tests supply an implementation that loads TZif bytes.
public protocol TimeZoneLookup: Sendable {
    /// The local zone, used when an expression names none.
    var localZone: ZoneRules { get }
    /// The rules of the zone called `name` (e.g. `Europe/Berlin`), or nil when there is none.
    func zone(named name: String) -> ZoneRules?
}

/// A fixed set of zones held in memory.
public struct ZoneTable: TimeZoneLookup {
    /// The local zone.
    public let localZone: ZoneRules
    /// Zones by name.
    public let zones: [String: ZoneRules]

    /// Creates a table with a local zone and named zones.
    public init(localZone: ZoneRules = .utc, zones: [String: ZoneRules] = [:]) {
        self.localZone = localZone
        self.zones = zones
    }

    /// The zone called `name`, from the table.
    public func zone(named name: String) -> ZoneRules? { zones[name] }
}

/// systemd's `verify_timezone()` syntax rules for zone names.
public enum TimeZoneName {
    /// Whether `name` is syntactically a zone name systemd would look up: letters, digits, `-`,
    /// `_`, `+` and single `/` separators, not starting or ending with `/`.
    public static func isWellFormed(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.first != UInt8(ascii: "/"), name.utf8.count < 4096 else { return false }
        var slash = false
        for c in name.utf8 {
            let ok = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/")
            guard ok else { return false }
            if c == UInt8(ascii: "/") {
                if slash { return false }
                slash = true
            } else {
                slash = false
            }
        }
        return !slash
    }
}
