import Foundation

/// Counters of one process read from `/proc`: context switches and CPU time of all its threads,
/// and its resident memory.
struct ProcessStatistics {
    /// The process id.
    let pid: Int32

    /// The kernel's clock ticks per second (`/proc/PID/stat` times are in these).
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// Voluntary plus involuntary context switches of every thread, by thread (`tid name` → count).
    func contextSwitches() -> [String: Int] {
        var result: [String: Int] = [:]
        for tid in threads() {
            guard let status = read("/proc/\(pid)/task/\(tid)/status") else { continue }
            var name = "?"
            var switches = 0
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                switch parts[0] {
                case "Name": name = value
                case "voluntary_ctxt_switches", "nonvoluntary_ctxt_switches": switches += Int(value) ?? 0
                default: break
                }
            }
            result["\(tid) \(name)"] = switches
        }
        return result
    }

    /// CPU time (user + system) the process has used so far, in seconds, from `/proc/PID/stat`
    /// (includes threads that have exited).
    func cpuSeconds() -> Double {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return 0 }
        // Fields after the command name start at field 3 (state); utime is 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Self.ticksPerSecond
    }

    /// Time on the CPU of every live thread, in seconds, from `/proc/PID/task/*/schedstat` (ns).
    func scheduledSeconds() -> Double {
        var total: UInt64 = 0
        for tid in threads() {
            guard let text = read("/proc/\(pid)/task/\(tid)/schedstat"),
                  let first = text.split(separator: " ").first, let nanoseconds = UInt64(first) else { continue }
            total += nanoseconds
        }
        return Double(total) / 1e9
    }

    /// Resident set size in bytes (`VmRSS`).
    func residentBytes() -> Int {
        statusBytes("VmRSS:")
    }

    /// Resident anonymous memory in bytes (`RssAnon`): the daemon's own heap and stacks.
    func residentAnonymousBytes() -> Int {
        statusBytes("RssAnon:")
    }

    /// Resident file-backed memory in bytes (`RssFile`): pages of the binary and of shared
    /// libraries mapped in, shared with the page cache and every other process mapping them.
    func residentFileBytes() -> Int {
        statusBytes("RssFile:")
    }

    /// The largest resident set size so far, in bytes (`VmHWM`).
    func peakResidentBytes() -> Int {
        statusBytes("VmHWM:")
    }

    private func statusBytes(_ field: String) -> Int {
        guard let status = read("/proc/\(pid)/status") else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let digits = line.dropFirst(field.count).trimmingCharacters(in: .whitespaces).split(separator: " ")
            return (digits.first.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }

    private func threads() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    }

    private func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
