import Foundation

/// The latency scenario's two table rows.
enum LatencyRows {
    /// Runs ``PostLatency`` against `address` and turns the samples into rows.
    static func run(address: String, posts: Int) throws -> [ResultRow] {
        // The client runs its loop on a thread of its own.
        let slot = ResultSlot<PostLatency.Samples>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            slot.set(Result { try PostLatency(address: address, posts: posts).run() })
            done.signal()
        }
        thread.start()
        done.wait()
        let samples = try slot.get()
        return [
            row("Post → MessageStarted seen by a client", samples.messageStarted, posts),
            row("Post → PropertiesChanged(Messages) seen by a client", samples.messagesChanged, posts),
        ]
    }

    private static func row(_ figure: String, _ values: [Double], _ posts: Int) -> ResultRow {
        let stats = Percentiles(values)
        let p50 = stats.median * 1000
        let p99 = stats.percentile(99) * 1000
        return ResultRow(
            figure: figure,
            value: String(format: "p50 %.2f ms", p50),
            spread: String(format: "p99 %.2f ms, min %.2f, max %.2f ms, %d posts", p99, stats.minimum * 1000, stats.maximum * 1000, posts),
            budget: "p50 ≤ 0.5 ms, p99 ≤ 2 ms", met: p50 <= 0.5 && p99 <= 2,
            note: "each Post is stored (one fdatasync) before it returns")
    }
}
