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
