import DBus
import Foundation
import TestSupport
import Testing

/// Whether this machine lets a test mount a tmpfs in a private mount namespace.
enum PrivateMounts {
    static let available: Bool = {
        let probe = try? ChildProcess.run(
            "unshare", ["--mount", "--propagation", "private", "sh", "-c", "mount -t tmpfs probe /mnt && umount /mnt"])
        return probe?.status == 0
    }()
}

/// Issue 10, "Faults": the state directory fills up or turns read-only. Posts that cannot be
/// stored answer `StorageFailed` and leave nothing behind, reads keep working, and writes work
/// again when space returns. The daemon runs in a mount namespace of its own (`unshare -m`) with
/// a small tmpfs on its state directory, so nothing is mounted on the host and everything goes
/// away with the process; the test reaches the files through `/proc/PID/root`.
@Suite(.serialized, .enabled(if: PrivateMounts.available, "needs unshare -m and mount (root)"))
struct DaemonStorageFaultTests {
    static let storageFailed = TickerErrorName.prefix + "StorageFailed"

    /// A wrapper that mounts a `size` tmpfs on the daemon's `--state-dir` in a new mount namespace.
    static func tmpfsWrapper(size: String) -> [String] {
        let script = """
            for a; do [ "$prev" = --state-dir ] && dir=$a; prev=$a; done
            mkdir -p "$dir" && mount -t tmpfs -o size=\(size),mode=0700 tickerd-state "$dir" && exec "$@"
            """
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh"]
    }

    /// Posts `text` to `channel`; the D-Bus error name when it is refused, nil when stored.
    static func post(_ client: FuzzClient, _ text: String, channel: String = "main") -> String? {
        do {
            _ = try client.call(DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "Post",
                                [.string(channel), .string(text), .vardict([:])])
            return nil
        } catch let error as DBusError {
            return error.name
        } catch {
            return "\(error)"
        }
    }

    /// Fills the file system holding `path` to the last byte; returns the filler's size.
    static func fill(_ path: String) -> Int {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var total = 0
        for chunk in [65536, 4096, 1] {
            let bytes = [UInt8](repeating: 0x2E, count: chunk)
            while bytes.withUnsafeBytes({ write(fd, $0.baseAddress, chunk) }) == chunk { total += chunk }
        }
        return total
    }

    /// What a user sees while writes fail: the refused change answers StorageFailed, is not
    /// listed, not shown and not stored; everything already there is still served.
    static func expectRefusedButServing(_ fixture: DaemonFixture, _ client: FuzzClient, kept: String, stateFile: String, why: String) throws {
        #expect(post(client, "refused: \(why)") == storageFailed, "\(why)")
        #expect(post(client, "refused too", channel: "brandnew") == storageFailed, "\(why)")
        do {
            _ = try client.call(DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "Configure",
                                [.string("main"), .vardict(["speed": .double(3)])])
            Issue.record("Configure was answered as stored while \(why)")
        } catch let error as DBusError {
            #expect(error.name == storageFailed)
        }
        #expect(try fixture.property("main", "Text").value as? String == kept, "\(why)")
        let listed = try client.call(DaemonFixture.service, DaemonFixture.managerPath, DaemonFixture.control, "List", [.string("")])
        #expect(listed.first?.arrayValue?.count == 1, "\(why)")
        #expect(try fixture.render(columns: 33, at: 0).text.count == 33)
        let state = try String(contentsOfFile: stateFile, encoding: .utf8)
        #expect(!state.contains("refused"), "\(why)")
        #expect(!fixture.daemon.process.hasExited)
    }

    @Test func aFullDiskRefusesPostsByNameKeepsServingAndRecovers() throws {
        let fixture = try DaemonFixture(wrapper: Self.tmpfsWrapper(size: "256k"))
        let inside = "/proc/\(fixture.daemon.process.pid)/root" + fixture.daemon.stateDirectory
        let client = try FuzzClient(address: fixture.address)
        let kept = "stored before the disk filled"
        #expect(Self.post(client, kept) == nil)

        let filled = Self.fill(inside + "/filler")
        #expect(filled > 100_000)
        try Self.expectRefusedButServing(fixture, client, kept: kept, stateFile: inside + "/state.json", why: "the disk is full")

        // Space returns: the next Post is stored.
        try FileManager.default.removeItem(atPath: inside + "/filler")
        #expect(Self.post(client, "stored after space returned") == nil)
        let state = try String(contentsOfFile: inside + "/state.json", encoding: .utf8)
        #expect(state.contains("stored after space returned"))
        #expect(!state.contains("refused"))
    }

    @Test func aReadOnlyStateDirectoryRefusesPostsByNameKeepsServingAndRecovers() throws {
        let fixture = try DaemonFixture(wrapper: Self.tmpfsWrapper(size: "1m"))
        let pid = fixture.daemon.process.pid
        let folder = fixture.daemon.stateDirectory
        let inside = "/proc/\(pid)/root" + folder
        let client = try FuzzClient(address: fixture.address)
        let kept = "stored before the remount"
        #expect(Self.post(client, kept) == nil)

        let readOnly = try ChildProcess.run("nsenter", ["-t", "\(pid)", "-m", "mount", "-o", "remount,ro", folder])
        #expect(readOnly.status == 0, "\(readOnly.stderr)")
        try Self.expectRefusedButServing(fixture, client, kept: kept, stateFile: inside + "/state.json", why: "the folder is read-only")

        let writable = try ChildProcess.run("nsenter", ["-t", "\(pid)", "-m", "mount", "-o", "remount,rw", folder])
        #expect(writable.status == 0, "\(writable.stderr)")
        #expect(Self.post(client, "stored after the remount") == nil)
        #expect(try String(contentsOfFile: inside + "/state.json", encoding: .utf8).contains("stored after the remount"))
    }
}
