import Foundation

/// Frame signals the daemon gets out to many subscribers at 60 fps, and which process is busy.
struct FrameThroughput {
    /// The running daemon and its bus.
    let daemon: DaemonUnderTest
    /// Subscriber connections.
    let clients: Int
    /// Frames per second each asks for.
    let fps: Double
    /// The measured window in seconds.
    let window: Double

    /// Subscribes, measures and returns the row.
    func run() throws -> ResultRow {
        let subscribers = try FrameSubscribers(
            address: daemon.bus.address, count: clients, threadCount: 4, columns: 80, fps: fps)
        defer { subscribers.close() }
        Thread.sleep(forTimeInterval: min(1, window / 2))  // let the subscriptions settle
        let framesBefore = try subscribers.framesReceived()
        let cpu = CPUWindow([
            ("tickerd", daemon.statistics),
            ("dbus-daemon", ProcessStatistics(pid: daemon.bus.daemon.pid)),
            ("clients", ProcessStatistics(pid: getpid())),
        ])
        Thread.sleep(forTimeInterval: window)
        let (percent, elapsed) = cpu.finish()
        let rate = Double(try subscribers.framesReceived() - framesBefore) / elapsed
        let asked = Double(clients) * fps
        let busiest = zip(["tickerd", "dbus-daemon", "clients"], percent).max { $0.1 < $1.1 }?.0 ?? "?"
        return ResultRow(
            figure: "Frame signals received, \(clients) subscribers × \(IdleWakeups.format(fps)) fps × 80 columns",
            value: String(format: "%.0f /s", rate),
            spread: String(format: "asked %.0f /s, %.0f s window", asked, elapsed),
            budget: "≥ 20k/s, bounded by dbus-daemon", met: rate >= 20_000 && busiest != "tickerd",
            note: String(format: "CPU: tickerd %.0f %%, dbus-daemon %.0f %%, clients %.0f %% (busiest: %@)",
                         percent[0], percent[1], percent[2], busiest))
    }
}
