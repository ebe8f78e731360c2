import Foundation

/// Daemon CPU while 10 subscribers take 10 frames a second of 40 columns each.
struct SubscriberCPU {
    /// The running daemon and its bus.
    let daemon: DaemonUnderTest
    /// The measured window in seconds.
    let window: Double

    /// Subscribes, measures and returns the row.
    func run() throws -> ResultRow {
        let subscribers = try FrameSubscribers(
            address: daemon.bus.address, count: 10, threadCount: 2, columns: 40, fps: 10)
        defer { subscribers.close() }
        Thread.sleep(forTimeInterval: min(1, window / 2))  // let the subscriptions settle
        let framesBefore = try subscribers.framesReceived()
        let cpu = CPUWindow([("tickerd", daemon.statistics), ("dbus-daemon", ProcessStatistics(pid: daemon.bus.daemon.pid))])
        Thread.sleep(forTimeInterval: window)
        let (percent, elapsed) = cpu.finish()
        let frames = try subscribers.framesReceived() - framesBefore
        return ResultRow(
            figure: "daemon CPU, 10 subscribers × 10 fps × 40 columns",
            value: String(format: "%.2f %%", percent[0]),
            spread: String(format: "%.0f s window, %.0f frames/s received", elapsed, Double(frames) / elapsed),
            budget: "≤ 1 % of one core", met: percent[0] <= 1,
            note: String(format: "dbus-daemon %.2f %%", percent[1]))
    }
}
