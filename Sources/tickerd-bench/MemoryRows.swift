import Foundation

/// Resident memory of the daemon: idle with the small config, and with many scheduled messages
/// read from a generated config file.
enum MemoryRows {
    /// The idle row, from a daemon already running the small config.
    static func idle(_ daemon: DaemonUnderTest) -> ResultRow {
        let bytes = daemon.statistics.residentBytes()
        return ResultRow(
            figure: "RSS idle (one message scrolling)", value: megabytes(bytes), spread: "VmRSS after start",
            budget: "≤ 12 MB", met: bytes <= 12 * 1_048_576, note: "")
    }

    /// Starts a second daemon on `bus` with `count` scheduled messages and reads its RSS.
    static func scheduled(binary: String, bus: PrivateBus, count: Int) throws -> ResultRow {
        let daemon = try DaemonUnderTest(
            binary: binary, bus: bus, config: BenchConfigs.scheduled(count: count), readyTimeout: 600)
        defer { daemon.stop() }
        Thread.sleep(forTimeInterval: 1)  // let start-up garbage be returned
        let bytes = daemon.statistics.residentBytes()
        return ResultRow(
            figure: "RSS with \(count) scheduled messages (config file)", value: megabytes(bytes),
            spread: "VmRSS after start", budget: "≤ 40 MB (100k)", met: bytes <= 40 * 1_048_576,
            note: String(format: "its start → READY=1 took %.0f ms", daemon.startup.seconds * 1000))
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
