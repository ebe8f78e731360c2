import Foundation
import Testing
import TestSupport

/// The system unit's sandbox, emulated without a systemd manager, around the real daemon on a
/// system-like bus with the shipped policy: every mount read-only but the state folder
/// (`ProtectSystem=strict`, `StateDirectory=`), a network namespace of its own
/// (`PrivateNetwork=`), a `/proc` with only processes, and only its own
/// (`ProcSubset=pid`, `ProtectProc=invisible`), user tickerd (`User=`) without capabilities
/// (`CapabilityBoundingSet=`), no new privileges (`NoNewPrivileges=`) and `UMask=0077`. The
/// daemon must serve, store, notify systemd, ping the watchdog, reload on SIGHUP and stop
/// cleanly in it. (`PrivateTmp=`, `PrivateDevices=` and `PrivateUsers=` are not emulated here;
/// the system call filter is `SyscallFilterTests`'.)
@Suite(.serialized, .enabled(if: PrivateMounts.available && geteuid() == 0, "needs unshare -m and mount (root)"))
struct UnitSandboxTests {
    /// What the sandbox does before it runs the daemon as user tickerd (`$1`: the state folder;
    /// the daemon's command line follows).
    static let sandbox = """
        set -e
        state=$1; shift
        mount --bind "$state" "$state"
        for target in $(awk '{ print $2 }' /proc/self/mounts | sort -u); do
            case $target in
                /proc|/proc/*|/sys|/sys/*|/dev|/dev/*|"$state") ;;
                *) mount -o remount,bind,ro "$target" 2>/dev/null || true ;;
            esac
        done
        mount -t proc -o subset=pid,hidepid=invisible proc /proc
        exec setpriv --reuid=tickerd --regid=tickerd --init-groups --no-new-privs \\
            --bounding-set=-all --inh-caps=-all sh -c 'umask 0077; exec "$@"' sh "$@"
        """

    @Test func theDaemonServesStoresReloadsAndStopsInTheUnitsSandbox() throws {
        try TestAccounts.ensure()
        let bus = try SystemLikeBus()
        let files = try OwnedBus.daemonFiles()
        try "[channel.main]\nspeed = 20\n".write(toFile: files.file("tickerd.toml"), atomically: true, encoding: .utf8)
        let executable = try ProgramsForOtherUsers.place(.tickerd, in: files.file("programs"))
        let notify = try NotifySocket(directory: files)
        chmod(notify.path, 0o777)
        let state = files.file("state")
        let daemon = try ChildProcess(
            "unshare", ["--mount", "--net", "--propagation", "private", "sh", "-c", Self.sandbox, "sh", state, executable]
                + TickerdUnderTest.arguments(bus: bus.address, directory: files.path),
            environment: notify.environment.merging(["WATCHDOG_USEC": "400000", "TICKERD_LOG": "stderr"]) { _, new in new })
        defer {
            daemon.kill(SIGKILL)
            bus.stop()
        }
        #expect(notify.wait(timeout: .seconds(30)) { $0.contains("READY=1") } != nil, "\(daemon.standardError)")
        try BusPeers.waitForOwner(bus.address)

        // The sandbox is real: the daemon sees / read-only, has no capability and no new privileges.
        let status = try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
        #expect(status.contains("NoNewPrivs:\t1"))
        #expect(status.contains("CapBnd:\t0000000000000000"))
        let mounts = try String(contentsOfFile: "/proc/\(daemon.pid)/mountinfo", encoding: .utf8).split(separator: "\n")
        #expect(mounts.contains { $0.split(separator: " ")[4] == "/" && $0.split(separator: " ")[5].hasPrefix("ro") })
        #expect(mounts.contains { $0.split(separator: " ")[4] == Substring(state) && $0.split(separator: " ")[5].hasPrefix("rw") })

        // It serves and stores: root posts through the policy, the post is listed and on disk.
        let posted = try Caller.root.run(["busctl", "--address=\(bus.address)", "call", BusPeers.name, BusPeers.managerPath,
                                          "\(BusPeers.name).Control", "Post", "ssa{sv}", "main", "Sandboxed post", "1",
                                          "id", "s", "sandboxed"])
        #expect(posted.status == 0, "\(posted.stderr) \(daemon.standardError)")
        let journal = try Data(contentsOf: URL(fileURLWithPath: state + "/state.journal"))
        #expect(journal.range(of: Data("Sandboxed post".utf8)) != nil)
        #expect(notify.wait(timeout: .seconds(10)) { $0.contains("WATCHDOG=1") } != nil)

        // SIGHUP reloads the configuration it can only read.
        try "[channel.main]\nspeed = 30\n".write(toFile: files.file("tickerd.toml"), atomically: true, encoding: .utf8)
        let mark = notify.drain()
        daemon.kill(SIGHUP)
        #expect(notify.wait(timeout: .seconds(10), after: mark) { $0.contains("RELOADING=1") } != nil)
        #expect(notify.wait(timeout: .seconds(10), after: mark) { $0.contains("READY=1") } != nil)
        let speed = try Caller.nobody.run(["busctl", "--address=\(bus.address)", "get-property", BusPeers.name,
                                           BusPeers.mainChannelPath, "\(BusPeers.name).Channel", "Timeline"])
        #expect(speed.stdout.contains("\"speed\" d 30"), "\(speed.stdout)")

        // SIGTERM: the state folded into state.json, owner-only (UMask=0077), exit 0.
        daemon.kill(SIGTERM)
        #expect(try daemon.wait(timeout: .seconds(20)) == 0, "\(daemon.standardError)")
        var saved = stat()
        #expect(stat(state + "/state.json", &saved) == 0)
        #expect(saved.st_mode & 0o077 == 0)
        let snapshot = try Data(contentsOf: URL(fileURLWithPath: state + "/state.json"))
        #expect(snapshot.range(of: Data("Sandboxed post".utf8)) != nil)
    }
}
