import Foundation
import Testing
import TestSupport

/// The real `tickerctl` and `tickerd` binaries on a private bus, and busctl as the independent peer.
final class CLIFixture: Sendable {
    let daemon: TickerdProcess
    /// What the daemon's environment adds; tickerctl runs with it too (the same `TZ`, say).
    let environment: [String: String]

    init(config: String = "", environment: [String: String] = [:]) throws {
        daemon = try TickerdProcess(config: config, environment: environment)
        self.environment = environment
    }

    deinit {
        _ = try? daemon.stop()
        daemon.bus.stop()
    }

    var address: String { daemon.bus.address }
    static var tickerctl: String { TickerdProcess.binary("tickerctl") }

    /// Runs `tickerctl --bus ADDRESS arguments…`.
    func run(_ arguments: [String]) throws -> ChildProcess.Output {
        try ChildProcess.run(Self.tickerctl, ["--bus", address] + arguments, environment: environment)
    }

    /// Runs tickerctl and fails the test unless it exits 0; returns stdout.
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let output = try run(arguments)
        #expect(output.status == 0, "tickerctl \(arguments) failed: \(output.stderr)", sourceLocation: sourceLocation)
        return output.stdout
    }

    /// Starts `tickerctl follow` with `arguments` on this bus.
    func follow(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(Self.tickerctl, ["--bus", address, "follow"] + arguments)
    }

    /// `busctl --json=short` with this bus.
    func busctl(_ arguments: [String]) throws -> [String: Any] {
        let output = try ChildProcess.run("busctl", ["--address=\(address)", "--json=short", "--"] + arguments)
        guard output.status == 0 else { throw TestSupportError("busctl \(arguments): \(output.stderr)") }
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    /// A channel property read by busctl.
    func property(_ name: String, channel: String = "main") throws -> Any? {
        try busctl([
            "get-property", "io.github.tickerd.Ticker1", "/io/github/tickerd/Ticker1/channel/\(channel)",
            "io.github.tickerd.Ticker1.Channel", name,
        ])["data"]
    }

    /// Waits (polling the property with busctl, with a deadline) until `condition` holds for it.
    func waitForProperty(
        _ name: String, channel: String = "main", timeout: Duration = .seconds(15), _ condition: (Any?) -> Bool
    ) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if condition(try property(name, channel: channel)) { return true }
        } while ContinuousClock.now < deadline
        return false
    }

    /// `Render(columns, at)` through busctl: the frame text.
    func render(columns: Int, at: Int64, channel: String = "main") throws -> String {
        let reply = try busctl([
            "call", "io.github.tickerd.Ticker1", "/io/github/tickerd/Ticker1/channel/\(channel)",
            "io.github.tickerd.Ticker1.Channel", "Render", "ux", "\(columns)", "\(at)",
        ])
        return try #require((reply["data"] as? [Any])?.first as? String)
    }

    /// The JSON objects among `text`'s complete lines.
    static func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }
}
