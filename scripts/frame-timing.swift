// Frame cost at 10², 10⁴ and 10⁶ clusters, 80 columns: best of 5 rounds of N frames (default
// 200,000), for an ASCII tape and for the package-benchmark's mixed tape (CJK, emoji, flags,
// combining marks, from Benchmarks/…/MixedText.swift). Run with
//   scripts/model-timing.sh scripts/frame-timing.swift \
//       --with Benchmarks/Benchmarks/FrameBenchmarks/MixedText.swift [N [ascii|mixed]]
// (release build, no benchmark package); RUNNER="valgrind --tool=callgrind" counts instructions.
import TickerModel
#if canImport(Glibc)
import Glibc
#endif
func now() -> Double { var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts); return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec) }

let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
let kinds = CommandLine.arguments.count > 2 ? [CommandLine.arguments[2]] : ["ascii", "mixed"]
for kind in kinds {
    for n in [100, 10_000, 1_000_000] {
        let messages = kind == "ascii"
            ? [String((0..<n).map { i in Character(UnicodeScalar(UInt8(97 + i % 26))) })]
            : makeMessages(clusters: n)
        let tape = Tape(messages: messages, separator: "  •  ")
        let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: 0)
        var sink = 0
        var best = Double.infinity
        for _ in 0..<5 {
            let start = now()
            for i in 0..<iterations {
                let f = timeline.frame(columns: 80, at: Int64(i) &* 7_919_000)
                sink &+= f.text.utf8.count
            }
            best = min(best, (now() - start) / Double(iterations))
        }
        print(kind, n, Int(best), "ns", sink)
    }
}
