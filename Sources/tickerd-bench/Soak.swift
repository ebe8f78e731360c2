import DBus
import Foundation

/// The long load run of issue 10 (`--soak`): many subscribers following `main` at one rate while
/// a client posts every few milliseconds (each Post replaces one of 20 messages on `main`, so the
/// tape keeps changing), for a long window. It reports, with verdicts: frames each subscriber
/// got against the rate it asked for, disconnects, Post latency and failures, the daemon's CPU
/// and its RSS over the run.
struct Soak {
    /// The running daemon and its bus.
    let daemon: DaemonUnderTest
    /// Subscriber connections.
    let subscribers: Int
    /// Frames per second each asks for.
    let fps: Double
    /// The measured window in seconds.
    let window: Double
    /// Seconds between Posts.
    let postInterval: Double

    /// Runs the soak and returns its rows.
    func run() throws -> [ResultRow] {
        let clients = try FrameSubscribers(
            address: daemon.bus.address, count: subscribers, threadCount: 4, columns: 80, fps: fps)
        defer { clients.close() }
        Thread.sleep(forTimeInterval: 1)  // let every subscription deliver its first frames
        let thread = try ClientThread()
        defer { thread.stop() }
        let address = daemon.bus.address
        let loop = thread.loop
        let postInterval = self.postInterval
        let poster = try thread.sync {
            LoopBound(try SoakPoster(address: address, loop: loop, interval: postInterval), loop: loop)
        }
        defer { _ = try? thread.sync { poster.value.close() } }

        let rssStart = daemon.statistics.residentBytes()
        var rssPeak = rssStart
        let before = try clients.framesPerConnection()
        let cpu = CPUWindow([("tickerd", daemon.statistics), ("dbus-daemon", ProcessStatistics(pid: daemon.bus.daemon.pid))])
        let started = Date()
        try thread.sync { poster.value.start() }
        while Date().timeIntervalSince(started) < window {
            // The RSS sampling pace; the poster and the subscribers run on their own loops.
            Thread.sleep(forTimeInterval: min(1, max(0, window - Date().timeIntervalSince(started))))
            rssPeak = max(rssPeak, daemon.statistics.residentBytes())
        }
        try thread.sync { poster.value.stop() }
        let (percent, elapsed) = cpu.finish()
        let after = try clients.framesPerConnection()
        let disconnects = try clients.disconnected()
        let rssEnd = daemon.statistics.residentBytes()
        rssPeak = max(rssPeak, rssEnd)

        // The answers to the last Posts may still be on their way (each has a 10 s timeout).
        let answersDue = Date().addingTimeInterval(11)
        while try thread.sync(timeout: 5, { poster.value.outstanding }) > 0, Date() < answersDue {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let (latencies, failures, sent, deferred) = try thread.sync {
            (poster.value.latencies, poster.value.failures, poster.value.sent, poster.value.deferred)
        }

        let rates = zip(after, before).map { Double($0 - $1) / elapsed }
        let spread = Percentiles(rates)
        let ratesMet = spread.minimum >= fps * 0.9 && spread.maximum <= fps * 1.05 + 1 / elapsed
        let postStats = Percentiles(latencies)
        let label = "\(subscribers) subscribers × \(IdleWakeups.format(fps)) fps, Post every \(IdleWakeups.format(postInterval * 1000)) ms, \(Int(elapsed.rounded())) s"
        let mb = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        return [
            ResultRow(
                figure: "Soak frames per subscriber (\(label))",
                value: String(format: "%.1f /s median", spread.median),
                spread: String(format: "min %.1f, max %.1f /s; asked %@", spread.minimum, spread.maximum, IdleWakeups.format(fps)),
                budget: "every subscriber 90–105 % of its rate", met: ratesMet,
                note: String(format: "%d frames in all", zip(after, before).reduce(0) { $0 + $1.0 - $1.1 })),
            ResultRow(
                figure: "Soak disconnects", value: "\(disconnects)", spread: "of \(subscribers) subscribers",
                budget: "0", met: disconnects == 0, note: ""),
            ResultRow(
                figure: "Soak Posts", value: "\(latencies.count) of \(sent) answered, \(failures.count) failed",
                spread: String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms", postStats.median * 1000,
                               postStats.percentile(99) * 1000, postStats.maximum * 1000),
                budget: "every one answered, none deferred",
                met: failures.isEmpty && latencies.count == sent && sent > 0 && deferred == 0,
                note: String(format: "%.0f Posts/s sent, %d deferred (16 unanswered)", Double(sent) / elapsed, deferred)
                    + (failures.first.map { "; first failure: \($0)" } ?? "")),
            ResultRow(
                figure: "Soak daemon CPU", value: String(format: "%.0f %% of one core", percent[0]),
                spread: String(format: "dbus-daemon %.0f %%", percent[1]), budget: "recorded", met: nil, note: ""),
            ResultRow(
                figure: "Soak daemon RSS", value: "\(mb(rssStart)) → \(mb(rssEnd)) MB",
                spread: "peak \(mb(rssPeak)) MB", budget: "grows < 10 MB", met: rssEnd - rssStart < 10 << 20,
                note: ""),
        ]
    }
}
