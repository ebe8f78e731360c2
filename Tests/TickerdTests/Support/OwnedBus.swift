import Foundation
import TestSupport

/// A system-like private bus whose name is owned by tickerd (``TickerdUnderTest``) running as
/// user `tickerd`, with its config and state in a folder of its own.
final class OwnedBus: @unchecked Sendable {
    /// The bus.
    let bus: SystemLikeBus
    /// The daemon's folder: an empty `tickerd.toml`, `state/` (owned by tickerd) and `programs/`.
    let files: TemporaryDirectory
    /// The owner process.
    let owner: ChildProcess

    /// The bus address.
    var address: String { bus.address }

    /// Starts a bus and `program` on it as user tickerd, and waits until it owns the name. The
    /// program runs from a copy in ``files``: user tickerd may not reach the checkout.
    init(program: ProgramsForOtherUsers.Program = .tickerd) throws {
        try TestAccounts.ensure()
        bus = try SystemLikeBus()
        files = try OwnedBus.daemonFiles()
        let executable = try ProgramsForOtherUsers.place(program, in: files.file("programs"))
        owner = try Caller.daemon.start([executable] + TickerdUnderTest.arguments(bus: bus.address, directory: files.path))
        do {
            try BusPeers.waitForOwner(bus.address)
        } catch {
            owner.kill(SIGKILL)
            throw TestSupportError("\(error) — owner said: \(owner.standardError)")
        }
    }

    deinit {
        owner.kill(SIGTERM)
        _ = try? owner.wait(timeout: .seconds(10))
        bus.stop()
    }

    /// A world-readable folder with an empty config and a `state/` folder that user tickerd owns.
    static func daemonFiles() throws -> TemporaryDirectory {
        try TestAccounts.ensure()
        let files = try TemporaryDirectory(prefix: "tickerd-files")
        chmod(files.path, 0o755)
        try "".write(toFile: files.file("tickerd.toml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: files.file("state"), withIntermediateDirectories: false)
        guard let uid = TestAccounts.uid(of: TestAccounts.daemonUser), let group = getgrnam(TestAccounts.daemonUser),
              chown(files.file("state"), uid, group.pointee.gr_gid) == 0
        else { throw TestSupportError("cannot give \(files.file("state")) to user tickerd") }
        return files
    }
}
