import Benchmark
import TickerModel

/// A schedule that the benchmark moves forward boundary by boundary, as the daemon does.
final class MarchingSchedule: @unchecked Sendable {
    var schedule: Schedule
    let origin: Instant
    var t: Instant

    init(_ entries: [ScheduleEntry], origin: Instant) {
        schedule = Schedule(entries)
        self.origin = origin
        t = origin
        _ = schedule.nextBoundary(after: origin)  // the first evaluation is not what is timed
    }

    /// The next boundary after the last one (back to the start when there is none).
    func step() -> Instant? {
        if let next = schedule.nextBoundary(after: t) {
            t = next
            return next
        }
        t = origin
        return nil
    }
}

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

/// 100,000 messages: 40% with a TTL, 30% with an absolute window, 30% recurring, each recurring
/// one on a calendar of its own (a time of day to the second).
func makeScheduleEntries(origin: Instant) -> [ScheduleEntry] {
    var random = SplitMix64(state: 9)
    let second: Int64 = 1_000_000
    let zones = ZoneTable()
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
            let expression = "*-*-* \(i / 7 % 24):\(i / 3 % 60):\(i % 60)"
            guard let calendar = try? CalendarSpec(parsing: expression, zones: zones) else { fatalError(expression) }
            window = .recurring(calendar: calendar, duration: Int64.random(in: 60...(12 * 3600), using: &random) * second)
        }
        entries.append(ScheduleEntry(
            id: "m\(i)", priority: Int.random(in: 0...3, using: &random), isUrgent: false, window: window,
            postedAt: origin + Int64.random(in: -3600...0, using: &random) * second))
    }
    return entries
}

/// The next schedule boundary with 100k messages, each query moving to the next change.
func registerScheduleBenchmarks() {
    let origin: Instant = 1_767_225_600_000_000  // 2026-01-01 00:00 UTC
    Benchmark(
        "schedule/next boundary, 100000 messages",
        configuration: .init(scalingFactor: .one, maxDuration: .seconds(5))
    ) { benchmark, marching in
        for _ in benchmark.scaledIterations {
            blackHole(marching.step())
        }
    } setup: {
        MarchingSchedule(makeScheduleEntries(origin: origin), origin: origin)
    }
}
