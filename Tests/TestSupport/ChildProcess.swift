import Foundation

/// A child process started with `posix_spawn`, its stdout and stderr captured by reader threads,
/// reaped by a waiter thread, and killed only by its own PID (never by name).
///
/// Waiting is on real conditions with deadlines: ``wait(timeout:)`` for the exit,
/// ``waitForOutput(timeout:until:)`` for output.
public final class ChildProcess: @unchecked Sendable {
    /// The process id.
    public let pid: pid_t
    /// The command line, for messages.
    public let commandLine: String

    private let condition = NSCondition()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var openStreams = 2
    private var exitStatus: Int32?
    private var reaped = false

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    /// `environment` entries are added to (or override) the inherited environment;
    /// `extraDescriptors` maps a child fd number to a parent fd to hand over (e.g. `[3: pipeWrite]`).
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        extraDescriptors: [Int32: Int32] = [:]
    ) throws {
        commandLine = ([executable] + arguments).joined(separator: " ")
        let outPipe = try ChildProcess.makePipe()
        let errPipe: [Int32]
        do {
            errPipe = try ChildProcess.makePipe()
        } catch {
            close(outPipe[0]); close(outPipe[1])
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for (child, parent) in extraDescriptors {
            posix_spawn_file_actions_adddup2(&actions, parent, child)
        }

        // The child starts with no blocked signals and default dispositions, whatever the
        // spawning thread had (a loop thread may block signals for its signalfd).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        ChildProcess.spawnLock.lock()
        let result = posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        ChildProcess.spawnLock.unlock()
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw TestSupportError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        startReader(fd: outPipe[0], isStdout: true)
        startReader(fd: errPipe[0], isStdout: false)
        startWaiter()
    }

    /// Serialises pipe creation (pipe + FD_CLOEXEC) with spawning, so no child started by another
    /// thread inherits a pipe end in between (which would keep the pipe open).
    private static let spawnLock = NSLock()

    /// A close-on-exec pipe: `[read end, write end]`.
    public static func makePipe() throws -> [Int32] {
        spawnLock.lock()
        defer { spawnLock.unlock() }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TestSupportError("pipe: errno \(errno)") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return fds
    }

    deinit {
        kill(SIGKILL)
        _ = try? wait(timeout: .seconds(10))
    }

    private func startReader(fd: Int32, isStdout: Bool) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                condition.lock()
                if isStdout { stdoutData.append(contentsOf: buffer[0..<count]) } else { stderrData.append(contentsOf: buffer[0..<count]) }
                condition.broadcast()
                condition.unlock()
            }
            close(fd)
            condition.lock()
            openStreams -= 1
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Waits for the exit without reaping (so the PID stays ours until ``kill(_:)`` cannot race),
    /// then reaps under the lock.
    private func startWaiter() {
        let pid = self.pid
        let thread = Thread { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            condition.lock()
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            reaped = true
            let low = status & 0x7f
            exitStatus = low == 0 ? (status >> 8) & 0xff : 128 + low
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Sends `signal` to the process if it has not been reaped yet.
    public func kill(_ signal: Int32 = SIGTERM) {
        condition.lock()
        defer { condition.unlock() }
        if !reaped { _ = Glibc.kill(pid, signal) }
    }

    /// Whether the process has exited.
    public var hasExited: Bool {
        condition.lock()
        defer { condition.unlock() }
        return reaped
    }

    /// Waits until the process exits and its output is drained; returns the exit status
    /// (128 + n when killed by signal n). Throws when `timeout` passes first.
    @discardableResult
    public func wait(timeout: Duration) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while !(reaped && openStreams == 0) {
            if !condition.wait(until: deadline) {
                throw TestSupportError("\(commandLine) did not exit within \(timeout)")
            }
        }
        return exitStatus ?? -1
    }

    /// Everything written to stdout so far.
    public var standardOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: stdoutData, as: UTF8.self)
    }

    /// Everything written to stderr so far.
    public var standardError: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: stderrData, as: UTF8.self)
    }

    /// Waits until `predicate` holds for the stdout captured so far; returns whether it did
    /// before `timeout` (or the end of the output).
    public func waitForOutput(timeout: Duration, until predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if predicate(String(decoding: stdoutData, as: UTF8.self)) { return true }
            if openStreams == 0 { return false }
            if !condition.wait(until: deadline) { return predicate(String(decoding: stdoutData, as: UTF8.self)) }
        }
    }

    /// Waits until the captured stderr satisfies `predicate` (true), or `timeout` passes or the
    /// stream closes without it (false).
    public func waitForError(timeout: Duration, until predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if predicate(String(decoding: stderrData, as: UTF8.self)) { return true }
            if openStreams == 0 { return false }
            if !condition.wait(until: deadline) { return predicate(String(decoding: stderrData, as: UTF8.self)) }
        }
    }

    /// Result of ``run(_:_:environment:timeout:)``.
    public struct Output: Sendable {
        /// Exit status.
        public let status: Int32
        /// Captured stdout.
        public let stdout: String
        /// Captured stderr.
        public let stderr: String
    }

    /// Runs a command to completion (killing it when `timeout` passes) and returns its output.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        timeout: Duration = .seconds(30)
    ) throws -> Output {
        let child = try ChildProcess(executable, arguments, environment: environment)
        do {
            let status = try child.wait(timeout: timeout)
            return Output(status: status, stdout: child.standardOutput, stderr: child.standardError)
        } catch {
            child.kill(SIGKILL)
            throw error
        }
    }
}

extension Duration {
    /// The duration in seconds as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
