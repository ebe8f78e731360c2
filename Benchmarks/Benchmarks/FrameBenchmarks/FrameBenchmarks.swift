import Benchmark
import TickerModel

func makeTimeline(clusters: Int, mode: Mode = .continuous) -> Timeline {
    let tape = Tape(messages: makeMessages(clusters: clusters), separator: ChannelSettings.defaultSeparator)
    return Timeline(tape: tape, settings: ChannelSettings(mode: mode, speed: .cellsPerSecond(8)), at: 1_700_000_000_000_000)
}

/// The naive way: rebuild the rotated string from the tape's characters for every frame (O(n)).
func naiveFrame(_ characters: [Character], widths: [Int], columns: Int, at cell: Int) -> String {
    let total = widths.reduce(0, +)
    var start = cell % total
    var rotated: [Character] = []
    var i = 0
    // Skip whole characters up to the start cell, then take the rest and wrap around.
    while start > 0 {
        start -= widths[i]
        i += 1
    }
    rotated.append(contentsOf: characters[i...])
    rotated.append(contentsOf: characters[..<i])
    var text = ""
    var cells = 0
    for character in rotated {
        let w = CellWidth.of(character)
        if cells + w > columns { break }
        text.append(character)
        cells += w
    }
    return text + String(repeating: " ", count: columns - cells)
}

/// The naive baseline's input: the tape as characters and their widths.
struct NaiveInput {
    var characters: [Character]
    var widths: [Int]
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )
    registerFrameBenchmarks()
    registerEffectBenchmarks()
    registerScheduleBenchmarks()
    registerTimelineFieldBenchmarks()
}

/// Frames of plain tapes from 10² to 10⁶ clusters, the tape build and the naive baseline.
func registerFrameBenchmarks() {
    for size in [100, 10_000, 1_000_000] {
        Benchmark("frame/\(size) clusters/80 columns") { benchmark, timeline in
            // A different instant each iteration: the frame lands anywhere on the tape.
            var t: Instant = 1_700_000_000_000_000
            for _ in benchmark.scaledIterations {
                t += 123_457
                blackHole(timeline.frame(columns: 80, at: t))
            }
        } setup: {
            makeTimeline(clusters: size)
        }
    }

    // Pages mode keeps its layout per column count: after the first frame, a page is found by search.
    for size in [100, 10_000, 1_000_000] {
        Benchmark("frame/pages/\(size) clusters/80 columns") { benchmark, timeline in
            var t: Instant = 1_700_000_000_000_000
            for _ in benchmark.scaledIterations {
                t += 123_457
                blackHole(timeline.frame(columns: 80, at: t))
            }
        } setup: { () -> Timeline in
            let timeline = makeTimeline(clusters: size, mode: .pages)
            _ = timeline.frame(columns: 80, at: 1_700_000_000_000_000)
            return timeline
        }
    }

    Benchmark("tape construction/10000 clusters", configuration: .init(scalingFactor: .one)) { benchmark, messages in
        for _ in benchmark.scaledIterations {
            blackHole(Tape(messages: messages, separator: ChannelSettings.defaultSeparator))
        }
    } setup: {
        makeMessages(clusters: 10_000)
    }

    for size in [100, 10_000] {
        Benchmark("naive frame/\(size) clusters/80 columns", configuration: .init(scalingFactor: .one)) { (benchmark: Benchmark, input: NaiveInput) in
            var cell = 0
            for _ in benchmark.scaledIterations {
                cell += 977
                blackHole(naiveFrame(input.characters, widths: input.widths, columns: 80, at: cell))
            }
        } setup: {
            let characters = Array(makeTimeline(clusters: size).tape.text)
            return NaiveInput(characters: characters, widths: characters.map { CellWidth.of($0) })
        }
    }
}
