import Foundation
import Testing
import TestSupport

/// A real tickerd on a private bus, the real tickerd-sources on the same bus, and busctl as the
/// independent peer that reads what tickerd holds.
final class SourcesFixture: @unchecked Sendable {
    let daemon: TickerdProcess
    let directory: TemporaryDirectory
    private(set) var service: ChildProcess?

    var address: String { daemon.bus.address }
    var configPath: String { directory.file("sources.toml") }

    /// Starts tickerd (with `daemonConfig` as its tickerd.toml) and writes `sources` as sources.toml.
    init(sources: String, daemonConfig: String = "") throws {
        daemon = try TickerdProcess(config: daemonConfig)
        directory = try TemporaryDirectory(prefix: "tickerd-sources")
        try sources.write(toFile: directory.file("sources.toml"), atomically: true, encoding: .utf8)
    }

    deinit {
        if let service, !service.hasExited { service.kill(SIGKILL) }
        _ = try? daemon.stop()
        daemon.bus.stop()
    }

    /// Where the service keeps what outlives its restarts (in the fixture's temporary directory).
    var statePath: String { directory.file("state") }

    /// Starts tickerd-sources (again), with `environment` added to the test's own.
    func startService(environment: [String: String] = [:]) throws {
        service = try ChildProcess(
            TickerdProcess.binary("tickerd-sources"), ["--bus", address, "--config", configPath, "--state", statePath],
            environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { _, bus in bus })
    }

    /// Kills the service with SIGKILL (no chance to clean up) and reaps it.
    func killService() throws {
        guard let service else { return }
        service.kill(SIGKILL)
        _ = try service.wait(timeout: .seconds(10))
    }

    /// One message as tickerd lists it.
    struct Listed: Equatable {
        var id: String
        var channel: String
        var text: String
        var urgent: Bool
        var link: String?
        var end: Int64?
    }

    /// tickerd's messages, read with busctl.
    func list() throws -> [Listed] {
        let output = try ChildProcess.run("busctl", [
            "--address=\(address)", "--json=short", "call", "io.github.tickerd.Ticker1", "/io/github/tickerd/Ticker1",
            "io.github.tickerd.Ticker1.Control", "List", "s", "",
        ])
        guard output.status == 0 else { throw TestSupportError("busctl List failed: \(output.stderr)") }
        let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let data = (json?["data"] as? [Any])?.first as? [[Any]] ?? []
        return data.compactMap { entry in
            guard entry.count == 2, let id = entry[0] as? String, let fields = entry[1] as? [String: [String: Any]] else {
                return nil
            }
            return Listed(
                id: id, channel: fields["channel"]?["data"] as? String ?? "",
                text: fields["text"]?["data"] as? String ?? "", urgent: fields["urgent"]?["data"] as? Bool ?? false,
                link: fields["link"]?["data"] as? String, end: (fields["end"]?["data"] as? NSNumber)?.int64Value)
        }
    }

    /// The messages of source `name` (ids `src/<name>/…`).
    func messages(of name: String) throws -> [Listed] {
        try list().filter { $0.id.hasPrefix("src/\(name)/") }
    }

    /// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held.
    @discardableResult
    func wait(_ timeout: Duration = .seconds(10), until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    /// What the service logged so far.
    var log: String { service?.standardError ?? "" }

    /// Runs `executable` and fails unless it exits 0; returns stdout.
    @discardableResult
    func ok(_ executable: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let output = try ChildProcess.run(executable, arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        #expect(output.status == 0, "\(executable) \(arguments) failed: \(output.stderr)", sourceLocation: sourceLocation)
        return output.stdout
    }
}
