import Foundation
import TestSupport

// tickerd-bench: starts the real tickerd on a private bus and prints one table of daemon-level
// figures (issue 9). `--smoke` runs every scenario with tiny sizes.

/// Starts a private bus and tickerd on it configured for `subscribers`, runs `body` against them
/// and stops both; a failure carries the tail of tickerd's log.
func withDaemon(_ settings: BenchSettings, subscribers: Int,
                _ body: (PrivateBus, DaemonUnderTest) throws -> [ResultRow]) throws -> [ResultRow] {
    signal(SIGPIPE, SIG_IGN)
    let bus = try PrivateBus.forBenchmarks()
    defer { bus.stop() }
    let daemon = try DaemonUnderTest(
        binary: settings.tickerd, bus: bus, config: BenchConfigs.scrolling(subscribers: subscribers))
    defer { daemon.stop() }
    do {
        return try body(bus, daemon)
    } catch {
        throw BenchError("\(error)\n--- tickerd's log (tail) ---\n\(daemon.logTail())")
    }
}

/// Runs every scenario in order and returns the rows.
func runBenchmarks(_ settings: BenchSettings) throws -> [ResultRow] {
    try withDaemon(settings, subscribers: settings.frameClients) { bus, daemon in
        try runScenarios(settings, bus: bus, daemon: daemon)
    }
}

/// The scenarios, in order, against a running daemon (which the last ones restart and stop).
func runScenarios(_ settings: BenchSettings, bus: PrivateBus, daemon: DaemonUnderTest) throws -> [ResultRow] {
    var rows: [ResultRow] = []
    func step(_ name: String) { FileHandle.standardError.write(Data("tickerd-bench: \(name)\n".utf8)) }

    Thread.sleep(forTimeInterval: 1)  // let start-up work finish before measuring idleness
    step("RSS idle")
    rows.append(MemoryRows.idle(daemon))
    step("idle wake-ups (\(settings.idleWindow) s)")
    rows.append(IdleWakeups(daemon: daemon.statistics, window: settings.idleWindow).run())
    step("CPU with 10 subscribers (\(settings.loadWindow) s)")
    rows.append(try SubscriberCPU(daemon: daemon, window: settings.loadWindow).run())
    step("Post latency (\(settings.posts) posts)")
    rows.append(contentsOf: try LatencyRows.run(daemon: daemon, posts: settings.posts))
    step("Frame throughput (\(settings.frameClients) subscribers, \(settings.loadWindow) s)")
    rows.append(try FrameThroughput(
        daemon: daemon, clients: settings.frameClients, fps: settings.frameRate, window: settings.loadWindow).run())
    step("start → READY=1 (\(settings.starts) starts)")
    rows.append(try StartupTime(daemon: daemon, starts: settings.starts).run())
    // The starts above read the state the posts left: a daemon's everyday start (at login, after
    // an upgrade) decodes its saved state too.
    Thread.sleep(forTimeInterval: 1)
    step("RSS idle after a restart")
    rows.append(MemoryRows.idle(daemon, figure: "RSS idle after a restart on its saved state"))
    daemon.stop()
    step("RSS with \(settings.scheduledMessages) scheduled messages")
    rows.append(try MemoryRows.scheduled(binary: settings.tickerd, bus: bus, count: settings.scheduledMessages))
    return rows
}

/// Runs the soak (`--soak`) against a daemon of its own and returns its rows.
func runSoak(_ settings: BenchSettings) throws -> [ResultRow] {
    try withDaemon(settings, subscribers: settings.soakSubscribers) { _, daemon in
        FileHandle.standardError.write(Data(
            "tickerd-bench: soak, \(settings.soakSubscribers) subscribers, \(settings.soakWindow) s\n".utf8))
        return try Soak(
            daemon: daemon, subscribers: settings.soakSubscribers, fps: settings.soakFrameRate,
            window: settings.soakWindow, postInterval: settings.soakPostInterval
        ).run()
    }
}

do {
    let settings = try BenchSettings.parse(Array(CommandLine.arguments.dropFirst()))
    if settings.isFullLimits {
        signal(SIGPIPE, SIG_IGN)
        let bus = try PrivateBus.forBenchmarks()
        defer { bus.stop() }
        FileHandle.standardError.write(Data("tickerd-bench: full limits, \(settings.fullChannels) × \(settings.fullActive) active + \(settings.scheduledMessages) scheduled\n".utf8))
        let rows = try FullLimits(
            binary: settings.tickerd, bus: bus, channels: settings.fullChannels, activePerChannel: settings.fullActive,
            scheduled: settings.scheduledMessages, samples: settings.fullSamples
        ).run()
        print(ResultTable.render(rows, verdicts: !settings.isSmoke))
    } else if settings.isSoak {
        let rows = try runSoak(settings)
        print(ResultTable.render(rows))
        if rows.contains(where: { $0.met == false }) { exit(1) }
    } else {
        let rows = try runBenchmarks(settings)
        print(ResultTable.render(rows, verdicts: !settings.isSmoke))
    }
} catch {
    FileHandle.standardError.write(Data("tickerd-bench: \(error)\n".utf8))
    exit(1)
}
