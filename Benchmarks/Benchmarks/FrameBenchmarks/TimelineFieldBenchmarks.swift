import Benchmark
import TickerModel

/// A channel's timeline to and from its fields: what the `Timeline` property and the stored
/// state carry on every change (a message's way onto the bus and into the journal).
func registerTimelineFieldBenchmarks() {
    for size in [100, 10_000] {
        Benchmark("timeline fields/write/\(size) clusters", configuration: .init(scalingFactor: .one)) { benchmark, timeline in
            for _ in benchmark.scaledIterations {
                var count = 0
                timeline.forEachField { _, _ in count += 1 }
                blackHole(count)
            }
        } setup: {
            makeTimeline(clusters: size)
        }
        Benchmark("timeline fields/read/\(size) clusters", configuration: .init(scalingFactor: .one)) { benchmark, fields in
            for _ in benchmark.scaledIterations {
                blackHole(try Timeline(fields: fields))
            }
        } setup: {
            makeTimeline(clusters: size).fields
        }
    }
}
