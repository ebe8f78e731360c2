import DBus
import Logging

/// Notices the machine resuming from suspend through logind's `PrepareForSleep(false)` signal, so
/// the schedule is re-evaluated at once (the realtime timerfd's CANCEL_ON_SET covers clock steps;
/// this covers a suspend during which no clock was set).
///
/// It listens on the daemon's own connection (logind lives on the system bus) and, for a session
/// daemon, on a connection of its own to the system bus when there is one. A forged signal could
/// at most cause one extra evaluation, which changes nothing: evaluation is idempotent.
final class SleepWatcher {
    private var subscriptions: [SignalSubscription] = []
    private var systemConnection: Connection?

    /// The match for logind's signal.
    static func rule() throws -> MatchRule {
        MatchRule(
            sender: "org.freedesktop.login1", interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep",
            path: try ObjectPath("/org/freedesktop/login1"))
    }

    /// Watches on `connection`, and also on the system bus when `alsoSystemBus` (a session daemon).
    init(connection: Connection, alsoSystemBus: Bool, logger: Logger, onResume: @escaping () -> Void) throws {
        let handler: (Message) -> Void = { message in
            guard case .bool(false)? = try? message.arguments().first else { return }
            logger.info("resumed from suspend; re-evaluating the schedule")
            onResume()
        }
        subscriptions.append(try connection.addMatch(Self.rule(), handler: handler))
        guard alsoSystemBus else { return }
        do {
            let system = try Connection(bus: .system, loop: connection.loop)
            subscriptions.append(try system.addMatch(Self.rule(), handler: handler))
            systemConnection = system
        } catch {
            logger.debug("no system bus to hear logind's PrepareForSleep from: \(error)")
        }
    }

    /// Stops watching and closes the system bus connection.
    func cancel() {
        subscriptions.forEach { $0.cancel() }
        subscriptions.removeAll()
        systemConnection?.close()
        systemConnection = nil
    }
}
