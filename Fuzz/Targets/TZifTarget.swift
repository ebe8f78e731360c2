@testable import TickerModel

/// TZif zone files (`/usr/share/zoneinfo`, or one a user points `TZ=` at). Properties: bytes that
/// parse give rules whose offsets stay within a day, whose local times are valid calendar fields,
/// and with which a calendar expression in that zone finds its next elapse after the base.
enum TZifTarget {
    static let probes: [Int64] = [-62_135_596_800, -1, 0, 1_711_845_000, 4_102_444_800, 253_402_300_799]

    static func run(_ input: FuzzInput) {
        guard input.bytes.count <= 16_384 else { return }
        guard let rules = try? TZifParser.parse(input.bytes, name: "Fuzz/Zone") else { return }
        for seconds in probes {
            let offset = rules.utcOffset(atSeconds: seconds)
            require(abs(offset) < 86_400 * 2, "offset \(offset) s at \(seconds) is more than two days")
            let local = rules.localTime(seconds: seconds)
            require((0...11).contains(local.month) && (1...31).contains(local.day) && (0...23).contains(local.hour)
                    && (0...59).contains(local.minute) && (0...60).contains(local.second) && (0...6).contains(local.weekday),
                    "local time at \(seconds) has impossible fields: \(local)")
        }
        let zones = ZoneTable(localZone: rules)
        if let spec = try? CalendarSpec(parsing: "*-*-* 02:30:00", zones: zones) {
            let base: Instant = 1_711_845_000_000_000
            if let next = spec.nextElapse(after: base) {
                require(next > base, "the next 02:30 after \(base) is \(next), not later")
            }
        }
    }
}
