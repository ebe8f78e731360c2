import Foundation
import TestSupport

/// The programs the policy tests run as other users (`tickerd`, `nobody`), put where those users
/// can reach them. The checkout may sit in a folder only its owner can enter (a home directory is
/// often 0700): the built daemon and the stand-in there answer another uid with EACCES.
enum ProgramsForOtherUsers {
    /// A program a test can start as the daemon's user.
    enum Program {
        /// The daemon built beside the tests (``TickerdUnderTest/executable``).
        case tickerd
        /// `Tests/Fixtures/tickerd-standin` with the interface XML it exports.
        case standIn
    }

    /// Puts `program` (and what it reads) into `folder`, which must be world-readable, and
    /// returns the path to run. Every folder made is world-readable.
    static func place(_ program: Program, in folder: String) throws -> String {
        switch program {
        case .tickerd:
            let target = folder + "/tickerd"
            try share(TickerdUnderTest.executable, at: target)
            return target
        case .standIn:
            // The stand-in finds the interfaces at ../../dbus-policy/interfaces from itself.
            let target = folder + "/Tests/Fixtures/tickerd-standin"
            try share(TickerdUnderTest.standIn, at: target)
            let interfaces = "dbus-policy/interfaces"
            for name in try FileManager.default.contentsOfDirectory(atPath: Repository.path(interfaces)) {
                try share(Repository.path(interfaces + "/" + name), at: folder + "/" + interfaces + "/" + name)
            }
            return target
        }
    }

    /// Makes `target` (and its missing folders, mode 0755) a file that anyone may read, and run
    /// when `source` is a program, with `source`'s content. A hard link where `source` itself is
    /// open to everyone (its folders were the only obstacle); else a copy. The copy is written
    /// through a close-on-exec descriptor: a write descriptor inherited by a child that another
    /// test forks would make running the copy fail with ETXTBSY.
    private static func share(_ source: String, at target: String) throws {
        let folder = (target as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        var status = stat()
        guard stat(source, &status) == 0 else { throw TestSupportError("cannot stat \(source): errno \(errno)") }
        let runnable = status.st_mode & 0o100 != 0
        let wanted: mode_t = runnable ? 0o005 : 0o004
        if status.st_mode & wanted == wanted, link(source, target) == 0 { return }
        let content = try Data(contentsOf: URL(fileURLWithPath: source))
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, runnable ? 0o755 : 0o644)
        guard descriptor >= 0 else { throw TestSupportError("cannot create \(target): errno \(errno)") }
        defer { close(descriptor) }
        let written = content.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == content.count, fchmod(descriptor, runnable ? 0o755 : 0o644) == 0 else {
            throw TestSupportError("cannot write \(target): errno \(errno)")
        }
    }
}
