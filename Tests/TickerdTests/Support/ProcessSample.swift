import Foundation

/// What `/proc` says about a running process right now: CPU time used and resident memory.
struct ProcessSample {
    /// User + system CPU seconds of every thread so far.
    let cpuSeconds: Double
    /// Resident set size in bytes.
    let residentBytes: Int

    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The sample of `pid`, or nil once the process is gone.
    static func of(_ pid: Int32) -> ProcessSample? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name start with field 3 (state); utime is 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        var resident = 0
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            resident = (Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0) * 1024
        }
        return ProcessSample(cpuSeconds: (user + system) / ticksPerSecond, residentBytes: resident)
    }
}
