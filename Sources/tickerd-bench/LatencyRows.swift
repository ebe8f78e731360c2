import Foundation

/// The latency scenario's rows: the Post latencies and the floors they stand on.
enum LatencyRows {
    /// Runs ``PostLatency`` against `daemon` and turns the samples into rows.
    static func run(daemon: DaemonUnderTest, posts: Int) throws -> [ResultRow] {
        // The client runs its loop on a thread of its own.
        let slot = ResultSlot<PostLatency.Samples>()
        let done = DispatchSemaphore(value: 0)
        let probePath = daemon.stateDirectory + ".latency-probe"
        let address = daemon.bus.address
        let thread = Thread {
            slot.set(Result { try PostLatency(address: address, posts: posts, probePath: probePath).run() })
            done.signal()
        }
        thread.start()
        done.wait()
        let samples = try slot.get()
        let ping = Percentiles(samples.ping).median * 1000
        let durableFloor = ping + Percentiles(samples.durableWrite).median * 1000
        let signalNote = String(
            format: "stored, then announced; floor (Ping + durable write, p50s) %.2f ms", durableFloor)
        return [
            row("Post → MessageStarted seen by a client", samples.messageStarted, posts, note: signalNote),
            row("Post → PropertiesChanged(Messages) seen by a client", samples.messagesChanged, posts, note: signalNote),
            aboveFloorRow(samples, posts),
            answerRow(samples.answered, posts, note: String(
                format: "answered once the record is durable; floor (Ping + durable write, p50s) %.2f ms", durableFloor)),
            floorRow("floor: Peer.Ping round trip to tickerd (same client, same bus)", samples.ping, posts),
            floorRow("Peer.Ping answered through the client's event loop (as Posts are)", samples.pingThroughLoop, posts),
            floorRow(
                "floor: append \(PostLatency.probeRecordSize) B + fdatasync beside the state folder (as the journal writes)",
                samples.durableWrite, posts),
        ]
    }

    private static func row(_ figure: String, _ values: [Double], _ posts: Int, note floorNote: String) -> ResultRow {
        let stats = Percentiles(values)
        let p50 = stats.median * 1000
        let p99 = stats.percentile(99) * 1000
        return ResultRow(
            figure: figure,
            value: String(format: "p50 %.2f ms", p50),
            spread: String(format: "p99 %.2f ms, min %.2f, max %.2f ms, %d posts", p99, stats.minimum * 1000, stats.maximum * 1000, posts),
            budget: "p99 ≤ 2 ms", met: p99 <= 2,
            note: floorNote)
    }

    /// Post → its answer: no budget of its own (it follows the signals, which follow the durable
    /// write).
    private static func answerRow(_ values: [Double], _ posts: Int, note: String) -> ResultRow {
        let stats = Percentiles(values)
        return ResultRow(
            figure: "Post → its answer (the message stored durably)",
            value: String(format: "p50 %.2f ms", stats.median * 1000),
            spread: String(format: "p99 %.2f ms, min %.2f, max %.2f ms, %d posts", stats.percentile(99) * 1000,
                           stats.minimum * 1000, stats.maximum * 1000, posts),
            budget: "—", met: nil, note: note)
    }

    /// What the daemon adds to the floor: for each post, its MessageStarted latency minus the Ping
    /// timed right after it (paired, so a busy moment of the host moves both sides). This share
    /// is the daemon's (its work on the Post, and the extra bus hop of a broadcast signal), and
    /// stays put when the host's load moves the floor.
    private static func aboveFloorRow(_ samples: PostLatency.Samples, _ posts: Int) -> ResultRow {
        let above = PostLatency.aboveFloor(samples)
        let stats = Percentiles(above)
        return ResultRow(
            figure: "Post → MessageStarted above its floor (per post: minus its Ping)",
            value: String(format: "p50 %+.2f ms", stats.median * 1000),
            spread: String(format: "p90 %+.2f ms, min %+.2f ms, %d posts", stats.percentile(90) * 1000,
                           stats.minimum * 1000, above.count),
            budget: "—", met: nil,
            note: "the daemon's own work and its signal's extra bus hop; the floor is the host's")
    }

    /// A row without a budget: what the machine itself costs.
    private static func floorRow(_ figure: String, _ values: [Double], _ count: Int) -> ResultRow {
        let stats = Percentiles(values)
        return ResultRow(
            figure: figure,
            value: String(format: "p50 %.2f ms", stats.median * 1000),
            spread: String(format: "p99 %.2f ms, min %.2f, max %.2f ms, %d samples", stats.percentile(99) * 1000,
                           stats.minimum * 1000, stats.maximum * 1000, count),
            budget: "—", met: nil, note: "measured between the posts, in the same conditions")
    }
}
