import Foundation

/// Wake-ups of an idle daemon: the context switches of all its threads over a window while a
/// message scrolls and nobody subscribes.
struct IdleWakeups {
    /// The daemon's counters.
    let daemon: ProcessStatistics
    /// The window in seconds.
    let window: Double

    /// Measures and returns the row.
    func run() -> ResultRow {
        let before = daemon.contextSwitches()
        Thread.sleep(forTimeInterval: window)
        let after = daemon.contextSwitches()
        var total = 0
        var woke: [String] = []
        for (thread, count) in after.sorted(by: { $0.key < $1.key }) {
            let delta = count - (before[thread] ?? 0)
            total += delta
            if delta > 0 { woke.append("\(thread)=\(delta)") }
        }
        return ResultRow(
            figure: "idle wake-ups in \(Self.format(window)) s (scrolling, no subscriber)",
            value: "\(total)", spread: "\(after.count) threads",
            budget: "0", met: total == 0,
            note: woke.isEmpty ? "no thread woke" : "woke: " + woke.joined(separator: ", "))
    }

    /// Seconds as a short number: whole seconds without a fraction.
    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
