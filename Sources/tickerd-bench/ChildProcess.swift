import Foundation

/// A child process the harness started: its PID, a stop by PID and a wait with a deadline.
/// Its standard error goes to a file (so a chatty daemon never blocks on a full pipe).
final class ChildProcess {
    /// The running process.
    let process: Process
    /// Its process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts `path` with `arguments`; the environment is this process's plus `environment`.
    /// Standard output is discarded, standard error appended to `errorLog` (or discarded).
    init(_ path: String, _ arguments: [String], environment: [String: String] = [:],
         errorLog: String? = nil, standardOutput: Pipe? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = standardOutput ?? FileHandle.nullDevice
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errorLog) ?? FileHandle.nullDevice
        } else {
            process.standardError = FileHandle.nullDevice
        }
        do {
            try process.run()
        } catch {
            throw BenchError("cannot start \(path): \(error)")
        }
    }

    /// Whether it is still running.
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to it (by PID), unless it has already exited.
    func kill(_ signal: Int32) {
        guard process.isRunning else { return }
        _ = Glibc.kill(pid, signal)
    }

    /// Waits until it exits (at most `timeout` seconds); returns whether it did.
    @discardableResult
    func wait(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2000) }
        return !process.isRunning
    }

    /// SIGTERM, then SIGKILL if it has not exited after `grace` seconds.
    func stop(grace: Double = 10) {
        kill(SIGTERM)
        if !wait(timeout: grace) {
            kill(SIGKILL)
            wait(timeout: 5)
        }
    }
}
