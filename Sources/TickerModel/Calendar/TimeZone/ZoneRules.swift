/// The rules of one time zone: a transition table and an optional POSIX TZ rule for instants past
/// it, converted the way glibc's `localtime_r` converts them.
public struct ZoneRules: Sendable, Hashable {
    /// The zone's name, e.g. `Europe/Berlin`, or `UTC`.
    public let name: String
    /// Transition instants in seconds since the epoch, ascending.
    let transitions: [Int64]
    /// For each transition, the index into `types` that starts at it.
    let transitionTypes: [Int]
    /// Local time types; never empty.
    let types: [LocalTimeType]
    /// Rule for instants at or after the last transition (the TZif footer), when present.
    let footer: PosixTimeZone?
    /// Whether the zone is only a POSIX TZ string (a `TZ` value such as `CET-1CEST,M3.5.0,M10.5.0/3`).
    let isRuleOnly: Bool
    /// glibc's `tzname[0]` and `tzname[1]` after `tzset()` loaded this zone.
    public let standardAbbreviation: String
    /// See `standardAbbreviation`.
    public let daylightAbbreviation: String
    /// glibc's `timezone == 0 && daylight == 0` (systemd's `in_utc_timezone()`).
    public let isUTCEquivalent: Bool

    /// The rules of UTC.
    public static let utc = ZoneRules(
        name: "UTC", transitions: [], transitionTypes: [],
        types: [LocalTimeType(utcOffset: 0, isDST: false, abbreviation: "UTC")], footer: nil,
        firstAbbreviation: "UTC")

    /// Creates rules from their parts. `types` must not be empty and every transition type must
    /// index into it; `firstAbbreviation` is the first string of the TZif abbreviation table.
    init(name: String, transitions: [Int64], transitionTypes: [Int], types: [LocalTimeType],
         footer: PosixTimeZone?, firstAbbreviation: String) {
        self.name = name
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.footer = footer
        isRuleOnly = false

        // glibc __tzfile_read: tzname from the latest transition of each flavour.
        var names: [String?] = [nil, nil]
        for typeIndex in transitionTypes.reversed() {
            let type = types[typeIndex]
            let flavour = type.isDST ? 1 : 0
            if names[flavour] == nil {
                names[flavour] = type.abbreviation
                if names[1 - flavour] != nil { break }
            }
        }
        let standardName = names[0] ?? firstAbbreviation
        standardAbbreviation = standardName
        daylightAbbreviation = names[1] ?? standardName

        var standardOffset: Int64 = 0
        var daylightOffset: Int64 = 0
        if transitions.isEmpty {
            standardOffset = types[0].utcOffset
            daylightOffset = standardOffset
        } else {
            var standardSet = false
            var daylightSet = false
            for typeIndex in transitionTypes.reversed() {
                let type = types[typeIndex]
                if !standardSet && !type.isDST {
                    standardSet = true
                    standardOffset = type.utcOffset
                } else if !daylightSet && type.isDST {
                    daylightSet = true
                    daylightOffset = type.utcOffset
                }
                if standardSet && daylightSet { break }
            }
            if !daylightSet { daylightOffset = standardOffset }
        }
        isUTCEquivalent = standardOffset == 0 && daylightOffset == standardOffset
    }

    /// Rules given by a POSIX TZ string alone, as glibc uses a `TZ` value that names no file.
    public init(name: String, rule: PosixTimeZone) {
        self.name = name
        transitions = []
        transitionTypes = []
        types = [LocalTimeType(utcOffset: rule.standard.utcOffset, isDST: false, abbreviation: rule.standard.name)]
        footer = rule
        isRuleOnly = true
        standardAbbreviation = rule.standard.name
        daylightAbbreviation = rule.hasDaylightTime ? rule.daylight.name : rule.standard.name
        isUTCEquivalent = rule.standard.utcOffset == 0
            && (!rule.hasDaylightTime || rule.daylight.utcOffset == 0)
    }

    /// The local time type in effect at `seconds` since the epoch (glibc `__tzfile_compute`).
    public func localTimeType(atSeconds seconds: Int64) -> LocalTimeType {
        if isRuleOnly, let footer { return footer.localTimeType(at: seconds) }
        if transitions.isEmpty || seconds < transitions[0] {
            return types.first(where: { !$0.isDST }) ?? types[0]
        }
        if seconds >= transitions[transitions.count - 1] {
            if let footer { return footer.localTimeType(at: seconds) }
            return types[transitionTypes[transitions.count - 1]]
        }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if transitions[mid] <= seconds { low = mid } else { high = mid }
        }
        return types[transitionTypes[low]]
    }

    /// The offset from UTC in seconds at `seconds` since the epoch.
    public func utcOffset(atSeconds seconds: Int64) -> Int64 {
        localTimeType(atSeconds: seconds).utcOffset
    }

    /// glibc `localtime_r`.
    func localTime(seconds: Int64) -> BrokenDownTime {
        let type = localTimeType(atSeconds: seconds)
        return BrokenDownTime(seconds: seconds, utcOffset: type.utcOffset, isDST: type.isDST ? 1 : 0,
                              abbreviation: type.abbreviation)
    }
}
