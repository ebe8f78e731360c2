import DBus
import Foundation
import TestSupport

/// Resident memory of the daemon: idle with the small config, and with many scheduled messages
/// read from a generated config file.
enum MemoryRows {
    /// The idle row, from a daemon already running the small config (`figure` names the
    /// moment). The file-backed part is stated apart: how many of the binary's pages a fault maps
    /// in depends on the size of the page-cache folios holding them, which depends on how the
    /// file was written or read.
    static func idle(_ daemon: DaemonUnderTest, figure: String = "RSS idle (one message scrolling)") -> ResultRow {
        let bytes = daemon.statistics.residentBytes()
        let anonymous = daemon.statistics.residentAnonymousBytes()
        let file = daemon.statistics.residentFileBytes()
        return ResultRow(
            figure: figure, value: megabytes(bytes),
            spread: "VmRSS after start: \(megabytes(anonymous)) anonymous, \(megabytes(file)) file-backed",
            budget: "≤ 16 MB", met: bytes <= 16 * 1_048_576, note: "")
    }

    /// Posts (and removes) each Post made to the 100k daemon after its RSS at start is read: a
    /// daemon with a big schedule must stay as small, and as quick to answer, once it is used.
    static let postsAfterStart = 20

    /// Starts a second daemon on `bus` with `count` scheduled messages and reads its RSS, then
    /// posts and removes ``postsAfterStart`` messages and reads it again.
    static func scheduled(binary: String, bus: PrivateBus, count: Int) throws -> ResultRow {
        let daemon = try DaemonUnderTest(
            binary: binary, bus: bus, config: BenchConfigs.scheduled(count: count), readyTimeout: 600)
        defer { daemon.stop() }
        Thread.sleep(forTimeInterval: 1)  // let start-up garbage be returned
        let bytes = daemon.statistics.residentBytes()
        let anonymous = daemon.statistics.residentAnonymousBytes()
        let file = daemon.statistics.residentFileBytes()
        let postTime = try postAndRemove(address: bus.address, count: postsAfterStart)
        let afterPosts = daemon.statistics.residentBytes()
        let worst = max(bytes, afterPosts)
        return ResultRow(
            figure: "RSS with \(count) scheduled messages (config file)", value: megabytes(bytes),
            spread: "VmRSS after start (\(megabytes(anonymous)) anonymous, \(megabytes(file)) file-backed); "
                + "\(megabytes(afterPosts)) after \(postsAfterStart) Posts and Removes",
            budget: "≤ 40 MB (100k)", met: worst <= 40 * 1_048_576,
            note: String(format: "its start → READY=1 took %.0f ms; a Post + Remove then took %.2f ms (mean, client side)",
                         daemon.startup.seconds * 1000, postTime * 1000))
    }

    /// Posts and removes `count` messages on `main`, one after the other; the mean seconds a pair
    /// took as the client saw it.
    private static func postAndRemove(address: String, count: Int) throws -> Double {
        let loop = try EventLoop()
        let connection = try Connection(bus: .address(address), loop: loop)
        defer { connection.close() }
        let path = try ObjectPath(DaemonUnderTest.managerPath)
        let started = ContinuousClock.now
        for index in 0..<count {
            let id = "after-start-\(index)"
            _ = try connection.callBlocking(
                destination: DaemonUnderTest.service, path: path, interface: DaemonUnderTest.controlInterface,
                member: "Post", arguments: [.string("main"), .string("posted to a big schedule \(index)"),
                                            .vardict(["id": .string(id)])], timeout: .seconds(30))
            _ = try connection.callBlocking(
                destination: DaemonUnderTest.service, path: path, interface: DaemonUnderTest.controlInterface,
                member: "Remove", arguments: [.string(id)], timeout: .seconds(30))
        }
        return (ContinuousClock.now - started).seconds / Double(max(count, 1))
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
