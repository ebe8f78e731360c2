import Foundation
import TestSupport

/// dbus-monitor on a screen's bus, recording tickerd's MessageStarted and MessageEnded signals:
/// the independent witness that nothing was posted twice.
final class SignalLog: @unchecked Sendable {
    private let monitor: ChildProcess

    /// Starts watching the bus at `address`; returns once dbus-monitor is listening.
    init(address: String) throws {
        monitor = try ChildProcess("dbus-monitor", [
            "--address", address, "type='signal',interface='io.github.tickerd.Ticker1.Manager'",
        ])
        // dbus-monitor prints its own NameAcquired/NameLost once its match rules are in place.
        _ = monitor.waitForOutput(timeout: .seconds(10)) { $0.contains("NameAcquired") || $0.contains("NameLost") }
    }

    deinit {
        monitor.kill(SIGTERM)
        _ = try? monitor.wait(timeout: .seconds(5))
    }

    /// The ids of every `member` signal (`MessageStarted`, `MessageEnded`) seen, in order.
    func ids(_ member: String) -> [String] {
        let blocks = monitor.standardOutput.components(separatedBy: "\nsignal ")
        return blocks.filter { $0.contains("member=\(member)") }.compactMap { block in
            let strings = block.components(separatedBy: "\n").filter { $0.contains("string \"") }
            guard strings.count >= 2, let first = strings[1].range(of: "string \"") else { return nil }
            return String(strings[1][first.upperBound...].dropLast())
        }
    }
}
