// Schedules of the package-benchmark suite. No import of Benchmark here.
import TickerModel

/// A seeded generator, so every run schedules the same messages.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1330_11EB
        return z ^ (z >> 31)
    }
}

/// Message `i`'s calendar of its own: a time of day to the second, in UTC.
func distinctCalendar(_ i: Int) -> CalendarSpec {
    let expression = "*-*-* \(i / 7 % 24):\(i / 3 % 60):\(i % 60)"
    guard let calendar = try? CalendarSpec(parsing: expression, zones: ZoneTable()) else {
        fatalError("the sample calendar \(expression) does not parse")
    }
    return calendar
}

/// 100,000 messages (the same ones in every run): 40% with a TTL, 30% with an absolute window,
/// 30% recurring on the calendar `calendarFor(i)` gives message `i`.
func makeScheduleEntries(origin: Instant, calendarFor: (Int) -> CalendarSpec = distinctCalendar) -> [ScheduleEntry] {
    var random = SplitMix64(state: 9)
    let second: Int64 = 1_000_000
    var entries: [ScheduleEntry] = []
    entries.reserveCapacity(100_000)
    for i in 0..<100_000 {
        let window: ScheduleWindow
        switch i % 10 {
        case 0, 1, 2, 3:
            window = .timeToLive(microseconds: Int64.random(in: 1...(30 * 86_400), using: &random) * second)
        case 4, 5, 6:
            let start = origin + Int64.random(in: -86_400...(30 * 86_400), using: &random) * second
            window = .absolute(start: start, end: start + Int64.random(in: 60...(7 * 86_400), using: &random) * second)
        default:
            window = .recurring(calendar: calendarFor(i), duration: Int64.random(in: 60...(12 * 3600), using: &random) * second)
        }
        entries.append(ScheduleEntry(
            id: "m\(i)", priority: Int32(Int.random(in: 0...3, using: &random)), isUrgent: false, window: window,
            postedAt: origin + Int64.random(in: -3600...0, using: &random) * second))
    }
    return entries
}
