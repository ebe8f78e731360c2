import Foundation
import Testing
import TestSupport

/// The release-layout `tickerd` started under `strace` on a private bus, with an empty config, a
/// state folder of its own and a `NOTIFY_SOCKET`: ready once it has sent `READY=1`.
final class TracedDaemon {
    /// The private bus it serves.
    let bus: PrivateBus
    /// Where strace writes the trace.
    let trace: String
    /// The `NOTIFY_SOCKET` it reports to.
    let notify: NotifySocket
    /// strace, with the daemon as its child.
    let strace: ChildProcess
    private let folder: TemporaryDirectory

    /// Starts `tickerd` under `strace -f -qq` plus `straceOptions`, with `environment` added to
    /// its own, and waits for `READY=1` (recording an issue when it does not come).
    init(straceOptions: [String] = [], environment: [String: String] = [:]) throws {
        bus = try PrivateBus()
        folder = try TemporaryDirectory(prefix: "tickerd-strace")
        trace = folder.file("trace")
        notify = try NotifySocket(directory: folder)
        try "".write(toFile: folder.file("tickerd.toml"), atomically: true, encoding: .utf8)
        strace = try ChildProcess("strace", ["-f", "-qq"] + straceOptions + ["-o", trace, Repository.builtProduct("tickerd"),
            "--bus", bus.address, "--config", folder.file("tickerd.toml"), "--state-dir", folder.file("state")],
            environment: notify.environment.merging(["TICKERD_LOG": "stderr"]) { $1 }.merging(environment) { $1 })
        #expect(notify.wait(timeout: .seconds(30)) { $0.contains("READY=1") } != nil, "\(strace.standardError)")
    }

    /// Sends SIGTERM to the daemon (strace's child) and waits for both to exit; false (with an
    /// issue recorded, strace killed) when there was no daemon under strace.
    func stop() throws -> Bool {
        guard let pid = Self.childPID(of: strace.pid) else {
            Issue.record("no traced tickerd under strace \(strace.pid)")
            strace.kill(SIGKILL)
            return false
        }
        kill(pid, SIGTERM)
        #expect(try strace.wait(timeout: .seconds(30)) == 0)
        return true
    }

    /// The first child of `pid` (the daemon strace started).
    static func childPID(of pid: Int32) -> Int32? {
        let path = "/proc/\(pid)/task/\(pid)/children"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }
}
