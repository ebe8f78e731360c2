import Foundation

/// The real `tickerd` binary, started on a private bus with its own state folder and config,
/// its readiness taken from its `READY=1` on a test notify socket (no sleeps).
public final class TickerdProcess: @unchecked Sendable {
    /// The bus it serves.
    public let bus: PrivateBus
    /// The folder holding its state, config and notify socket.
    public let directory: TemporaryDirectory
    /// Where its state lives.
    public var stateDirectory: String { directory.file("state") }
    /// Its configuration file.
    public var configPath: String { directory.file("tickerd.toml") }
    /// The notify socket it reports to.
    public let notify: NotifySocket
    /// The running process (replaced by ``restart()``).
    public private(set) var process: ChildProcess
    private let environment: [String: String]
    private let wrapper: [String]

    /// The built binary next to the test bundle (`.build/<triple>/debug/<name>`).
    public static func binary(_ name: String) -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = (executable as NSString).deletingLastPathComponent
        // swift-testing runs the bundle from inside `X.xctest` on some toolchains.
        while !folder.isEmpty, folder != "/", !FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
            folder = (folder as NSString).deletingLastPathComponent
        }
        return folder + "/" + name
    }

    /// Starts a bus (unless given) and the daemon with `config` as its configuration file, and
    /// waits for READY=1. A non-empty `wrapper` is a command line the daemon's own is appended to
    /// (e.g. `unshare -m … sh -c '…; exec "$@"' sh`), which must end by exec'ing it.
    public init(
        config: String = "", bus: PrivateBus? = nil, environment: [String: String] = [:],
        readyTimeout: Duration = .seconds(30), wrapper: [String] = []
    ) throws {
        self.wrapper = wrapper
        self.bus = try bus ?? PrivateBus()
        directory = try TemporaryDirectory(prefix: "tickerd-daemon")
        try config.write(toFile: directory.file("tickerd.toml"), atomically: true, encoding: .utf8)
        notify = try NotifySocket(directory: directory)
        var merged = notify.environment
        merged["TICKERD_LOG"] = "stderr"
        merged.merge(environment) { _, new in new }
        self.environment = merged
        process = try Self.launch(bus: self.bus, directory: directory, environment: merged, wrapper: wrapper)
        try waitUntilReady(since: 0, timeout: readyTimeout)
    }

    deinit {
        if !process.hasExited { process.kill(SIGKILL) }
    }

    /// The arguments the daemon runs with.
    public var arguments: [String] {
        ["--bus", bus.address, "--state-dir", stateDirectory, "--config", configPath]
    }

    /// Stops it with SIGTERM and waits for the exit status.
    @discardableResult
    public func stop(timeout: Duration = .seconds(20)) throws -> Int32 {
        process.kill(SIGTERM)
        return try process.wait(timeout: timeout)
    }

    /// Stops (SIGTERM) and starts it again on the same bus, state and config; waits for READY=1.
    public func restart() throws {
        try stop()
        try start()
    }

    /// Starts it again after it was killed or has exited; waits for READY=1.
    public func start() throws {
        let mark = notify.drain()
        process = try Self.launch(bus: bus, directory: directory, environment: environment, wrapper: wrapper)
        try waitUntilReady(since: mark, timeout: .seconds(30))
    }

    /// Sends `signal` to the daemon.
    public func signal(_ signal: Int32) { process.kill(signal) }

    /// Replaces the configuration file.
    public func writeConfig(_ text: String) throws {
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    private func waitUntilReady(since mark: Int, timeout: Duration) throws {
        let ready = notify.wait(timeout: timeout, after: mark) { message in
            message.split(separator: "\n").contains("READY=1")
        }
        guard ready != nil else {
            throw TestSupportError("tickerd did not report READY=1: \(process.standardError)")
        }
    }

    private static func launch(
        bus: PrivateBus, directory: TemporaryDirectory, environment: [String: String], wrapper: [String]
    ) throws -> ChildProcess {
        let command = [binary("tickerd"), "--bus", bus.address, "--state-dir", directory.file("state"),
                       "--config", directory.file("tickerd.toml")]
        let full = wrapper + command
        return try ChildProcess(full[0], Array(full.dropFirst()), environment: environment)
    }
}
