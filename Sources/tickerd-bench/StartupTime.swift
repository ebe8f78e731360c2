/// Start → READY=1: the daemon is restarted `starts` times; each start is timed from spawn to
/// the READY=1 datagram on the harness's notify socket.
struct StartupTime {
    /// The daemon (restarted in place).
    let daemon: DaemonUnderTest
    /// How many starts to time.
    let starts: Int

    /// Restarts, measures and returns the row.
    func run() throws -> ResultRow {
        var samples: [Double] = []
        for _ in 0..<starts {
            try daemon.restart()
            samples.append(daemon.startup.seconds)
        }
        let stats = Percentiles(samples)
        return ResultRow(
            figure: "start → READY=1 (small config)",
            value: String(format: "%.1f ms", stats.median * 1000),
            spread: String(format: "min %.1f, max %.1f ms over %d starts", stats.minimum * 1000, stats.maximum * 1000, starts),
            budget: "≤ 50 ms", met: stats.median <= 0.050, note: "spawn to the datagram, includes exec and bus Hello")
    }
}
