import Foundation
import TestSupport

/// The accounts the bus policy tests act as, created on first use when missing (the tests run as
/// root, as CI does):
/// - `tickerd`, the daemon's static user, made by `systemd-sysusers` from the repo's own
///   `systemd/sysusers.d/tickerd.conf` (exactly what a package's postinst does);
/// - `tickerd-test-poster`, a system account with no home and no shell whose only group besides
///   `nogroup` is `tickerd`, made with `useradd`: "a member of group tickerd".
enum TestAccounts {
    /// The daemon's user and group.
    static let daemonUser = "tickerd"
    /// A member of group tickerd.
    static let poster = "tickerd-test-poster"

    /// Creates the accounts once; throws (every time) when that failed.
    static func ensure() throws { try ensured.get() }

    private static let ensured: Result<Void, any Error> = Result { try create() }

    /// The uid of `name`, or nil when there is no such user.
    static func uid(of name: String) -> uid_t? { getpwnam(name)?.pointee.pw_uid }

    /// The members listed for group `name` in the group database.
    static func members(ofGroup name: String) -> [String] {
        guard let group = getgrnam(name), var member = group.pointee.gr_mem else { return [] }
        var names: [String] = []
        while let name = member.pointee {
            names.append(String(cString: name))
            member += 1
        }
        return names
    }

    private static func create() throws {
        guard geteuid() == 0 else {
            throw TestSupportError("the bus policy tests create accounts and switch users (setpriv): run them as root")
        }
        if uid(of: daemonUser) == nil {
            let made = try ChildProcess.run("systemd-sysusers", [Repository.path("systemd/sysusers.d/tickerd.conf")])
            guard uid(of: daemonUser) != nil else {
                throw TestSupportError("systemd-sysusers did not create \(daemonUser): \(made.stderr)")
            }
        }
        if uid(of: poster) == nil {
            let made = try ChildProcess.run("useradd", [
                "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                "--gid", "nogroup", "--groups", daemonUser, poster,
            ])
            // Another test process may have made it in between; only its absence is an error.
            guard uid(of: poster) != nil else { throw TestSupportError("useradd \(poster) failed: \(made.stderr)") }
        }
        if !members(ofGroup: daemonUser).contains(poster) {
            let added = try ChildProcess.run("usermod", ["--append", "--groups", daemonUser, poster])
            guard members(ofGroup: daemonUser).contains(poster) else {
                throw TestSupportError("usermod could not add \(poster) to \(daemonUser): \(added.stderr)")
            }
        }
    }
}

/// Who runs a test's bus peer: root itself, or another account through `setpriv`.
enum Caller: String, CaseIterable, CustomStringConvertible {
    /// The test's own user, root.
    case root
    /// `nobody`, with group `nogroup` and no supplementary groups.
    case nobody
    /// `tickerd-test-poster`, a member of group tickerd.
    case poster
    /// The daemon's own user, `tickerd`.
    case daemon

    var description: String { rawValue }

    /// The command prefix that runs a program as this caller.
    var prefix: [String] {
        switch self {
        case .root: []
        case .nobody: ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        case .poster: ["setpriv", "--reuid=\(TestAccounts.poster)", "--regid=nogroup", "--init-groups"]
        case .daemon: ["setpriv", "--reuid=\(TestAccounts.daemonUser)", "--regid=\(TestAccounts.daemonUser)", "--init-groups"]
        }
    }

    /// Runs `command` as this caller to completion.
    func run(_ command: [String], timeout: Duration = .seconds(30)) throws -> ChildProcess.Output {
        let full = prefix + command
        return try ChildProcess.run(full[0], Array(full.dropFirst()), timeout: timeout)
    }

    /// Starts `command` as this caller.
    func start(_ command: [String]) throws -> ChildProcess {
        let full = prefix + command
        return try ChildProcess(full[0], Array(full.dropFirst()))
    }
}
