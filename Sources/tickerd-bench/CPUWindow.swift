import Foundation

/// CPU time used by a few processes over a wall-clock window, as % of one core.
struct CPUWindow {
    /// The processes watched, by label.
    let processes: [(label: String, statistics: ProcessStatistics)]
    private let startCPU: [Double]
    private let startTime: ContinuousClock.Instant

    /// Starts the window now.
    init(_ processes: [(label: String, statistics: ProcessStatistics)]) {
        self.processes = processes
        startCPU = processes.map { $0.statistics.scheduledSeconds() }
        startTime = .now
    }

    /// The % of one core each process used since the window started, and the window's length (s).
    func finish() -> (percent: [Double], elapsed: Double) {
        let elapsed = (ContinuousClock.now - startTime).seconds
        let percent = zip(processes, startCPU).map { process, start in
            (process.statistics.scheduledSeconds() - start) / elapsed * 100
        }
        return (percent, elapsed)
    }
}
