import Foundation
import TestSupport

/// The daemon at its own limits (`--full-limits`): every channel the default limits allow (64)
/// holding 1000 always-active messages, plus scheduled messages (100k) spread over them, all read
/// from one generated configuration file (one transaction at start, so filling takes seconds, not
/// the hour that posting them one by one takes).
///
/// Then, as users of such a daemon would notice it: how long a `Post` (and its `Remove`) takes;
/// how long `Render` and `Peer.Ping` take while another client posts and removes as fast as it
/// can; how long other callers wait while a client lists every message (`List ""`); and the
/// daemon's resident memory, now and at its peak.
struct FullLimits {
    /// The daemon binary.
    let binary: String
    /// The bus.
    let bus: PrivateBus
    /// Channels (`main` and `c01`…).
    let channels: Int
    /// Always-active messages per channel.
    let activePerChannel: Int
    /// Scheduled messages, spread over the channels.
    let scheduled: Int
    /// Timed calls per figure.
    let samples: Int

    /// Runs the scenario and returns its rows.
    func run() throws -> [ResultRow] {
        let config = configuration()
        let daemon = try DaemonUnderTest(binary: binary, bus: bus, config: config, readyTimeout: 1800)
        defer { daemon.stop() }
        do {
            return try measure(daemon)
        } catch {
            throw BenchError("\(error)\n--- tickerd's log (tail) ---\n\(daemon.logTail())")
        }
    }

    private func measure(_ daemon: DaemonUnderTest) throws -> [ResultRow] {
        var rows: [ResultRow] = []
        let total = channels * activePerChannel
        let size = "\(channels) × \(activePerChannel) active + \(scheduled) scheduled"
        let filledRSS = daemon.statistics.residentBytes()
        rows.append(ResultRow(
            figure: "full limits: start → READY=1 with \(size) (config file)",
            value: String(format: "%.2f s", daemon.startup.seconds), spread: "one start", budget: "—", met: nil,
            note: "\(total + scheduled) messages"))
        let address = bus.address
        let client = try BlockingClient(address: address)
        // Warm up: the first calls set up the client's side.
        for index in 0..<3 { try client.postAndRemove(channel: "main", id: "warm-\(index)") }

        // Post + Remove alone.
        var posts: [Double] = []
        var removes: [Double] = []
        let cpuBefore = daemon.statistics.cpuSeconds()
        for index in 0..<samples {
            let (post, remove) = try client.timedPostAndRemove(channel: "main", id: "quiet-\(index)")
            posts.append(post)
            removes.append(remove)
        }
        let cpuPerPair = (daemon.statistics.cpuSeconds() - cpuBefore) / Double(samples)
        var post = latencyRow("full limits: Post, answered (client side)", posts, budget: 2)
        post = ResultRow(figure: post.figure, value: post.value, spread: post.spread, budget: post.budget, met: post.met,
                         note: String(format: "daemon CPU %.2f ms per Post + Remove pair", cpuPerPair * 1000))
        rows.append(post)
        rows.append(latencyRow("full limits: Remove, answered (client side)", removes, budget: nil))
        rows.append(latencyRow(
            "floor: append \(PostLatency.probeRecordSize) B + fdatasync beside the state folder",
            try durableWrites(beside: daemon.stateDirectory), budget: nil))

        // Render, Ping and Post while another client posts and removes as fast as it can.
        let poster = BackgroundCaller(address: address) { client, index in
            try client.postAndRemove(channel: "c01", id: "load-\(index)")
        }
        var renders: [Double] = []
        var pings: [Double] = []
        var loadedPosts: [Double] = []
        for index in 0..<samples {
            renders.append(try client.timed { try client.render(channel: "main") })
            pings.append(try client.timed { try client.ping() })
            loadedPosts.append(try client.timedPostAndRemove(channel: "main", id: "loaded-\(index)").post)
        }
        let posterCalls = try poster.stop()
        let load = "while another client made \(posterCalls) Post + Remove pairs"
        rows.append(latencyRow("full limits: Render, 80 columns (\(load))", renders, budget: 1))
        rows.append(latencyRow("full limits: Peer.Ping (same load)", pings, budget: 1))
        rows.append(latencyRow("full limits: Post, answered (same load)", loadedPosts, budget: 2))

        let rss = daemon.statistics.residentBytes()
        let peak = daemon.statistics.peakResidentBytes()
        rows.append(ResultRow(
            figure: "full limits: RSS after the load / peak",
            value: String(format: "%.1f / %.1f MB", Double(rss) / 1_048_576, Double(peak) / 1_048_576),
            spread: String(format: "%.1f MB right after start", Double(filledRSS) / 1_048_576),
            budget: "—", met: nil, note: "VmRSS / VmHWM"))

        // List one channel, then every channel, while another caller pings.
        for channel in ["main", ""] {
            let pinger = BackgroundCaller(address: address) { client, _ in try client.ping() }
            var lists: [Double] = []
            var outcome = ""
            for _ in 0..<3 {
                let started = ContinuousClock.now
                do {
                    outcome = "\(try client.list(channel: channel)) entries"
                } catch {
                    outcome = "answered \(error)"
                }
                lists.append((ContinuousClock.now - started).seconds)
            }
            var pings = 0
            var lost = false
            do { pings = try pinger.stop() } catch {
                lost = true
                outcome += "; the pinging caller got \(error)"
            }
            let stall = pinger.slowest
            rows.append(ResultRow(
                figure: "full limits: longest Peer.Ping of another caller during `List \"\(channel)\"`",
                value: lost ? "tickerd left the bus" : String(format: "%.1f ms", stall * 1000),
                spread: String(format: "List took %.0f–%.0f ms: ", (lists.min() ?? 0) * 1000,
                               (lists.max() ?? 0) * 1000) + outcome,
                budget: "≤ 50 ms", met: !lost && stall <= 0.05, note: "3 lists, \(pings) pings back to back"))
        }
        client.close()
        return rows
    }

    /// `samples` appends of a journal record's size, each made durable with `fdatasync`, to a file
    /// beside `directory` (the same file system); the seconds each took.
    private func durableWrites(beside directory: String) throws -> [Double] {
        let path = directory + ".full-limits-probe"
        let probe = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        guard probe >= 0 else { throw BenchError("cannot create \(path): errno \(errno)") }
        defer {
            close(probe)
            unlink(path)
        }
        let record = [UInt8](repeating: UInt8(ascii: "x"), count: PostLatency.probeRecordSize)
        return try (0..<samples).map { _ in
            let started = ContinuousClock.now
            let wrote = record.withUnsafeBytes { write(probe, $0.baseAddress, $0.count) }
            guard wrote == record.count, fdatasync(probe) == 0 else { throw BenchError("probe write failed: errno \(errno)") }
            return (ContinuousClock.now - started).seconds
        }
    }

    /// The configuration: `[limits] messages` leaves room for the scheduled ones and the Posts.
    func configuration(now: Date = Date()) -> String {
        let names = (0..<channels).map { $0 == 0 ? "main" : String(format: "c%02d", $0) }
        let perChannel = activePerChannel + (scheduled + channels - 1) / channels + 10
        var text = "[limits]\nmessages = \(perChannel)\nchannels = \(max(channels, 1))\n"
        text.reserveCapacity((channels * activePerChannel + scheduled) * 90)
        for name in names { text += "\n[channel.\(name)]\nframe-rate = 0\n" }
        for (index, name) in names.enumerated() {
            for number in 0..<activePerChannel {
                text += "\n[[message]]\nid = \"a\(index)-\(number)\"\nchannel = \"\(name)\"\n"
                    + "text = \"always on, \(name) message \(number)\"\n"
            }
        }
        let base = Int(now.timeIntervalSince1970) + 86_400
        for number in 0..<scheduled {
            let name = names[number % names.count]
            text += "\n[[message]]\nid = \"s\(number)\"\nchannel = \"\(name)\"\n"
                + "text = \"scheduled message \(number)\"\nstart = \"@\(base + number * 60)\"\n"
        }
        return text
    }

    private func latencyRow(_ figure: String, _ values: [Double], budget: Double?) -> ResultRow {
        let stats = Percentiles(values)
        let p99 = stats.percentile(99) * 1000
        return ResultRow(
            figure: figure, value: String(format: "p99 %.2f ms", p99),
            spread: String(format: "p50 %.2f ms, max %.2f ms, %d calls", stats.median * 1000, stats.maximum * 1000,
                           values.count),
            budget: budget.map { String(format: "p99 ≤ %.0f ms", $0) } ?? "—", met: budget.map { p99 <= $0 }, note: "")
    }
}
