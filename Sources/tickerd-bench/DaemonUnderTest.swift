import Foundation
import TestSupport
import TickerNames

/// The real `tickerd` binary on a private bus, with its own state folder, config file and notify
/// socket; ready once it sent `READY=1`.
final class DaemonUnderTest {
    /// The bus it serves.
    let bus: PrivateBus
    /// The running daemon.
    private(set) var process: ChildProcess
    /// Spawn → READY=1 of the latest start.
    private(set) var startup: Duration
    private let directory: TemporaryDirectory
    private let notify: NotifySocket
    private let binary: String

    /// The daemon's well-known name.
    static let service = TickerBus.name
    /// The manager object.
    static let managerPath = TickerBus.managerPath
    /// The `main` channel object.
    static let mainChannelPath = TickerBus.channelPath(TickerBus.mainChannel)
    /// The manager's read interface (signals such as MessageStarted).
    static let managerInterface = TickerBus.managerInterface
    /// The control interface (Post, Remove).
    static let controlInterface = TickerBus.controlInterface
    /// The channel interface (Subscribe, Frame).
    static let channelInterface = TickerBus.channelInterface

    /// Writes `config`, starts `binary` on `bus` and waits (at most `readyTimeout` s) for READY=1.
    init(binary: String, bus: PrivateBus, config: String, readyTimeout: Double = 30) throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("no tickerd binary at \(binary) (build it, or pass --tickerd PATH)")
        }
        self.binary = binary
        self.bus = bus
        directory = try TemporaryDirectory(prefix: "tickerd-bench-daemon")
        try config.write(toFile: directory.file("tickerd.toml"), atomically: true, encoding: .utf8)
        notify = try NotifySocket(path: directory.file("notify"))
        (process, startup) = try Self.launch(
            binary: binary, bus: bus, directory: directory, notify: notify, readyTimeout: readyTimeout)
    }

    /// Its state folder (`--state-dir`).
    var stateDirectory: String { directory.file("state") }

    /// Its process counters.
    var statistics: ProcessStatistics { ProcessStatistics(pid: process.pid) }

    /// Stops it (SIGTERM) and starts it again on the same bus, state and config; waits for READY=1.
    func restart(readyTimeout: Double = 30) throws {
        process.stop()
        (process, startup) = try Self.launch(
            binary: binary, bus: bus, directory: directory, notify: notify, readyTimeout: readyTimeout)
    }

    /// The last `characters` of the daemon's standard error (its log), for error reports.
    func logTail(_ characters: Int = 3000) -> String {
        let log = (try? String(contentsOfFile: directory.file("stderr.log"), encoding: .utf8)) ?? ""
        return String(log.suffix(characters))
    }

    /// Datagrams the daemon has sent to its notify socket so far (READY, STATUS, …).
    var notifyDatagrams: Int { notify.datagramCount }

    /// Stops it and removes its folder (the bus keeps running).
    func stop() {
        process.stop()
        notify.close()
        directory.remove()
    }

    private static func launch(
        binary: String, bus: PrivateBus, directory: TemporaryDirectory, notify: NotifySocket, readyTimeout: Double
    ) throws -> (ChildProcess, Duration) {
        let index = notify.readyCount
        let started = ContinuousClock.now
        let process = try ChildProcess(
            binary,
            ["--bus", bus.address, "--state-dir", directory.file("state"), "--config", directory.file("tickerd.toml")],
            environment: ["NOTIFY_SOCKET": notify.path, "TICKERD_LOG": "stderr"],
            errorLog: directory.file("stderr.log"))
        guard let ready = notify.waitForReady(index: index, timeout: readyTimeout) else {
            process.stop()
            let log = (try? String(contentsOfFile: directory.file("stderr.log"), encoding: .utf8)) ?? ""
            throw BenchError("tickerd sent no READY=1 within \(readyTimeout) s:\n\(log.suffix(2000))")
        }
        return (process, ready - started)
    }
}
