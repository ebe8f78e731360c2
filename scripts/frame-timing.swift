// Frame cost at 10², 10⁴ and 10⁶ clusters, 80 columns: best of 5 rounds of 200,000 frames.
// Run with scripts/model-timing.sh scripts/frame-timing.swift (release build, no benchmark package).
import TickerModel
#if canImport(Glibc)
import Glibc
#endif
func now() -> Double { var ts = timespec(); clock_gettime(CLOCK_MONOTONIC, &ts); return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec) }
for n in [100, 10_000, 1_000_000] {
    let text = String((0..<n).map { i in Character(UnicodeScalar(UInt8(97 + i % 26))) })
    let tape = Tape(messages: [text], separator: "  •  ")
    let timeline = Timeline(tape: tape, settings: ChannelSettings(), at: 0)
    var sink = 0
    let iterations = 200_000
    var best = Double.infinity
    for _ in 0..<5 {
        let start = now()
        for i in 0..<iterations {
            let f = timeline.frame(columns: 80, at: Int64(i) &* 7_919_000)
            sink &+= f.text.utf8.count
        }
        best = min(best, (now() - start) / Double(iterations))
    }
    print(n, Int(best), "ns", sink)
}
