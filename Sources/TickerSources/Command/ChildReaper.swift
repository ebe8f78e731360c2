import DBus
import Glibc

/// Reaps the service's child processes on the loop (SIGCHLD through the loop's signalfd) and
/// tells each waiter its child's exit status.
///
/// Guarantees: every child spawned through ``spawn(_:environment:onExit:)`` is reaped (no
/// zombies), and its `onExit` runs once, on the loop, after the child has exited.
public final class ChildReaper {
    private let loop: EventLoop
    private var waiters: [pid_t: (Int32) -> Void] = [:]

    /// A reaper on `loop` (it takes over SIGCHLD there: make one per loop, on its thread, and
    /// share it through ``SourceContext/children``).
    public init(loop: EventLoop) throws {
        self.loop = loop
        try loop.onSignal(SIGCHLD) { [weak self] _ in self?.reap() }
    }

    /// A running child: its id and the read ends of its stdout and stderr (the caller closes them).
    public struct Child {
        /// The process id.
        public let pid: pid_t
        /// Its standard output (non-blocking).
        public let stdout: Int32
        /// Its standard error (non-blocking).
        public let stderr: Int32
    }

    /// Starts `/bin/sh -c command` with stdin from /dev/null, a default signal mask, and pipes for
    /// stdout and stderr; `onExit` gets the wait status.
    public func spawn(_ command: String, onExit: @escaping (Int32) -> Void) throws -> Child {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        // The service spawns only from its loop thread, so no other spawn sees these before
        // they are close-on-exec.
        guard pipe(&out) == 0 else { throw SpawnError(call: "pipe", code: errno) }
        guard pipe(&err) == 0 else {
            close(out[0]); close(out[1])
            throw SpawnError(call: "pipe", code: errno)
        }
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGCHLD)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so that stopping it also stops what it started.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        close(out[1])
        close(err[1])
        guard result == 0 else {
            close(out[0]); close(err[0])
            throw SpawnError(call: "posix_spawn", code: result)
        }
        for fd in [out[0], err[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        waiters[pid] = onExit
        // It may have exited before its waiter was in place.
        loop.runSoon { [weak self] in self?.reap() }
        return Child(pid: pid, stdout: out[0], stderr: err[0])
    }

    /// Ends child `pid` and its process group with SIGTERM (its `onExit` still runs).
    public func terminate(_ pid: pid_t) {
        guard waiters[pid] != nil else { return }
        kill(-pid, SIGTERM)
    }

    private func reap() {
        for pid in waiters.keys.sorted() {
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid, let waiter = waiters.removeValue(forKey: pid) else { continue }
            waiter(status)
        }
    }
}
